import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BookEvents } from '../../src/book/book-events.ts';
import { OrderBook, type SelfTradePolicy } from '../../src/book/order-book.ts';
import type { Side } from '../../src/core/types.ts';

// `OrderBook.changesOf(side)` lets a reader that copied a side skip reading it again while the
// count stands (the in-process port's LEVEL_2 capture). The promise it must keep: whenever a
// side's levels (price and total, as `l2` lists them) differ from what they were, its count
// moved. Every command that can change a side is driven here, account orders and recorded
// quantity mixed, crossing each other, with self-trade prevention on and off.

const EXTERNAL = -1;

type Step =
  | { k: 'place'; side: Side; offset: number; qty: number; tif: 'GTC' | 'IOC'; postOnly: boolean }
  | { k: 'cancel' | 'reduce' | 'raise'; which: number; lots: number }
  | { k: 'external' | 'lower'; side: Side; offset: number; qty: number }
  | { k: 'restore'; side: Side; offset: number; entries: [number, number][] };

const side = fc.constantFrom<Side>('B', 'S');
// Bids and asks both around 100 ticks apart from 0 to 20: orders cross often.
const offset = fc.integer({ min: 0, max: 20 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ k: fc.constant('place' as const), side, offset, qty: fc.integer({ min: 1, max: 6 }), tif: fc.constantFrom('GTC' as const, 'IOC' as const), postOnly: fc.boolean() }),
  fc.record({ k: fc.constantFrom('cancel' as const, 'reduce' as const, 'raise' as const), which: fc.nat(), lots: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ k: fc.constantFrom('external' as const, 'lower' as const), side, offset, qty: fc.integer({ min: 0, max: 6 }) }),
  fc.record({ k: fc.constant('restore' as const), side, offset, entries: fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 1, max: 4 })), { maxLength: 3 }) }),
);

/** Bids from 110 down, asks from 100 up: the two ranges overlap, so any step may cross. */
const priceOf = (s: Side, off: number): number => (s === 'B' ? 110 - off : 100 + off);

/** Runs one step on the book; ids of live orders in `ids` (stale ones are harmless: the book refuses them). */
function apply(book: OrderBook, s: Step, ids: number[], next: { id: number }): void {
  const out = new BookEvents();
  switch (s.k) {
    case 'place': {
      const orderId = next.id++;
      book.placeInto({ orderId, ownerId: 1 + (orderId % 2), side: s.side, priceTicks: priceOf(s.side, s.offset), qtyLots: s.qty, tif: s.tif, postOnly: s.postOnly }, out);
      ids.push(orderId);
      return;
    }
    case 'cancel':
    case 'reduce':
    case 'raise': {
      if (ids.length === 0) return;
      const id = ids[s.which % ids.length]!;
      if (s.k === 'cancel') book.cancelInto(id, out);
      else if (s.k === 'reduce') book.reduceInto(id, s.lots, out);
      else if (book.has(id)) {
        const newId = next.id++;
        if (book.raiseLast(id, newId, book.openLots(id) + s.lots)) ids.push(newId);
      }
      return;
    }
    case 'external':
    case 'lower':
      try {
        if (s.k === 'external') book.setExternalInto(s.side, priceOf(s.side, s.offset), s.qty, next.id++, out);
        else book.lowerExternal(s.side, priceOf(s.side, s.offset), s.qty);
      } catch (e) {
        // Recorded quantity crossing recorded quantity is refused with nothing changed.
        if (!(e instanceof RangeError)) throw e;
      }
      return;
    case 'restore': {
      const priceTicks = priceOf(s.side, s.offset);
      // Restoring a level that crosses the other side is not what undo does: only resting prices.
      const other = s.side === 'B' ? book.bestAskTicks() : book.bestBidTicks();
      if (other !== undefined && (s.side === 'B' ? priceTicks >= other : priceTicks <= other)) return;
      // The first entry may be the recorded quantity (a level holds at most one).
      const entries = s.entries.map(([owner, qtyLots], i) => ({ orderId: next.id++, ownerId: owner === 0 && i === 0 ? EXTERNAL : 1 + owner, qtyLots }));
      book.restoreLevelInto(s.side, priceTicks, entries, out);
      for (const e of entries) if (e.ownerId !== EXTERNAL) ids.push(e.orderId);
      return;
    }
  }
}

const sideOf = (book: OrderBook, s: Side): string => JSON.stringify(s === 'B' ? book.l2().bids : book.l2().asks);

describe("a book side's change count", () => {
  it('moves whenever the levels of that side differ from before a command, whatever the command', () => {
    let moved = 0;
    let stood = 0;
    fc.assert(
      fc.property(fc.constantFrom<SelfTradePolicy>('allow', 'cancel-resting'), fc.array(step, { minLength: 1, maxLength: 80 }), (selfTrade, steps) => {
        const book = new OrderBook({ selfTrade, externalOwner: EXTERNAL });
        const ids: number[] = [];
        const next = { id: 1 };
        for (const s of steps) {
          const before = { B: sideOf(book, 'B'), S: sideOf(book, 'S') };
          const counts = { B: book.changesOf('B'), S: book.changesOf('S') };
          apply(book, s, ids, next);
          for (const x of ['B', 'S'] as const) {
            expect(book.changesOf(x)).toBeGreaterThanOrEqual(counts[x]);
            if (book.changesOf(x) === counts[x]) {
              expect(sideOf(book, x)).toBe(before[x]);
              stood++;
            } else moved++;
          }
        }
      }),
      { numRuns: 400 },
    );
    // Neither case is rare: the property is not decided by one of them alone.
    expect(Math.min(moved, stood)).toBeGreaterThan(1_000);
  });

  it('moves on the side a command changed and stands on the other', () => {
    const book = new OrderBook({ externalOwner: EXTERNAL });
    const out = new BookEvents();
    const counts = () => [book.changesOf('B'), book.changesOf('S')];
    book.placeInto({ orderId: 1, ownerId: 1, side: 'B', priceTicks: 100, qtyLots: 2, tif: 'GTC', postOnly: false }, out);
    expect(counts()).toEqual([1, 0]);
    book.placeInto({ orderId: 2, ownerId: 2, side: 'S', priceTicks: 101, qtyLots: 2, tif: 'GTC', postOnly: true }, out);
    expect(counts()).toEqual([1, 1]);
    // A post-only order that would cross is rejected: nothing changed, nothing counted.
    book.placeInto({ orderId: 3, ownerId: 2, side: 'S', priceTicks: 100, qtyLots: 1, tif: 'GTC', postOnly: true }, out);
    expect(counts()).toEqual([1, 1]);
    // An IOC that trades changes the side it took from only.
    book.placeInto({ orderId: 4, ownerId: 2, side: 'S', priceTicks: 100, qtyLots: 1, tif: 'IOC', postOnly: false }, out);
    expect(counts()).toEqual([2, 1]);
    book.cancelInto(2, out);
    expect(counts()).toEqual([2, 2]);
    // A cancel of an unknown id changes nothing.
    book.cancelInto(99, out);
    expect(counts()).toEqual([2, 2]);
    book.setExternalInto('S', 105, 3, 10, out);
    expect(counts()).toEqual([2, 3]);
    book.setExternalInto('S', 105, 3, 11, out); // the same quantity: nothing changed
    expect(counts()).toEqual([2, 3]);
    book.lowerExternal('S', 105, 1);
    expect(counts()).toEqual([2, 4]);
    book.reduceInto(1, 1, out);
    expect(counts()).toEqual([3, 4]);
  });
});
