import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderBook } from '../../src/book/order-book.ts';
import type { Side } from '../../src/core/types.ts';
import { parseScenario } from '../../src/scenario/load.ts';
import { InProcessPort } from '../../src/sim/in-process-port.ts';
import { CapturedSide, L2Capture } from '../../src/sim/lazy-book-levels.ts';
import { Simulation } from '../../src/sim/simulation.ts';
import type { BookUpdate, MarketDataMessage } from '../../src/wire/market-data.ts';

const plain = (c: CapturedSide) => ({ p: [...c.priceTicks], q: [...c.qtyLots] });

/** A book where each level is one order, set to any quantity (0: gone) by replacing that order. */
class LevelBook {
  readonly book = new OrderBook();
  private readonly ids = new Map<string, number>();
  private next = 1;

  set(side: Side, priceTicks: number, qtyLots: number): void {
    const key = `${side}${priceTicks}`;
    const id = this.ids.get(key);
    if (id !== undefined) this.book.cancel(id);
    this.ids.delete(key);
    if (qtyLots > 0) {
      this.ids.set(key, this.next);
      this.book.place({ orderId: this.next++, ownerId: 1, side, priceTicks, qtyLots, tif: 'GTC', postOnly: false });
    }
  }
}

// Bids at 1,000–1,060, asks at 2,000–2,060: never crossing.
const level = fc.tuple(fc.constantFrom<Side>('B', 'S'), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 9 }));
const priceOf = (side: Side, offset: number) => (side === 'B' ? 1_000 : 2_000) + offset;

describe('a LEVEL_2 capture updated from the levels that changed', () => {
  it('equals a full capture of the book, whatever changed and whatever else is named', () => {
    fc.assert(
      fc.property(fc.array(level, { maxLength: 60 }), fc.array(level, { maxLength: 30 }), fc.array(level, { maxLength: 10 }), (before, changes, extra) => {
        const b = new LevelBook();
        for (const [side, offset, qty] of before) b.set(side, priceOf(side, offset), qty);
        const last = { B: CapturedSide.of(b.book, 'B'), S: CapturedSide.of(b.book, 'S') };
        const named = { B: [] as number[], S: [] as number[] };
        for (const [side, offset, qty] of changes) {
          b.set(side, priceOf(side, offset), qty);
          named[side].push(priceOf(side, offset));
        }
        // Levels named that did not change (or appear twice) change nothing.
        for (const [side, offset] of extra) named[side].push(priceOf(side, offset));
        for (const side of ['B', 'S'] as const) {
          const want = CapturedSide.of(b.book, side);
          const got = CapturedSide.updated(b.book, side, last[side], named[side]);
          expect(plain(got)).toEqual(plain(want));
          // Unchanged: the last capture itself (the port then sends nothing).
          expect(got === last[side]).toBe(want.equals(last[side]));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('captured again in full equals the first levels of the book, and is the last capture itself when those did not change', () => {
    // Runs of small changes (each may leave the captured levels as they were), at any depth:
    // the unchanged case must not take the new capture, the changed one must not keep the old.
    fc.assert(
      fc.property(fc.constantFrom(1, 2, 3, 5, Infinity), fc.array(fc.array(level, { maxLength: 3 }), { minLength: 1, maxLength: 40 }), (depth, rounds) => {
        const b = new LevelBook();
        const last: Record<Side, CapturedSide | undefined> = { B: undefined, S: undefined };
        for (const changes of rounds) {
          for (const [side, offset, qty] of changes) b.set(side, priceOf(side, offset), qty);
          for (const side of ['B', 'S'] as const) {
            const { bids, asks } = b.book.l2(depth);
            const want = (side === 'B' ? bids : asks).map((l) => [l.priceTicks, l.qtyLots]);
            const got = CapturedSide.unlessSame(b.book, side, last[side], depth);
            expect([...got.priceTicks].map((p, i) => [p, got.qtyLots[i]])).toEqual(want);
            const before = last[side] === undefined ? undefined : plain(last[side]);
            expect(got === last[side]).toBe(before !== undefined && JSON.stringify(before) === JSON.stringify(plain(got)));
            last[side] = got;
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("a LEVEL_2 capture taken again after the book's changes", () => {
  it('equals reading every side, reads only the sides whose change count moved, and says whether anything changed', () => {
    // Rounds of changes that often touch one side only, or set a level back to what it was.
    fc.assert(
      fc.property(fc.constantFrom(1, 3, Infinity), fc.array(fc.array(level, { maxLength: 3 }), { minLength: 1, maxLength: 40 }), (depth, rounds) => {
        const b = new LevelBook();
        const capture = L2Capture.of(b.book, depth, 0, undefined);
        const reads = { B: 0, S: 0 };
        const l2Arrays = b.book.l2Arrays.bind(b.book);
        b.book.l2Arrays = (side, depth) => (reads[side]++, l2Arrays(side, depth));
        for (const changes of rounds) {
          const last = { B: capture.bids, S: capture.asks };
          const counts = { B: b.book.changesOf('B'), S: b.book.changesOf('S') };
          for (const [side, offset, qty] of changes) b.set(side, priceOf(side, offset), qty);
          const readsBefore = { ...reads };
          const changed = capture.next(b.book, 0, undefined);
          const readsAfter = { ...reads };
          const got = { B: capture.bids, S: capture.asks };
          for (const side of ['B', 'S'] as const) {
            expect(plain(got[side])).toEqual(plain(CapturedSide.of(b.book, side, depth)));
            if (b.book.changesOf(side) === counts[side]) {
              expect(got[side]).toBe(last[side]);
              expect(readsAfter[side]).toBe(readsBefore[side]);
            }
          }
          expect(changed).toBe(!got.B.equals(last.B) || !got.S.equals(last.S));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('LEVEL_2 updates of an in-process port over recorded liquidity and account orders', () => {
  const step = fc.oneof(
    fc.record({ kind: fc.constant('levels' as const), reset: fc.integer({ min: 0, max: 7 }).map((x) => x === 0), levels: fc.array(fc.tuple(fc.constantFrom<Side>('B', 'S'), fc.integer({ min: -10, max: 30 }), fc.integer({ min: 0, max: 5 })), { maxLength: 8 }) }),
    fc.record({ kind: fc.constant('order' as const), side: fc.constantFrom<Side>('B', 'S'), offset: fc.integer({ min: -5, max: 30 }), qty: fc.integer({ min: 1, max: 4 }) }),
    fc.record({ kind: fc.constant('cancel' as const), which: fc.nat() }),
  );

  it('show the level of an account order a recorded level traded with', () => {
    const sim = new Simulation(parseScenario({ name: 'l2-capture', instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' }], users: [{ username: 'alice', password: 'pw', cash: '100000000' }] }));
    const market = sim.venue.market('BTCUSD-PERP')!;
    const alice = sim.venue.account('alice')!;
    const port = new InProcessPort(sim.venue, alice);
    const books: BookUpdate[] = [];
    port.onMarketData((m: MarketDataMessage) => void (m.t === '2' && books.push(m as BookUpdate)));
    sim.start();
    void port.subscribe('BTCUSD-PERP', 'LEVEL_2');
    const settle = () => sim.clock.runUntil(sim.clock.nowNs + 1_000_000n);
    const recorded = (side: Side, priceTicks: number, qtyLots: number) => {
      sim.venue.exclusive(() => sim.venue.external.applyLevels(market, [{ side, priceTicks, qtyLots }], false));
      settle();
    };
    settle();
    recorded('S', 100_020, 3);
    sim.venue.placeOrderId(alice, { symbol: 'BTCUSD-PERP', price: '50005', quantity: 2, side: 'S', timeInForce: 'GTC', postOnly: false });
    settle();
    recorded('S', 100_030, 3); // after this one, only recorded changes until the next capture
    recorded('B', 100_010, 1); // takes 1 of alice's 2 lots at 50005
    expect(books[books.length - 1]!.a).toEqual([{ p: '50005', q: 1 }, { p: '50010', q: 3 }, { p: '50015', q: 3 }]);
  });

  it('each equal the book when captured, and come exactly when the book differs from the last one sent', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        const sim = new Simulation(parseScenario({ name: 'l2-capture', instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' }], users: [{ username: 'alice', password: 'pw', cash: '100000000' }] }));
        const market = sim.venue.market('BTCUSD-PERP')!;
        const alice = sim.venue.account('alice')!;
        const port = new InProcessPort(sim.venue, alice);
        const books: BookUpdate[] = [];
        port.onMarketData((m: MarketDataMessage) => {
          if (m.t === '2') books.push(m as BookUpdate);
        });
        sim.start();
        void port.subscribe('BTCUSD-PERP', 'LEVEL_2');
        const settle = () => sim.clock.runUntil(sim.clock.nowNs + 1_000_000n);
        settle();
        const view = () => {
          const { bids, asks } = market.book.l2();
          const text = (l: { priceTicks: number; qtyLots: number }) => ({ p: market.instrument.tick.toPrice(l.priceTicks), q: l.qtyLots });
          return JSON.stringify({ b: bids.map(text), a: asks.map(text) });
        };
        const sent = (u: BookUpdate) => JSON.stringify({ b: u.b, a: u.a });
        const orders: string[] = [];
        // Recorded bids from 100,010 ticks down, asks from 100,000 up, account orders around them: each may cross the other.
        for (const s of steps) {
          const seen = books.length;
          const before = sent(books[books.length - 1]!);
          if (s.kind === 'levels') {
            const updates = s.levels.map(([side, offset, qtyLots]) => ({ side, priceTicks: side === 'B' ? 100_000 - offset : 100_010 + offset, qtyLots }));
            sim.venue.exclusive(() => sim.venue.external.applyLevels(market, updates, s.reset));
          } else if (s.kind === 'order') {
            const priceTicks = s.side === 'B' ? 100_000 - s.offset : 100_010 + s.offset;
            const id = sim.venue.placeOrderId(alice, { symbol: 'BTCUSD-PERP', price: market.instrument.tick.toPrice(priceTicks), quantity: s.qty, side: s.side, timeInForce: 'GTC', postOnly: false });
            orders.push(id);
          } else if (orders.length > 0) {
            sim.venue.cancelOrder(alice, orders.splice(s.which % orders.length, 1)[0]!);
          }
          settle();
          const now = view();
          if (now === before) expect(books.length).toBe(seen);
          else {
            expect(books.length).toBe(seen + 1);
            expect(sent(books[books.length - 1]!)).toBe(now);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
