import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Side } from '../../src/core/types.ts';
import type { VenueTrade } from '../../src/venue/feeds.ts';
import { SimClock } from '../../src/clock/sim-clock.ts';
import { Venue } from '../../src/venue/venue.ts';
import { ORDER_ID, T0_NS, at, btcConfig, money } from './fixtures.ts';

describe('trades told as a cursor over rows', () => {
  it('show the trade id and both wire ids the order feeds named; the copy a listener keeps (toJSON) still shows them once the orders ended and their slots were reused', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ maker: fc.nat(2), taker: fc.nat(2), side: fc.constantFrom<Side>('B', 'S'), lots: fc.integer({ min: 1, max: 3 }), rest: fc.integer({ min: 0, max: 2 }) }), { minLength: 1, maxLength: 30 }),
        (steps) => {
          // No listener that builds feeds as they happen: the records meet orders whose id is no text yet.
          const clock = new SimClock(T0_NS);
          const venue = new Venue(clock, { instruments: [btcConfig()] });
          const t = { venue, clock, btc: venue.markets[0]! };
          const users = ['a', 'b', 'c'].map((n) => venue.addUser(n, money('100000000')));
          const kept: VenueTrade[] = [];
          const cursors = new Set<object>();
          // A trade is valid during the call: a listener that keeps one keeps its plain copy.
          t.venue.subscribe({ trade: (tr) => void (cursors.add(tr), kept.push(tr.toJSON())) });
          // Which order ids the feeds named for each trade id (p / f feeds carry both).
          const byTrade = new Map<string, { maker?: string; taker?: string; makerUser?: number; takerUser?: number }>();
          t.venue.subscribe({
            orderEvent: (e) => {
              if (e.t !== 'p' && e.t !== 'f') return;
              const f = e.feed();
              const entry = byTrade.get(String(e.tid)) ?? {};
              if (e.aggressor) [entry.taker, entry.takerUser] = [f.o!.oid, e.userId];
              else [entry.maker, entry.makerUser] = [f.o!.oid, e.userId];
              byTrade.set(String(e.tid), entry);
            },
          });
          for (const [i, s] of steps.entries()) {
            // Orders enter at different times (a wire id carries its entry time).
            t.clock.runUntil(at(i) + BigInt(i * 1_234_567));
            // Makers often rest longer than their step: later takers meet orders of earlier times.
            t.venue.placeOrderTicks(users[s.maker]!, t.btc, s.side === 'B' ? 'S' : 'B', 100_000 + s.rest, s.lots + s.rest);
            t.venue.placeOrderTicks(users[s.taker]!, t.btc, s.side, 100_000 + (s.side === 'B' ? 5 : -5), s.lots, 'IOC');
          }
          // Read only now: every maker and taker of these trades has ended and most slots were reused.
          expect(kept.length).toBe(byTrade.size);
          // One cursor reloaded for every trade, no object per trade.
          expect(cursors.size).toBe(kept.length === 0 ? 0 : 1);
          for (const tr of kept) {
            const named = byTrade.get(tr.tid)!;
            expect(tr.makerOrderId).toMatch(ORDER_ID);
            expect([tr.makerOrderId, tr.takerOrderId, tr.makerUserId, tr.takerUserId]).toEqual([named.maker, named.taker, named.makerUser, named.takerUser]);
            // Written out (a log, the wire), a copy is the plain object a trade always was.
            expect(JSON.parse(JSON.stringify(tr))).toEqual({
              tid: tr.tid,
              symbol: 'BTCUSD-PERP',
              sec: tr.sec,
              nanos: tr.nanos,
              priceTicks: tr.priceTicks,
              qtyLots: tr.qtyLots,
              takerSide: tr.takerSide,
              makerOrderId: named.maker,
              takerOrderId: named.taker,
              makerUserId: named.makerUser,
              takerUserId: named.takerUser,
            });
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
