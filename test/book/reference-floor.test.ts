import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OrderBook } from '../../src/book/order-book.ts';
import { BookEvents, EV_CANCEL_REJECTED, EV_TRADE } from '../../src/book/book-events.ts';
import { KIND_CANCEL, generateMix, referenceBookFor, replayMixOnReference, type MixWorkload } from '../../bench/book-mix.ts';

/**
 * The bench's floor (`TypedReferenceBook`, `book.mix-reference`) must do the same work as
 * `OrderBook` on the `book.mix` workload, or the ratio `book.mix` prints means nothing. Each
 * book is also the other's oracle: the trades are compared in order (through a checksum of
 * maker, taker and lots), with the resting orders and the cancel misses.
 */
interface Outcome {
  trades: number;
  tradedLots: number;
  checksum: number;
  resting: number;
  misses: number;
}

function onOrderBook(mix: MixWorkload): Outcome {
  const book = new OrderBook();
  const out = new BookEvents();
  const o: Outcome = { trades: 0, tradedLots: 0, checksum: 0, resting: 0, misses: 0 };
  let pi = 0;
  let ci = 0;
  for (let i = 0; i < mix.kinds.length; i++) {
    if (mix.kinds[i] === KIND_CANCEL) book.cancelInto(mix.cancelIds[ci++]!, out);
    else book.placeInto(mix.places[pi++]!, out);
    for (let e = 0; e < out.length; e++) {
      if (out.kind(e) === EV_CANCEL_REJECTED) o.misses++;
      if (out.kind(e) !== EV_TRADE) continue;
      const lots = out.qtyLots(e);
      o.trades++;
      o.tradedLots += lots;
      o.checksum = (Math.imul(o.checksum, 31) + Math.imul(out.makerId(e), 7) + Math.imul(out.takerId(e), 13) + lots) | 0;
    }
    out.clear();
  }
  o.resting = book.orderCount;
  return o;
}

function onReference(mix: MixWorkload): Outcome {
  const book = referenceBookFor(mix);
  const misses = replayMixOnReference(book, mix);
  return { trades: book.trades, tradedLots: book.tradedLots, checksum: book.checksum, resting: book.resting, misses };
}

describe('the reference book of the bench', () => {
  it('makes the same trades, in the same order, as OrderBook on 200,000 book.mix commands', () => {
    const mix = generateMix('bench/book.mix', 100, 200_000);
    const expected = onOrderBook(mix);
    expect(expected.trades).toBeGreaterThan(10_000); // the workload really trades
    expect(expected.misses).toBeGreaterThan(1_000); // and really misses some cancels
    expect(onReference(mix)).toEqual(expected);
  });

  it('agrees with OrderBook on short mixes from any seed', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 3_000 }), (seed, ops) => {
        const mix = generateMix(seed, 5, ops);
        expect(onReference(mix)).toEqual(onOrderBook(mix));
      }),
      { numRuns: 60 },
    );
  });
});
