import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderBook } from '../../src/book/order-book.ts';
import { TopRecord } from '../../src/sim/order-notes.ts';
import type { PortHub } from '../../src/sim/port-hub.ts';
import { SentBooks } from '../../src/sim/sent-books.ts';
import type { Market } from '../../src/venue/market.ts';
import type { Venue } from '../../src/venue/venue.ts';
import { applyStep, placeStep, takeStep, type BookStep } from './book-steps.ts';

// A port's LEVEL_1 check (`SentBooks.isNewTop`) reads a side only when the book's change count
// of that side moved since it last read it. The oracle is the check as it was (round 14): both
// sides' touch read on every call. Same answers and the same top written (`writeTop`), on random
// books of two markets checked after random subsets of commands, with the port forgetting a
// market now and then (a new subscription: the next check says new whatever the book shows).

/** The round-14 `isNewTop`: both sides read every time. */
class ReadingTop {
  private readonly last: ([number, number, number, number] | undefined)[] = [];
  private readonly price = new Float64Array(1);
  private readonly qty = new Float64Array(1);

  forget(market: Market): void {
    const l1 = this.last[market.index];
    if (l1 !== undefined) l1[0] = Number.NaN;
  }

  isNewTop(market: Market): boolean {
    const { price, qty } = this;
    const hasBid = market.book.l2Into('B', price, qty) > 0;
    const bp = hasBid ? price[0]! : -1;
    const bq = hasBid ? qty[0]! : 0;
    const hasAsk = market.book.l2Into('S', price, qty) > 0;
    const ap = hasAsk ? price[0]! : -1;
    const aq = hasAsk ? qty[0]! : 0;
    const last = this.last[market.index];
    if (last !== undefined && last[0] === bp && last[1] === bq && last[2] === ap && last[3] === aq) return false;
    this.last[market.index] = [bp, bq, ap, aq];
    return true;
  }

  top(market: Market): { bidTicks: number | undefined; bidLots: number; askTicks: number | undefined; askLots: number } {
    const [bp, bq, ap, aq] = this.last[market.index]!;
    return { bidTicks: bp >= 0 ? bp : undefined, bidLots: bq, askTicks: ap >= 0 ? ap : undefined, askLots: aq };
  }
}

const step: fc.Arbitrary<{ s: BookStep | { k: 'forget' }; market: number; check: boolean }> = fc.record({
  // Up to 9 levels a side: changes at and below the touch happen.
  s: fc.oneof(
    { weight: 6, arbitrary: placeStep(8) },
    { weight: 4, arbitrary: takeStep },
    { weight: 1, arbitrary: fc.constant({ k: 'forget' as const }) },
  ),
  market: fc.integer({ min: 0, max: 1 }),
  check: fc.boolean(),
});

describe("a port's LEVEL_1 check (SentBooks.isNewTop)", () => {
  it('says new exactly when the check that reads both sides every time says so, and writes the same top', () => {
    let news = 0;
    let repeats = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 120 }), (steps) => {
        const markets = [0, 1].map((index) => ({ index, symbol: `M${index}`, book: new OrderBook({}) }) as unknown as Market);
        const sent = new SentBooks({} as Venue, {} as PortHub);
        const oracle = new ReadingTop();
        const ids: number[][] = [[], []];
        const next = { id: 1 };
        for (const { s, market: m, check } of steps) {
          const market = markets[m]!;
          if (s.k === 'forget') {
            sent.forget(market);
            oracle.forget(market);
          } else {
            applyStep(market.book, s, ids[m]!, next);
          }
          if (!check) continue;
          const want = oracle.isNewTop(market);
          expect(sent.isNewTop(market)).toBe(want);
          const top = new TopRecord();
          sent.writeTop(top, market);
          expect({ bidTicks: top.bidTicks, bidLots: top.bidLots, askTicks: top.askTicks, askLots: top.askLots }).toEqual(oracle.top(market));
          if (want) news++;
          else repeats++;
        }
      }),
      { numRuns: 600 },
    );
    // Both answers are common: the property is not decided by one of them alone.
    expect(Math.min(news, repeats)).toBeGreaterThan(300);
  });
});
