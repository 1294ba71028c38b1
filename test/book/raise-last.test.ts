import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderBook } from '../../src/book/order-book.ts';
import type { Side } from '../../src/core/types.ts';

// Bids at 100–110, asks at 200–210 (never crossing), owners 1–3, ids from 1.
const order = fc.tuple(fc.constantFrom<Side>('B', 'S'), fc.integer({ min: 0, max: 10 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 3 }));
const priceOf = (side: Side, offset: number) => (side === 'B' ? 100 : 200) + offset;

function bookOf(orders: [Side, number, number, number][], canceled: number[]): OrderBook {
  const book = new OrderBook();
  orders.forEach(([side, offset, qtyLots, ownerId], i) => book.place({ orderId: i + 1, ownerId, side, priceTicks: priceOf(side, offset), qtyLots, tif: 'GTC', postOnly: false }));
  for (const id of canceled) book.cancel(id);
  return book;
}

describe('raising the last order of a level in place', () => {
  it('gives the book that placing the new id and canceling the old one gives, or changes nothing when the order is not last', () => {
    fc.assert(
      fc.property(fc.array(order, { minLength: 1, maxLength: 40 }), fc.array(fc.nat(), { maxLength: 10 }), fc.nat(), fc.integer({ min: 1, max: 20 }), (orders, cancels, pick, more) => {
        const canceled = cancels.map((c) => (c % orders.length) + 1);
        const id = (pick % orders.length) + 1;
        const [side, offset] = orders[id - 1]!;
        const priceTicks = priceOf(side, offset);
        const a = bookOf(orders, canceled);
        const b = bookOf(orders, canceled);
        if (!a.has(id)) {
          expect(a.raiseLast(id, 1_000, 5)).toBe(false);
          expect(a.stateHash()).toBe(b.stateHash());
          return;
        }
        const qtyLots = a.openLots(id) + more;
        const queue = a.levelQueue(side, priceTicks);
        const last = queue[queue.length - 1]!.orderId === id;
        expect(a.raiseLast(id, 1_000, qtyLots)).toBe(last);
        if (!last) {
          expect(a.stateHash()).toBe(b.stateHash());
          return;
        }
        const ownerId = queue[queue.length - 1]!.ownerId;
        b.place({ orderId: 1_000, ownerId, side, priceTicks, qtyLots, tif: 'GTC', postOnly: false });
        b.cancel(id);
        expect(a.stateHash()).toBe(b.stateHash());
        expect(a.l3()).toEqual(b.l3());
        expect(a.levelLots(side, priceTicks)).toBe(b.levelLots(side, priceTicks));
        expect([a.has(id), a.openLots(1_000), a.orderCount]).toEqual([false, qtyLots, b.orderCount]);
        // The book goes on as the other one does: a taker through the level meets the same queue.
        const taker = { orderId: 2_000, ownerId: 9, side: side === 'B' ? ('S' as const) : ('B' as const), priceTicks, qtyLots: 1_000, tif: 'IOC' as const, postOnly: false };
        expect(a.place(taker)).toEqual(b.place(taker));
      }),
      { numRuns: 400 },
    );
  });

  it('refuses an id already on the book and a quantity that does not grow', () => {
    const book = bookOf([['B', 0, 5, 1], ['B', 1, 5, 1]], []);
    expect(() => book.raiseLast(1, 2, 9)).toThrow(RangeError);
    expect(() => book.raiseLast(1, 3, 5)).toThrow(RangeError);
    expect(book.openLots(1)).toBe(5);
  });
});
