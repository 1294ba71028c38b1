import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OwnOrders, type OwnOrder } from '../../src/agents/own-orders.ts';
import { QuoteLadder } from '../../src/agents/quote-ladder.ts';
import { TickSize } from '../../src/core/price.ts';
import type { Side } from '../../src/core/types.ts';
import type { OwnOrderNote } from '../../src/strategy/tick-feeds.ts';

const SYMBOL = 'AAA';
const tick = new TickSize('1');

/** An agent's orders: open ones (some already being canceled), inserts in flight. */
const books = fc.record({
  open: fc.array(fc.record({ side: fc.constantFrom<Side>('B', 'S'), priceTicks: fc.integer({ min: 80, max: 120 }), canceling: fc.boolean() }), { maxLength: 30 }),
  inFlight: fc.array(fc.record({ side: fc.constantFrom<Side>('B', 'S'), priceTicks: fc.integer({ min: 80, max: 120 }) }), { maxLength: 8 }),
  levels: fc.integer({ min: 1, max: 8 }),
  bid0: fc.integer({ min: 90, max: 110 }),
  askGap: fc.integer({ min: 1, max: 6 }),
  spacing: fc.double({ min: 1, max: 4, noNaN: true }),
  clearBids: fc.boolean(),
  clearAsks: fc.boolean(),
});
type Book = typeof books extends fc.Arbitrary<infer U> ? U : never;

/** `OwnOrders` holding `book`, with the engine ids of the cancels it sends into `sent`. */
function ordersOf(book: Book, sent: number[]): OwnOrders {
  const noop = () => {};
  const port = { oneWay: { placeTicks: noop, cancel: noop, cancelSeq: (seq: number) => void sent.push(seq), subscribe: noop, unsubscribe: noop } };
  const own = new OwnOrders(port as never, () => tick);
  book.open.forEach((o, i) => {
    const note: OwnOrderNote = { t: 'n', oid: `O-${i}`, seq: i + 1, insertSec: Number.NaN, insertNanos: Number.NaN, symbol: SYMBOL, side: o.side, priceTicks: o.priceTicks, tif: 'GTC', remainingLots: 1, reason: undefined, fillLots: 0, fillPriceTicks: Number.NaN };
    own.applyNote(note);
  });
  own.orders(SYMBOL).forEach((o, i) => {
    if (book.open[i]!.canceling) own.cancel(o);
  });
  for (const f of book.inFlight) own.place(SYMBOL, f.side, f.priceTicks, 1, 'GTC');
  sent.length = 0;
  return own;
}

/** The market maker's requote as it was: the bids sorted, then the asks, then the extremes (the oracle). */
function threePasses(orders: OwnOrders, book: Book) {
  const keepLadder = (side: Side, level0Ticks: number): number => {
    const sign = side === 'B' ? 1 : -1;
    let occupied = 0;
    for (const o of orders.orders(SYMBOL)) {
      if (o.side !== side || o.canceling) continue;
      const depth = sign * (level0Ticks - o.priceTicks);
      const b = depth < 0 ? -1 : Math.floor(depth / book.spacing + 0.5);
      if (b < 0 || b >= book.levels || (occupied & (1 << b)) !== 0) orders.cancel(o);
      else occupied |= 1 << b;
    }
    for (const f of orders.inFlightOrders(SYMBOL)) {
      if (f.side !== side) continue;
      const depth = sign * (level0Ticks - f.priceTicks);
      const b = depth < 0 ? -1 : Math.floor(depth / book.spacing + 0.5);
      if (b >= 0 && b < book.levels) occupied |= 1 << b;
    }
    return ~occupied & ((1 << book.levels) - 1);
  };
  const clearSide = (side: Side): number => {
    for (const o of orders.orders(SYMBOL)) if (o.side === side) orders.cancel(o);
    return 0;
  };
  const bidGaps = book.clearBids ? clearSide('B') : keepLadder('B', book.bid0);
  const askGaps = book.clearAsks ? clearSide('S') : keepLadder('S', book.bid0 + book.askGap);
  let maxOwnBid = -Infinity;
  let minOwnAsk = Infinity;
  for (const o of orders.orders(SYMBOL)) {
    if (o.canceling) continue;
    if (o.side === 'B') maxOwnBid = Math.max(maxOwnBid, o.priceTicks);
    else minOwnAsk = Math.min(minOwnAsk, o.priceTicks);
  }
  for (const f of orders.inFlightOrders(SYMBOL)) {
    if (f.side === 'B') maxOwnBid = Math.max(maxOwnBid, f.priceTicks);
    else minOwnAsk = Math.min(minOwnAsk, f.priceTicks);
  }
  return { bidGaps, askGaps, maxOwnBid, minOwnAsk };
}

const flags = (orders: OwnOrders) => orders.orders(SYMBOL).map((o: OwnOrder) => o.canceling);

describe("a market maker's quote ladder", () => {
  it('sorted in one pass sends the same cancels in the same order and finds the same gaps and extremes as the bids, asks and extremes in turn', () => {
    fc.assert(
      fc.property(books, (book) => {
        const sentOnce: number[] = [];
        const once = ordersOf(book, sentOnce);
        const ladder = new QuoteLadder(once);
        ladder.sort(SYMBOL, book.levels, book.bid0, book.bid0 + book.askGap, book.spacing, book.clearBids, book.clearAsks);
        const sentBefore: number[] = [];
        const before = ordersOf(book, sentBefore);
        const expected = threePasses(before, book);
        expect(sentOnce).toEqual(sentBefore);
        expect(flags(once)).toEqual(flags(before));
        expect({ bidGaps: ladder.bidGaps, askGaps: ladder.askGaps, maxOwnBid: ladder.maxOwnBid, minOwnAsk: ladder.minOwnAsk }).toEqual(expected);
      }),
      { numRuns: 500, seed: 0x1add },
    );
  });

  it("sends a side's cancels in the order the orders were accepted, the bids before the asks", () => {
    const sent: number[] = [];
    // Accepted: ask 130 (1), bid 50 (2), ask 131 (3), bid 51 (4): all beyond one level of 1 tick.
    const book: Book = {
      open: [
        { side: 'S', priceTicks: 130, canceling: false },
        { side: 'B', priceTicks: 50, canceling: false },
        { side: 'S', priceTicks: 131, canceling: false },
        { side: 'B', priceTicks: 51, canceling: false },
      ],
      inFlight: [],
      levels: 1,
      bid0: 100,
      askGap: 1,
      spacing: 1,
      clearBids: false,
      clearAsks: false,
    };
    const ladder = new QuoteLadder(ordersOf(book, sent));
    ladder.sort(SYMBOL, 1, 100, 101, 1, false, false);
    expect(sent).toEqual([2, 4, 1, 3]);
    expect([ladder.bidGaps, ladder.askGaps, ladder.maxOwnBid, ladder.minOwnAsk]).toEqual([1, 1, -Infinity, Infinity]);
  });
});
