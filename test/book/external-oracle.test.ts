import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BookEvents, EV_TRADE } from '../../src/book/book-events.ts';
import type { BookEvent } from '../../src/book/events.ts';
import { OrderBook, type SelfTradePolicy } from '../../src/book/order-book.ts';
import type { Side } from '../../src/core/types.ts';
import { ExternalOrdersBook } from './external-orders-book.ts';

/**
 * The book's recorded quantity (per-level lot totals) against the design it replaces, one book
 * order per recorded level (`ExternalOrdersBook`): the same command sequences — recorded level
 * sets (increases, decreases, removals, crossing ones) among account places (resting, crossing,
 * IOC, post-only), cancels and reduces — give the same events, views and state hash after
 * every step.
 */

const MID = 100;
/** Recorded ids start just below 2^31, so later ones are not int32s (the book's wide path). */
const EXTERNAL_ID_BASE = 2 ** 31 - 4;

type Step =
  | { op: 'ext'; side: Side; offset: number; qtyLots: number; lowerFirst: boolean }
  | { op: 'place'; side: Side; offset: number; qtyLots: number; ownerId: number; ioc: boolean; postOnly: boolean }
  | { op: 'cancel'; pick: number }
  | { op: 'reduce'; pick: number; byLots: number };

const side = fc.constantFrom<Side>('B', 'S');
/**
 * Steps over `MID ± halfWidth`; `cancels` and `sets` weigh cancels and recorded level sets
 * against places (4) and reduces (1): few sets and many cancels make long queues of canceled
 * entries around the recorded quantity, which are compacted.
 */
const stepOf = (halfWidth: number, cancels = 2, sets = 4): fc.Arbitrary<Step> => {
  const offset = fc.integer({ min: -halfWidth, max: halfWidth });
  // Recorded quantities: mostly small, 0 (a removal) often, now and then beyond 2^31.
  const extLots = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 20 }) }, { weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constant(2 ** 32 + 5) });
  return fc.oneof(
    { weight: sets, arbitrary: fc.record({ op: fc.constant('ext' as const), side, offset, qtyLots: extLots, lowerFirst: fc.boolean() }) },
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constant('place' as const),
        side,
        offset,
        qtyLots: fc.integer({ min: 1, max: 30 }),
        ownerId: fc.integer({ min: 1, max: 3 }),
        ioc: fc.integer({ min: 0, max: 9 }).map((x) => x === 0),
        postOnly: fc.boolean(),
      }),
    },
    { weight: cancels, arbitrary: fc.record({ op: fc.constant('cancel' as const), pick: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('reduce' as const), pick: fc.nat(), byLots: fc.integer({ min: 1, max: 12 }) }) },
  );
};

/** The two books and the ids handed out so far, driven by the same steps. */
class Pair {
  readonly oracle: ExternalOrdersBook;
  readonly book: OrderBook;
  private readonly placed: number[] = [];
  private nextOrderId = 1;
  private nextExternalId = EXTERNAL_ID_BASE;
  private readonly outA = new BookEvents();
  private readonly outB = new BookEvents();

  /** `separate`: bids below the mid, asks above, so only IOC orders cross and queues grow. */
  constructor(selfTrade: SelfTradePolicy, readonly externalOwner: number, private readonly separate = false) {
    this.oracle = new ExternalOrdersBook({ selfTrade }, externalOwner);
    this.book = new OrderBook({ selfTrade, externalOwner });
  }

  apply(step: Step): void {
    this.outA.clear();
    this.outB.clear();
    const a = this.oracle.book;
    const b = this.book;
    switch (step.op) {
      case 'ext': {
        const priceTicks = this.priceOf(step.side, step.offset, false);
        this.removeCrossedRecorded(step.side, priceTicks);
        const id = this.nextExternalId++;
        const before = this.oracle.externalLots(step.side, priceTicks);
        this.oracle.setExternalInto(step.side, priceTicks, step.qtyLots, id, this.outA);
        if (step.lowerFirst) {
          // Through lowerExternal, then setExternalInto only for an increase (as a batch applies them).
          const shown = b.lowerExternal(step.side, priceTicks, step.qtyLots);
          expect(shown).toBe(before);
          if (step.qtyLots > shown) b.setExternalInto(step.side, priceTicks, step.qtyLots, id, this.outB);
        } else {
          b.setExternalInto(step.side, priceTicks, step.qtyLots, id, this.outB);
        }
        // The new book reports the trades, nothing else; the oracle's own order events differ.
        expect(toArray(this.outB)).toEqual(trades(this.outA));
        expect(b.externalLots(step.side, priceTicks)).toBe(this.oracle.externalLots(step.side, priceTicks));
        return;
      }
      case 'place': {
        const orderId = this.nextOrderId++;
        this.placed.push(orderId);
        const cmd = { orderId, ownerId: step.ownerId, side: step.side, priceTicks: this.priceOf(step.side, step.offset, step.ioc), qtyLots: step.qtyLots, tif: step.ioc ? ('IOC' as const) : ('GTC' as const), postOnly: step.postOnly };
        a.placeInto(cmd, this.outA);
        b.placeInto(cmd, this.outB);
        break;
      }
      case 'cancel': {
        const id = this.pick(step.pick);
        a.cancelInto(id, this.outA);
        b.cancelInto(id, this.outB);
        break;
      }
      case 'reduce': {
        const id = this.pick(step.pick);
        a.reduceInto(id, step.byLots, this.outA);
        b.reduceInto(id, step.byLots, this.outB);
        break;
      }
    }
    expect(toArray(this.outB)).toEqual(toArray(this.outA));
  }

  /** Same views, same hash; order counts differ by the recorded levels (orders only in the new book). */
  expectSame(): void {
    const a = this.oracle.book;
    const b = this.book;
    expect(b.l3()).toEqual(a.l3());
    expect(b.l2()).toEqual(a.l2());
    expect(b.l1()).toEqual(a.l1());
    expect(b.stateHash()).toBe(a.stateHash());
    expect(b.restingLots()).toBe(a.restingLots());
    expect(b.orderCount).toBe(a.orderCount - this.oracle.externalLevels());
    for (const s of ['B', 'S'] as const) {
      expect(b.depthOf(s)).toBe(a.depthOf(s));
      for (const level of b.l2()[s === 'B' ? 'bids' : 'asks']) {
        expect(b.levelQueue(s, level.priceTicks)).toEqual(a.levelQueue(s, level.priceTicks));
        expect(b.levelLots(s, level.priceTicks)).toBe(a.levelLots(s, level.priceTicks));
      }
    }
  }

  /** Removes opposite recorded levels a recorded level at `priceTicks` would cross (the caller's job). */
  private removeCrossedRecorded(s: Side, priceTicks: number): void {
    const opposite: Side = s === 'B' ? 'S' : 'B';
    for (const level of this.book.l2()[opposite === 'B' ? 'bids' : 'asks']) {
      if (s === 'B' ? level.priceTicks > priceTicks : level.priceTicks < priceTicks) break;
      if (this.oracle.externalLots(opposite, level.priceTicks) === 0) continue;
      this.oracle.setExternalInto(opposite, level.priceTicks, 0, 0, this.oracle.cleared());
      this.book.setExternalInto(opposite, level.priceTicks, 0, 0, this.outB);
    }
    expect(this.outB.length).toBe(0);
  }

  private priceOf(s: Side, offset: number, crossing: boolean): number {
    if (!this.separate) return MID + offset;
    return (s === 'B') !== crossing ? MID - Math.abs(offset) : MID + 1 + Math.abs(offset);
  }

  /** Mostly a resting order's id; else one placed before (filled or canceled), or an unknown one. */
  private pick(n: number): number {
    const resting = this.placed.filter((id) => this.oracle.book.has(id));
    if (n % 8 === 0 || this.placed.length === 0) return 99_999;
    if (n % 8 === 1 || resting.length === 0) return this.placed[n % this.placed.length]!;
    return resting[n % resting.length]!;
  }
}

function toArray(events: BookEvents): BookEvent[] {
  return events.toArray();
}

function trades(events: BookEvents): BookEvent[] {
  const out: BookEvent[] = [];
  for (let i = 0; i < events.length; i++) if (events.kind(i) === EV_TRADE) out.push(events.at(i));
  return out;
}

const run = (steps: fc.Arbitrary<Step>, maxSteps: number, numRuns: number, separate = false): void =>
  fc.assert(
    fc.property(fc.constantFrom<SelfTradePolicy>('allow', 'cancel-resting'), fc.constantFrom(-1, -7), fc.array(steps, { minLength: maxSteps / 2, maxLength: maxSteps, size: 'max' }), (selfTrade, externalOwner, steps) => {
      const pair = new Pair(selfTrade, externalOwner, separate);
      for (const step of steps) {
        pair.apply(step);
        pair.expectSame();
      }
    }),
    { numRuns },
  );

// Bounded in runs and steps (~1–2 s each on a quiet machine); the timeout only leaves room for a loaded one.
describe('recorded quantity as per-level lot totals, against one book order per recorded level', { timeout: 60_000 }, () => {
  it('gives the same events, l2, l3 and state hash after every step, over a dozen prices', () => {
    run(stepOf(6), 80, 150);
  });

  it('gives the same after every step on three prices, where the sides cross at every price', () => {
    run(stepOf(1), 200, 40);
  });

  it('gives the same after every step on one price a side, apart, where queues grow long and compact', () => {
    run(stepOf(0, 3, 1), 300, 40, true);
  });
});
