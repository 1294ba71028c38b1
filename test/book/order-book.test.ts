import { describe, it, expect } from 'vitest';
import { OrderBook, type SelfTradePolicy } from '../../src/book/order-book.ts';
import type { BookEvent, L3View, PlaceCommand } from '../../src/book/events.ts';
import type { Side } from '../../src/core/types.ts';
import { ReferenceBook } from './reference-book.ts';

/** The API subset both the real book and the reference book offer. */
interface Book {
  place(cmd: PlaceCommand, out?: BookEvent[]): BookEvent[];
  cancel(orderId: number, out?: BookEvent[]): BookEvent[];
  reduce(orderId: number, byLots: number, out?: BookEvent[]): BookEvent[];
  l3(): L3View;
  bestBidTicks(): number | undefined;
  bestAskTicks(): number | undefined;
}

type Extra = Partial<Pick<PlaceCommand, 'ownerId' | 'tif' | 'postOnly'>>;

function order(side: Side, orderId: number, priceTicks: number, qtyLots: number, extra: Extra = {}): PlaceCommand {
  return { orderId, ownerId: 1, side, priceTicks, qtyLots, tif: 'GTC', postOnly: false, ...extra };
}
const buy = (id: number, price: number, qty: number, extra: Extra = {}) => order('B', id, price, qty, extra);
const sell = (id: number, price: number, qty: number, extra: Extra = {}) => order('S', id, price, qty, extra);

/** Order ids and open lots per level of one side, in view order. */
function queues(view: L3View, side: 'bids' | 'asks'): [number, [number, number][]][] {
  return view[side].map((l) => [l.priceTicks, l.orders.map((o) => [o.orderId, o.qtyLots] as [number, number])]);
}

const implementations: [string, (selfTrade?: SelfTradePolicy) => Book][] = [
  ['OrderBook', (selfTrade = 'allow') => new OrderBook({ selfTrade })],
  ['ReferenceBook', (selfTrade = 'allow') => new ReferenceBook({ selfTrade })],
];

describe.each(implementations)('%s', (_name, make) => {
  it('matches the better-priced resting order first', () => {
    const book = make();
    book.place(sell(1, 101, 1));
    book.place(sell(2, 100, 1));
    const [trade] = book.place(buy(3, 101, 1, { ownerId: 2 }));
    expect(trade).toMatchObject({ kind: 'trade', makerId: 2, priceTicks: 100 });
  });

  it('matches the earlier order first within a price level', () => {
    const book = make();
    book.place(sell(1, 100, 1));
    book.place(sell(2, 100, 1));
    expect(book.place(buy(3, 100, 1, { ownerId: 2 }))).toMatchObject([{ kind: 'trade', makerId: 1 }]);
    expect(queues(book.l3(), 'asks')).toEqual([[100, [[2, 1]]]]);
  });

  it("fills at the resting order's price, not the taker's", () => {
    const book = make();
    book.place(sell(1, 100, 1));
    book.place(buy(2, 90, 1));
    expect(book.place(buy(3, 105, 1, { ownerId: 2 }))).toMatchObject([{ kind: 'trade', makerId: 1, priceTicks: 100 }]);
    expect(book.place(sell(4, 80, 1, { ownerId: 2 }))).toMatchObject([{ kind: 'trade', makerId: 2, priceTicks: 90 }]);
  });

  it('reports both sides of a trade and emits nothing more for a fully filled taker', () => {
    const book = make();
    book.place(sell(1, 100, 5, { ownerId: 7 }));
    expect(book.place(buy(2, 100, 2, { ownerId: 8 }))).toEqual([
      {
        kind: 'trade', makerId: 1, makerOwnerId: 7, takerId: 2, takerOwnerId: 8, takerSide: 'B',
        priceTicks: 100, qtyLots: 2, makerRemainingLots: 3, takerRemainingLots: 0,
      },
    ]);
  });

  it('leaves a partially filled maker resting with reduced quantity at the same queue position', () => {
    const book = make();
    book.place(sell(1, 100, 5));
    book.place(sell(2, 100, 5));
    book.place(buy(3, 100, 2, { ownerId: 2 }));
    expect(queues(book.l3(), 'asks')).toEqual([[100, [[1, 3], [2, 5]]]]);
  });

  it('rests the remainder of a GTC order at its limit price', () => {
    const book = make();
    book.place(sell(1, 100, 2));
    const events = book.place(buy(2, 101, 5, { ownerId: 2 }));
    expect(events[0]).toMatchObject({ kind: 'trade', qtyLots: 2, takerRemainingLots: 3 });
    expect(events[1]).toEqual({ kind: 'rested', orderId: 2, side: 'B', priceTicks: 101, qtyLots: 3 });
    expect(book.bestBidTicks()).toBe(101);
    expect(book.bestAskTicks()).toBeUndefined();
  });

  it('expires the remainder of an IOC order and rests nothing', () => {
    const book = make();
    book.place(sell(1, 100, 2));
    const events = book.place(buy(2, 101, 5, { ownerId: 2, tif: 'IOC' }));
    expect(events.map((e) => e.kind)).toEqual(['trade', 'expired']);
    expect(events[1]).toEqual({ kind: 'expired', orderId: 2, qtyLots: 3 });
    expect(book.place(sell(3, 200, 4, { tif: 'IOC' }))).toEqual([{ kind: 'expired', orderId: 3, qtyLots: 4 }]);
    expect(book.l3()).toEqual({ bids: [], asks: [] });
  });

  it('rejects a post-only order that would cross and leaves the book unchanged', () => {
    const book = make();
    book.place(buy(1, 99, 3));
    book.place(sell(2, 100, 3));
    const before = book.l3();
    expect(book.place(buy(3, 100, 1, { ownerId: 2, postOnly: true }))).toEqual([
      { kind: 'rejected', orderId: 3, reason: 'POST_ONLY_WOULD_CROSS' },
    ]);
    expect(book.place(sell(4, 99, 1, { ownerId: 2, postOnly: true }))).toEqual([
      { kind: 'rejected', orderId: 4, reason: 'POST_ONLY_WOULD_CROSS' },
    ]);
    expect(book.l3()).toEqual(before);
  });

  it('rests a post-only order that does not cross', () => {
    const book = make();
    book.place(buy(1, 99, 3));
    book.place(sell(2, 100, 3));
    expect(book.place(buy(3, 99, 2, { postOnly: true }))).toEqual([
      { kind: 'rested', orderId: 3, side: 'B', priceTicks: 99, qtyLots: 2 },
    ]);
    expect(queues(book.l3(), 'bids')).toEqual([[99, [[1, 3], [3, 2]]]]);
  });

  it('cancels a resting order by id and reports its open quantity', () => {
    const book = make();
    book.place(sell(1, 100, 5));
    book.place(buy(2, 100, 2, { ownerId: 2 }));
    expect(book.cancel(1)).toEqual([{ kind: 'canceled', orderId: 1, qtyLots: 3, reason: 'REQUESTED' }]);
    expect(book.l3()).toEqual({ bids: [], asks: [] });
  });

  it('rejects a cancel of an unknown, filled or already canceled id with UNKNOWN_ORDER', () => {
    const book = make();
    book.place(sell(1, 100, 1));
    book.place(buy(2, 100, 1, { ownerId: 2 }));
    book.place(sell(3, 100, 1));
    book.cancel(3);
    for (const id of [42, 1, 2, 3]) {
      expect(book.cancel(id)).toEqual([{ kind: 'cancel-rejected', orderId: id, reason: 'UNKNOWN_ORDER' }]);
    }
  });

  it('reduces an order in place, keeping its queue position', () => {
    const book = make();
    book.place(sell(1, 100, 5));
    book.place(sell(2, 100, 5));
    expect(book.reduce(1, 2)).toEqual([{ kind: 'reduced', orderId: 1, byLots: 2, remainingLots: 3 }]);
    expect(queues(book.l3(), 'asks')).toEqual([[100, [[1, 3], [2, 5]]]]);
    const fills = book.place(buy(3, 100, 4, { ownerId: 2 }));
    expect(fills.map((e) => (e.kind === 'trade' ? [e.makerId, e.qtyLots] : e.kind))).toEqual([[1, 3], [2, 1]]);
  });

  it('cancels an order reduced by its whole open quantity or more', () => {
    const book = make();
    book.place(sell(1, 100, 5));
    book.place(sell(2, 100, 5));
    expect(book.reduce(1, 5)).toEqual([{ kind: 'canceled', orderId: 1, qtyLots: 5, reason: 'REQUESTED' }]);
    expect(book.reduce(2, 9)).toEqual([{ kind: 'canceled', orderId: 2, qtyLots: 5, reason: 'REQUESTED' }]);
    expect(book.reduce(2, 1)).toEqual([{ kind: 'cancel-rejected', orderId: 2, reason: 'UNKNOWN_ORDER' }]);
    expect(book.l3()).toEqual({ bids: [], asks: [] });
  });

  it('reports the highest bid and the lowest ask, undefined for an empty side', () => {
    const book = make();
    expect([book.bestBidTicks(), book.bestAskTicks()]).toEqual([undefined, undefined]);
    for (const [id, p] of [[1, 97], [2, 99], [3, 98]] as const) book.place(buy(id, p, 1));
    for (const [id, p] of [[4, 103], [5, 101], [6, 102]] as const) book.place(sell(id, p, 1));
    expect([book.bestBidTicks(), book.bestAskTicks()]).toEqual([99, 101]);
    book.cancel(2);
    book.cancel(5);
    expect([book.bestBidTicks(), book.bestAskTicks()]).toEqual([98, 102]);
  });

  it('lists L3 bids descending and asks ascending with orders in queue order', () => {
    const book = make();
    book.place(buy(1, 98, 1));
    book.place(buy(2, 99, 2));
    book.place(buy(3, 98, 3));
    book.place(sell(4, 102, 4));
    book.place(sell(5, 101, 5));
    book.place(sell(6, 102, 6));
    expect(book.l3()).toEqual({
      bids: [
        { priceTicks: 99, qtyLots: 2, orders: [{ orderId: 2, qtyLots: 2 }] },
        { priceTicks: 98, qtyLots: 4, orders: [{ orderId: 1, qtyLots: 1 }, { orderId: 3, qtyLots: 3 }] },
      ],
      asks: [
        { priceTicks: 101, qtyLots: 5, orders: [{ orderId: 5, qtyLots: 5 }] },
        { priceTicks: 102, qtyLots: 10, orders: [{ orderId: 4, qtyLots: 4 }, { orderId: 6, qtyLots: 6 }] },
      ],
    });
  });

  it('trades with its own resting orders under the allow policy', () => {
    const book = make('allow');
    book.place(sell(1, 100, 2, { ownerId: 5 }));
    expect(book.place(buy(2, 100, 2, { ownerId: 5 }))).toMatchObject([
      { kind: 'trade', makerId: 1, makerOwnerId: 5, takerOwnerId: 5, qtyLots: 2 },
    ]);
  });

  it('cancels own resting orders under cancel-resting and keeps matching deeper', () => {
    const book = make('cancel-resting');
    book.place(sell(1, 100, 2, { ownerId: 1 }));
    book.place(sell(2, 100, 3, { ownerId: 2 }));
    book.place(sell(3, 101, 1, { ownerId: 1 }));
    book.place(sell(4, 101, 4, { ownerId: 3 }));
    const events = book.place(buy(5, 101, 5, { ownerId: 1 }));
    expect(events.map((e) => (e.kind === 'trade' ? `trade ${e.makerId}x${e.qtyLots}@${e.priceTicks}` : e))).toEqual([
      { kind: 'canceled', orderId: 1, qtyLots: 2, reason: 'SELF_TRADE' },
      'trade 2x3@100',
      { kind: 'canceled', orderId: 3, qtyLots: 1, reason: 'SELF_TRADE' },
      'trade 4x2@101',
    ]);
    expect(queues(book.l3(), 'asks')).toEqual([[101, [[4, 2]]]]);
  });

  it('appends events to the array it is given and returns that array', () => {
    const book = make();
    const out: BookEvent[] = [];
    expect(book.place(sell(1, 100, 1), out)).toBe(out);
    expect(book.cancel(9, out)).toBe(out);
    expect(book.reduce(1, 1, out)).toBe(out);
    expect(out.map((e) => e.kind)).toEqual(['rested', 'cancel-rejected', 'canceled']);
  });

  it('throws RangeError for malformed commands and leaves the book unchanged', () => {
    const book = make();
    book.place(sell(1, 100, 2));
    const before = book.l3();
    expect(() => book.place(buy(2, 99.5, 1))).toThrow(RangeError);
    expect(() => book.place(buy(3, Number.NaN, 1))).toThrow(RangeError);
    expect(() => book.place(buy(4, 99, 0))).toThrow(RangeError);
    expect(() => book.place(buy(5, 99, -1))).toThrow(RangeError);
    expect(() => book.place(buy(6, 99, 1.5))).toThrow(RangeError);
    expect(() => book.place(buy(1, 99, 1))).toThrow(RangeError);
    expect(() => book.reduce(1, 0)).toThrow(RangeError);
    expect(() => book.reduce(1, 0.5)).toThrow(RangeError);
    expect(book.l3()).toEqual(before);
  });
});

describe('OrderBook', () => {
  function sampleBook(): OrderBook {
    const book = new OrderBook();
    book.place(buy(1, 98, 1));
    book.place(buy(2, 99, 2));
    book.place(buy(3, 97, 3));
    book.place(buy(4, 99, 4));
    book.place(sell(5, 101, 5));
    book.place(sell(6, 103, 6));
    book.place(sell(7, 102, 7));
    return book;
  }

  it('shows the top level of each side as L1', () => {
    expect(sampleBook().l1()).toEqual({ bid: { priceTicks: 99, qtyLots: 6 }, ask: { priceTicks: 101, qtyLots: 5 } });
    expect(new OrderBook().l1()).toEqual({ bid: undefined, ask: undefined });
  });

  it('aggregates L2 levels, bids descending and asks ascending, cut at the requested depth', () => {
    const book = sampleBook();
    expect(book.l2()).toEqual({
      bids: [{ priceTicks: 99, qtyLots: 6 }, { priceTicks: 98, qtyLots: 1 }, { priceTicks: 97, qtyLots: 3 }],
      asks: [{ priceTicks: 101, qtyLots: 5 }, { priceTicks: 102, qtyLots: 7 }, { priceTicks: 103, qtyLots: 6 }],
    });
    expect(book.l2(2)).toEqual({
      bids: [{ priceTicks: 99, qtyLots: 6 }, { priceTicks: 98, qtyLots: 1 }],
      asks: [{ priceTicks: 101, qtyLots: 5 }, { priceTicks: 102, qtyLots: 7 }],
    });
    expect(book.l2(0)).toEqual({ bids: [], asks: [] });
    expect(book.l3(1).bids.map((l) => l.priceTicks)).toEqual([99]);
  });

  it('counts resting orders and lots and answers open quantity by id', () => {
    const book = sampleBook();
    book.reduce(4, 1);
    expect([book.orderCount, book.restingLots()]).toEqual([7, 27]);
    expect([book.has(4), book.openLots(4), book.has(42), book.openLots(42)]).toEqual([true, 3, false, 0]);
  });

  it('handles an order 10% away from mid with one level per side', () => {
    const book = new OrderBook();
    book.place(sell(1, 1_000_000, 2));
    book.place(buy(2, 900_000, 3));
    expect(book.l2()).toEqual({ bids: [{ priceTicks: 900_000, qtyLots: 3 }], asks: [{ priceTicks: 1_000_000, qtyLots: 2 }] });
    expect(book.place(sell(3, 900_000, 1, { ownerId: 2, tif: 'IOC' }))).toMatchObject([
      { kind: 'trade', makerId: 2, priceTicks: 900_000, qtyLots: 1 },
    ]);
    expect(book.l2().bids).toEqual([{ priceTicks: 900_000, qtyLots: 2 }]);
  });

  it('gives equal state hashes to books built by the same commands', () => {
    const a = sampleBook();
    const b = sampleBook();
    expect(a.stateHash()).toBe(b.stateHash());
    a.place(buy(8, 101, 2, { ownerId: 2 }));
    b.place(buy(8, 101, 2, { ownerId: 2 }));
    expect(a.stateHash()).toBe(b.stateHash());
    expect(new OrderBook().stateHash()).toBe(new OrderBook({ selfTrade: 'cancel-resting' }).stateHash());
  });

  it('changes the state hash after any change to the book', () => {
    const book = sampleBook();
    const seen = new Set([book.stateHash()]);
    const changes: (() => unknown)[] = [
      () => book.place(buy(10, 96, 1)), // new level
      () => book.place(buy(11, 99, 1)), // joins a level
      () => book.place(sell(12, 99, 1, { ownerId: 2 })), // partial fill
      () => book.reduce(4, 1),
      () => book.cancel(10),
      () => book.place(sell(13, 104, 1, { ownerId: 3 })),
    ];
    for (const change of changes) {
      change();
      seen.add(book.stateHash());
    }
    expect(seen.size).toBe(changes.length + 1);
    const otherOwner = new OrderBook();
    otherOwner.place(buy(1, 98, 1, { ownerId: 2 }));
    const sameOwner = new OrderBook();
    sameOwner.place(buy(1, 98, 1));
    expect(otherOwner.stateHash()).not.toBe(sameOwner.stateHash());
  });
});
