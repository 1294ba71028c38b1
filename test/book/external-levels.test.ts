import { describe, expect, it } from 'vitest';
import { BookEvents } from '../../src/book/book-events.ts';
import type { PlaceCommand } from '../../src/book/events.ts';
import { OrderBook } from '../../src/book/order-book.ts';
import type { Side } from '../../src/core/types.ts';

/** The rules of recorded (external) quantity in a level, one by one (the oracle test drives them all). */

const EXT = -1;

function gtc(orderId: number, side: Side, priceTicks: number, qtyLots: number, ownerId = 1): PlaceCommand {
  return { orderId, ownerId, side, priceTicks, qtyLots, tif: 'GTC', postOnly: false };
}

function set(book: OrderBook, side: Side, priceTicks: number, qtyLots: number, externalId: number): BookEvents {
  const out = new BookEvents();
  book.setExternalInto(side, priceTicks, qtyLots, externalId, out);
  return out;
}

const ids = (book: OrderBook, side: Side, priceTicks: number): number[] => book.levelQueue(side, priceTicks).map((e) => e.orderId);

describe('recorded quantity in a level', () => {
  it('keeps its queue place when it decreases', () => {
    const book = new OrderBook();
    book.place(gtc(1, 'B', 100, 5));
    set(book, 'B', 100, 10, 500);
    book.place(gtc(2, 'B', 100, 5));
    set(book, 'B', 100, 4, 501);
    expect(book.levelQueue('B', 100)).toEqual([
      { orderId: 1, ownerId: 1, qtyLots: 5 },
      { orderId: 500, ownerId: EXT, qtyLots: 4 },
      { orderId: 2, ownerId: 1, qtyLots: 5 },
    ]);
    expect(book.levelLots('B', 100)).toBe(14);
  });

  it('goes behind every order resting there, with the new id, when it increases', () => {
    const book = new OrderBook();
    set(book, 'S', 100, 10, 500);
    book.place(gtc(1, 'S', 100, 5));
    book.place(gtc(2, 'S', 100, 5));
    set(book, 'S', 100, 11, 501);
    expect(ids(book, 'S', 100)).toEqual([1, 2, 501]);
    expect(book.externalLots('S', 100)).toBe(11);
    expect(book.externalIdAt('S', 100)).toBe(501);
  });

  it('trades with the account orders it crosses at their prices when it increases at a crossing price, the rest resting', () => {
    const book = new OrderBook();
    book.place(gtc(1, 'S', 101, 3, 7));
    book.place(gtc(2, 'S', 102, 4, 8));
    const out = set(book, 'B', 102, 10, 500);
    expect(out.toArray()).toEqual([
      { kind: 'trade', makerId: 1, makerOwnerId: 7, takerId: 500, takerOwnerId: EXT, takerSide: 'B', priceTicks: 101, qtyLots: 3, makerRemainingLots: 0, takerRemainingLots: 7 },
      { kind: 'trade', makerId: 2, makerOwnerId: 8, takerId: 500, takerOwnerId: EXT, takerSide: 'B', priceTicks: 102, qtyLots: 4, makerRemainingLots: 0, takerRemainingLots: 3 },
    ]);
    expect(book.l2()).toEqual({ bids: [{ priceTicks: 102, qtyLots: 3 }], asks: [] });
    expect(book.externalLots('B', 102)).toBe(3);
  });

  it('is met by an account taker after the orders ahead of it and before those behind it', () => {
    const book = new OrderBook();
    book.place(gtc(1, 'B', 100, 2));
    set(book, 'B', 100, 3, 500);
    book.place(gtc(2, 'B', 100, 4));
    const out = book.place({ ...gtc(9, 'S', 100, 20, 2), tif: 'IOC' });
    expect(out.filter((e) => e.kind === 'trade').map((e) => (e.kind === 'trade' ? [e.makerId, e.makerOwnerId, e.qtyLots, e.makerRemainingLots] : []))).toEqual([
      [1, 1, 2, 0],
      [500, EXT, 3, 0],
      [2, 1, 4, 0],
    ]);
    expect(book.depthOf('B')).toBe(0);
  });

  it('keeps its place after a partial fill', () => {
    const book = new OrderBook();
    set(book, 'S', 100, 10, 500);
    book.place(gtc(1, 'S', 100, 5));
    const [trade] = book.place({ ...gtc(9, 'B', 100, 4, 2), tif: 'IOC' });
    expect(trade).toMatchObject({ kind: 'trade', makerId: 500, makerOwnerId: EXT, qtyLots: 4, makerRemainingLots: 6 });
    expect(book.levelQueue('S', 100)).toEqual([
      { orderId: 500, ownerId: EXT, qtyLots: 6 },
      { orderId: 1, ownerId: 1, qtyLots: 5 },
    ]);
  });

  it('makes a level with no orders a level for best prices, l1 and l2', () => {
    const book = new OrderBook();
    set(book, 'B', 99, 7, 500);
    set(book, 'S', 101, 8, 501);
    expect([book.bestBidTicks(), book.bestAskTicks(), book.orderCount, book.restingLots()]).toEqual([99, 101, 0, 15]);
    expect(book.l1()).toEqual({ bid: { priceTicks: 99, qtyLots: 7 }, ask: { priceTicks: 101, qtyLots: 8 } });
    expect(book.l3()).toEqual({ bids: [{ priceTicks: 99, qtyLots: 7, orders: [{ orderId: 500, qtyLots: 7 }] }], asks: [{ priceTicks: 101, qtyLots: 8, orders: [{ orderId: 501, qtyLots: 8 }] }] });
  });

  it('frees a level left with no orders when it is removed, and leaves a level with orders', () => {
    const book = new OrderBook();
    set(book, 'B', 99, 7, 500);
    set(book, 'B', 98, 7, 501);
    book.place(gtc(1, 'B', 98, 1));
    set(book, 'B', 99, 0, 0);
    set(book, 'B', 98, 0, 0);
    expect(book.l2().bids).toEqual([{ priceTicks: 98, qtyLots: 1 }]);
    expect(book.externalLots('B', 99)).toBe(0);
    // The level at 99 is new again: an order placed there is alone in it.
    book.place(gtc(2, 'B', 99, 1));
    expect(ids(book, 'B', 99)).toEqual([2]);
  });

  it('keeps the level when its last order goes, and goes with it when a taker takes it all', () => {
    const book = new OrderBook();
    book.place(gtc(1, 'S', 100, 5));
    set(book, 'S', 100, 3, 500);
    book.cancel(1);
    expect(book.l2().asks).toEqual([{ priceTicks: 100, qtyLots: 3 }]);
    book.place({ ...gtc(9, 'B', 100, 3), tif: 'IOC' });
    expect(book.depthOf('S')).toBe(0);
  });

  it('keeps its place among the live orders when the canceled ones around it are compacted away', () => {
    const book = new OrderBook();
    for (let id = 1; id <= 30; id++) book.place(gtc(id, 'B', 100, 1));
    set(book, 'B', 100, 9, 500);
    for (let id = 31; id <= 60; id++) book.place(gtc(id, 'B', 100, 1));
    // 50 cancels of 60 orders: the ring is compacted on the way.
    for (let id = 1; id <= 60; id++) if (id % 6 !== 0) book.cancel(id);
    expect(ids(book, 'B', 100)).toEqual([6, 12, 18, 24, 30, 500, 36, 42, 48, 54, 60]);
  });

  it('never self-trades, and shows the owner the book was given', () => {
    const book = new OrderBook({ selfTrade: 'cancel-resting', externalOwner: -7 });
    set(book, 'S', 100, 5, 500);
    const out = book.place(gtc(1, 'B', 100, 2, -7 + 8));
    expect(out[0]).toMatchObject({ kind: 'trade', makerId: 500, makerOwnerId: -7, qtyLots: 2 });
    expect(book.levelQueue('S', 100)).toEqual([{ orderId: 500, ownerId: -7, qtyLots: 3 }]);
  });

  it('refuses to cross opposite recorded quantity, and changes nothing', () => {
    const book = new OrderBook();
    book.place(gtc(1, 'S', 101, 2));
    set(book, 'S', 102, 5, 500);
    const before = book.stateHash();
    expect(() => set(book, 'B', 102, 9, 501)).toThrow(RangeError);
    expect(book.stateHash()).toBe(before);
    expect(() => set(book, 'B', 100, -1, 502)).toThrow(RangeError);
    expect(() => set(book, 'B', 100.5, 1, 502)).toThrow(RangeError);
  });

  it('is no order: not counted, not canceled or reduced by its id, and it stops raiseLast of the order ahead', () => {
    const book = new OrderBook();
    book.place(gtc(1, 'B', 100, 5));
    set(book, 'B', 100, 3, 500);
    expect([book.orderCount, book.has(500), book.openLots(500)]).toEqual([1, false, 0]);
    expect(book.cancel(500)).toEqual([{ kind: 'cancel-rejected', orderId: 500, reason: 'UNKNOWN_ORDER' }]);
    expect(book.raiseLast(1, 2, 9)).toBe(false);
    set(book, 'B', 100, 0, 0);
    expect(book.raiseLast(1, 2, 9)).toBe(true);
  });
});

describe('restoring a level from its queue entries', () => {
  it('rebuilds orders and recorded quantity in the saved order, the same book as before', () => {
    const book = new OrderBook();
    book.place(gtc(1, 'B', 100, 2));
    set(book, 'B', 100, 3, 500);
    book.place(gtc(2, 'B', 100, 4, 3));
    book.place(gtc(3, 'B', 99, 1));
    const saved = book.levelQueue('B', 100);
    const hash = book.stateHash();
    // A command takes the front of the level and changes the recorded quantity, then fails.
    book.place({ ...gtc(9, 'S', 100, 4, 2), tif: 'IOC' });
    set(book, 'B', 100, 8, 501);
    book.restoreLevelInto('B', 100, saved, new BookEvents());
    expect(book.levelQueue('B', 100)).toEqual(saved);
    expect(book.stateHash()).toBe(hash);
  });

  it('makes a level that was gone, and removes one whose saved queue is empty', () => {
    const book = new OrderBook();
    set(book, 'S', 100, 3, 500);
    book.place(gtc(1, 'S', 100, 2));
    const saved = book.levelQueue('S', 100);
    const hash = book.stateHash();
    book.place({ ...gtc(9, 'B', 100, 5), tif: 'IOC' });
    expect(book.depthOf('S')).toBe(0);
    book.restoreLevelInto('S', 100, saved, new BookEvents());
    expect(book.stateHash()).toBe(hash);
    book.restoreLevelInto('S', 100, [], new BookEvents());
    expect(book.depthOf('S')).toBe(0);
    expect(() => book.restoreLevelInto('S', 100, [saved[0]!, { ...saved[0]!, orderId: 501 }], new BookEvents())).toThrow(RangeError);
  });
});

describe('lowering recorded quantity in one lookup', () => {
  it('applies a decrease or a removal and returns the lots before, and leaves an increase alone', () => {
    const book = new OrderBook();
    book.place(gtc(1, 'B', 100, 5));
    set(book, 'B', 100, 10, 500);
    book.place(gtc(2, 'B', 100, 5));
    expect(book.lowerExternal('B', 100, 4)).toBe(10);
    expect(ids(book, 'B', 100)).toEqual([1, 500, 2]);
    const hash = book.stateHash();
    expect(book.lowerExternal('B', 100, 9)).toBe(4);
    expect(book.stateHash()).toBe(hash);
    expect(book.lowerExternal('B', 100, 0)).toBe(4);
    expect(ids(book, 'B', 100)).toEqual([1, 2]);
    expect(book.lowerExternal('B', 101, 3)).toBe(0);
    expect(book.depthOf('B')).toBe(1);
  });
});

describe('levels emptied by recorded quantity below the touch', () => {
  it('are not seen by any view, come back when refilled, and are purged when they grow many', () => {
    const book = new OrderBook();
    for (let i = 0; i < 200; i++) set(book, 'B', 1_000 - i, 5, 500 + i);
    // Empty 150 levels below the best, one in four refilled at once (the recording's churn).
    for (let i = 1; i <= 150; i++) {
      set(book, 'B', 1_000 - i, 0, 0);
      if (i % 4 === 0) set(book, 'B', 1_000 - i, 7, 900 + i);
    }
    book.place(gtc(1, 'B', 1_000 - 2, 3)); // an order at an emptied price uses it again
    const fresh = new OrderBook();
    for (let i = 0; i < 200; i++) {
      const priceTicks = 1_000 - i;
      if (i === 0 || i > 150) set(fresh, 'B', priceTicks, 5, 500 + i);
      else if (i % 4 === 0) set(fresh, 'B', priceTicks, 7, 900 + i);
      if (i === 2) fresh.place(gtc(1, 'B', priceTicks, 3));
    }
    expect(book.depthOf('B')).toBe(fresh.depthOf('B'));
    // The side's own array was purged of most empty levels (it held 200 before).
    expect((book as unknown as { bids: { length: number } }).bids.length).toBeLessThan(150);
    expect(book.l2()).toEqual(fresh.l2());
    expect(book.l2(10)).toEqual(fresh.l2(10));
    expect(book.l3(7)).toEqual(fresh.l3(7));
    expect(book.stateHash()).toBe(fresh.stateHash());
    const cols = (b: OrderBook) => {
      const p = new Float64Array(30);
      const q = new Float64Array(30);
      return [b.l2Into('B', p, q), [...p], [...q]];
    };
    expect(cols(book)).toEqual(cols(fresh));
    // Takers walk through the emptied prices to the levels below, and the best is never empty.
    const taker = { ...gtc(2, 'S', 1_000 - 170, 200, 9), tif: 'IOC' as const };
    expect(book.place(taker)).toEqual(fresh.place(taker));
    expect([book.bestBidTicks(), book.l1(), book.stateHash()]).toEqual([fresh.bestBidTicks(), fresh.l1(), fresh.stateHash()]);
  });

  it('never leave the best empty: emptying the touch takes the emptied levels under it too', () => {
    const book = new OrderBook();
    for (let i = 0; i < 5; i++) set(book, 'S', 100 + i, 5, 500 + i);
    set(book, 'S', 101, 0, 0);
    set(book, 'S', 102, 0, 0);
    set(book, 'S', 100, 0, 0);
    expect([book.bestAskTicks(), book.depthOf('S'), book.l1().ask]).toEqual([103, 2, { priceTicks: 103, qtyLots: 5 }]);
    book.place(gtc(1, 'S', 104, 1));
    book.place({ ...gtc(2, 'B', 103, 5), tif: 'IOC' });
    expect([book.bestAskTicks(), book.depthOf('S')]).toEqual([104, 1]);
  });
});
