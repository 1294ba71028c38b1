import type { RecordBatch } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readEventRecords } from '../../src/sim/event-log/reader.ts';
import { EventLogRecorder } from '../../src/sim/event-log/recorder.ts';
import type { VenueListener } from '../../src/venue/feeds.ts';
import type { OrderFeed } from '../../src/wire/order.ts';
import { aliceAndBob, BTC } from './alice-and-bob.ts';

type Step =
  | { kind: 'ticks'; who: 0 | 1; side: 'B' | 'S'; offsetTicks: number; qty: number; tif: 'GTC' | 'IOC' }
  | { kind: 'text'; who: 0 | 1; symbol: string; price: string; qty: number }
  | { kind: 'cancel'; who: 0 | 1; pick: number }
  | { kind: 'cancelUnknown'; who: 0 | 1 };

const who = fc.constantFrom<0 | 1>(0, 1);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('ticks' as const), who, side: fc.constantFrom<'B' | 'S'>('B', 'S'), offsetTicks: fc.integer({ min: -5, max: 5 }), qty: fc.integer({ min: 1, max: 5 }), tif: fc.constantFrom<'GTC' | 'IOC'>('GTC', 'IOC') }),
  // Through the wire's text: prices on and off the grid, an unknown symbol, a quantity no order may have.
  fc.record({ kind: fc.constant('text' as const), who, symbol: fc.constantFrom(BTC, BTC, 'XYZ-PERP'), price: fc.constantFrom('50000.5', '49999', '50000.25', '0', '-3'), qty: fc.constantFrom(1, 2, 0, 1.5) }),
  fc.record({ kind: fc.constant('cancel' as const), who, pick: fc.nat(30) }),
  fc.record({ kind: fc.constant('cancelUnknown' as const), who }),
);

/**
 * The rows of the log of `steps`, with feed rows read from the order events' numbers (the
 * recorder as it is) or from the wire feeds (its `feedRow`, the way every feed row was written
 * before: the oracle).
 */
function rows(steps: readonly Step[], fromFeeds: boolean) {
  const sim = aliceAndBob('feed-rows');
  const batches: RecordBatch[] = [];
  const recorder = new EventLogRecorder(sim.venue, { onBatch: (b) => batches.push(b), batchRows: 64 });
  const listener: VenueListener = fromFeeds
    ? {
        orderFeed: (userId: number, feed: OrderFeed) => (recorder as unknown as { feedRow(u: number, f: OrderFeed): void }).feedRow(userId, feed),
        trade: (t, m) => recorder.trade(t, m),
        bookChanged: (m) => recorder.bookChanged(m),
        markRecorded: (m) => recorder.markRecorded(m),
        fundingSettled: (m) => recorder.fundingSettled(m),
        indexChanged: (m) => recorder.indexChanged(m),
        instrumentStateChanged: (m) => recorder.instrumentStateChanged(m),
      }
    : recorder;
  sim.venue.subscribe(listener);
  recorder.snapshot();
  const v = sim.venue;
  const users = [v.account('alice')!, v.account('bob')!];
  const market = v.market(BTC)!;
  const ids: string[] = [];
  for (const s of steps) {
    const user = users[s.who]!;
    if (s.kind === 'ticks') ids.push(v.placeOrderTicks(user, market, s.side, 100_000 + s.offsetTicks, s.qty, s.tif).id);
    else if (s.kind === 'text') {
      try {
        ids.push(v.placeOrder(user, { symbol: s.symbol, price: s.price, quantity: s.qty, side: 'S', timeInForce: 'GTC', postOnly: false }).id);
      } catch {
        // a text the venue refuses outright (no feed): nothing logged, in both runs alike
      }
    }
    else if (s.kind === 'cancel') v.cancelOrder(user, ids[s.pick % Math.max(ids.length, 1)] ?? 'O-NONE');
    else v.cancelOrder(user, 'O-NOSUCHORDER');
    sim.clock.runUntil(sim.clock.nowNs + 1_000_000n);
  }
  recorder.flush();
  return [...readEventRecords(batches)];
}

describe('the event log’s feed rows', () => {
  it('read from the order events’ numbers equal those read from the wire feeds, rejects and odd prices included', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        const fromEvents = rows(steps, false);
        expect(fromEvents).toEqual(rows(steps, true));
        expect(fromEvents.some((r) => r.kind === 'feed')).toBe(true);
      }),
      { numRuns: 200, seed: 0xfeed },
    );
  });
});
