import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BookEvents } from '../../src/book/book-events.ts';
import { OrderBook } from '../../src/book/order-book.ts';
import { BookTops, same, type BookTop } from '../../src/sim/event-log/book-tops.ts';
import type { Market } from '../../src/venue/market.ts';
import { applyStep, placeStep, takeStep, type BookStep } from './book-steps.ts';

// `BookTops` decides which book changes become `book` rows of the event log. It reads a side's
// five best levels again only when the book's change count of that side moved. The oracle is
// the check as it was before (round 13): both sides read in full on every call. Same answers
// on random books, checked after random subsets of commands (the venue announces a change per
// command that moved the book, and a row is written only when what it shows differs).

/** The round-13 `BookTops.changed`: both sides read every time. */
class ReadingTops {
  private readonly rows: BookTop[];
  private readonly prices = new Float64Array(5);
  private readonly qtys = new Float64Array(5);

  constructor(marketCount: number) {
    this.rows = Array.from({ length: marketCount }, () => ({ bid: NaN, bidQty: NaN, ask: NaN, askQty: NaN, bidDepth: NaN, askDepth: NaN }));
  }

  changed(market: Market): BookTop | undefined {
    const { prices, qtys } = this;
    const bidLevels = market.book.l2Into('B', prices, qtys);
    const bid = bidLevels > 0 ? prices[0]! : NaN;
    const bidQty = bidLevels > 0 ? qtys[0]! : NaN;
    let bidDepth = 0;
    for (let i = 0; i < bidLevels; i++) bidDepth += qtys[i]!;
    const askLevels = market.book.l2Into('S', prices, qtys);
    const ask = askLevels > 0 ? prices[0]! : NaN;
    const askQty = askLevels > 0 ? qtys[0]! : NaN;
    let askDepth = 0;
    for (let i = 0; i < askLevels; i++) askDepth += qtys[i]!;
    const top = this.rows[market.index]!;
    if (same(top.bid, bid) && same(top.ask, ask) && same(top.bidQty, bidQty) && same(top.askQty, askQty) && top.bidDepth === bidDepth && top.askDepth === askDepth) return undefined;
    Object.assign(top, { bid, bidQty, ask, askQty, bidDepth, askDepth });
    return top;
  }
}

const step: fc.Arbitrary<{ s: BookStep; market: number; check: boolean }> = fc.record({
  // Up to 21 levels a side, so changes below the fifth happen.
  s: fc.oneof(placeStep(20), takeStep),
  market: fc.integer({ min: 0, max: 1 }),
  check: fc.boolean(),
});

describe("the event log's book rows (BookTops)", () => {
  it('are written exactly when the check that reads both sides every time writes them, with the same values', () => {
    let rows = 0;
    let skipped = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 120 }), (steps) => {
        const markets = [0, 1].map((index) => ({ index, book: new OrderBook({}) }) as unknown as Market);
        const tops = new BookTops(2);
        const oracle = new ReadingTops(2);
        const ids: number[][] = [[], []];
        const next = { id: 1 };
        for (const { s, market, check } of steps) {
          applyStep(markets[market]!.book, s, ids[market]!, next);
          if (!check) continue;
          const want = oracle.changed(markets[market]!);
          const got = tops.changed(markets[market]!);
          expect(got === undefined ? undefined : { ...got }).toEqual(want === undefined ? undefined : { ...want });
          if (want === undefined) skipped++;
          else rows++;
        }
      }),
      { numRuns: 800 },
    );
    // Both answers are common: the property is not decided by one of them alone.
    expect(Math.min(rows, skipped)).toBeGreaterThan(400);
  });

  it('shows a change on one side with the other side as last read', () => {
    const book = new OrderBook({});
    const market = { index: 0, book } as unknown as Market;
    const tops = new BookTops(1);
    const out = new BookEvents();
    expect({ ...tops.changed(market)! }).toEqual({ bid: NaN, bidQty: NaN, ask: NaN, askQty: NaN, bidDepth: 0, askDepth: 0 });
    expect(tops.changed(market)).toBeUndefined();
    book.placeInto({ orderId: 1, ownerId: 1, side: 'B', priceTicks: 100, qtyLots: 2, tif: 'GTC', postOnly: false }, out);
    book.placeInto({ orderId: 2, ownerId: 2, side: 'S', priceTicks: 102, qtyLots: 3, tif: 'GTC', postOnly: false }, out);
    expect({ ...tops.changed(market)! }).toEqual({ bid: 100, bidQty: 2, ask: 102, askQty: 3, bidDepth: 2, askDepth: 3 });
    book.placeInto({ orderId: 3, ownerId: 2, side: 'S', priceTicks: 101, qtyLots: 1, tif: 'GTC', postOnly: false }, out);
    expect({ ...tops.changed(market)! }).toEqual({ bid: 100, bidQty: 2, ask: 101, askQty: 1, bidDepth: 2, askDepth: 4 });
    // A level emptied and refilled within the instant: the count moved, what the row shows did not.
    book.cancelInto(3, out);
    book.placeInto({ orderId: 4, ownerId: 2, side: 'S', priceTicks: 101, qtyLots: 1, tif: 'GTC', postOnly: false }, out);
    expect(tops.changed(market)).toBeUndefined();
  });
});
