import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { L2ColumnBuilder, type SourceMarket } from '../../src/replay/l2/l2-columns.ts';
import { ColumnSpan } from '../../src/replay/l2/l2-span-columns.ts';
import type { L2Event, L2TickerEvent } from '../../src/replay/l2/l2-event.ts';
import { addBatchToSpan, emptySpan } from '../../src/replay/l2/l2-span.ts';
import { MarketBatchArrays } from '../../src/replay/market-batch.ts';
import { KIND_BOOK, KIND_QUOTE, KIND_STATS, KIND_TRADE } from '../../src/replay/market-records.ts';
import type { RecordSource } from '../../src/replay/open-records.ts';
import { MIN_TIME_NS } from '../../src/replay/market-stream.ts';

/** One row of a normalized batch: kind, symbol index, times (small, so they repeat and step back), book fields. */
const row = fc.record({
  kind: fc.constantFrom(KIND_BOOK, KIND_BOOK, KIND_BOOK, KIND_TRADE, KIND_QUOTE, KIND_STATS),
  symbol: fc.integer({ min: 0, max: 1 }),
  exch: fc.integer({ min: 0, max: 12 }),
  lag: fc.integer({ min: -3, max: 3 }),
  reset: fc.integer({ min: 0, max: 6 }).map((x) => (x === 0 ? 1 : 0)),
  side: fc.integer({ min: 0, max: 2 }),
  price: fc.integer({ min: 1, max: 99 }),
  bid: fc.option(fc.integer({ min: 1, max: 99 }), { nil: NaN }),
  bidQty: fc.integer({ min: 0, max: 3 }),
  ask: fc.option(fc.integer({ min: 1, max: 99 }), { nil: NaN }),
  mark: fc.option(fc.constantFrom('10.5', '11'), { nil: undefined }),
  index: fc.option(fc.constantFrom('10.4', '10.9'), { nil: undefined }),
});
type Row = typeof row extends fc.Arbitrary<infer T> ? T : never;

function batchOf(rows: Row[]): MarketBatchArrays {
  const b = new MarketBatchArrays().resize(rows.length);
  b.symbols = ['AAA', 'BBB'];
  rows.forEach((r, i) => {
    b.kind[i] = r.kind;
    b.symbol[i] = r.symbol;
    b.exchNs[i] = BigInt(r.exch) * 1000n;
    b.recvNs[i] = BigInt(r.exch + r.lag) * 1000n;
    b.reset[i] = r.reset;
    b.side[i] = r.side;
    b.priceTicks[i] = r.price;
    b.qtyLots[i] = 1;
    b.bidTicks[i] = r.bid;
    b.bidQtyLots[i] = r.bidQty;
    b.askTicks[i] = r.ask;
    b.askQtyLots[i] = 1;
  });
  b.stats = (i) => ({ markPrice: rows[i]!.mark, indexPrice: rows[i]!.index, fundingRate: rows[i]!.index === undefined ? undefined : '0.0001' });
  return b;
}

describe('the span of a columnar recording, read from its columns', () => {
  it('is the span of the replay batches made from it, and finds the index tickers a tickers-only read keeps, for any rows, symbols, modes and batch cuts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(row, { maxLength: 20 }), { maxLength: 6 }),
        fc.constantFrom<string | undefined>(undefined, 'AAA', 'BBB', 'CCC'),
        fc.boolean(),
        fc.constantFrom<RecordSource['quotes']>('book', 'ignore'),
        (batches, symbol, l1, quotes) => {
          const source = { quotes } as RecordSource;
          const m: SourceMarket = { market: 0, symbol, l1 };
          const builder = new L2ColumnBuilder([source], [m], false, 7, 11);
          const tickersOnly = new L2ColumnBuilder([source], [m], true, 7, 11);
          const want = emptySpan();
          const wantTickers: L2Event[] = [];
          const indexTickers: L2TickerEvent[] = [];
          const columns = new ColumnSpan(source, m, emptySpan(), indexTickers);
          let floorA = MIN_TIME_NS;
          let floorB = MIN_TIME_NS;
          let floorC = MIN_TIME_NS;
          for (const rows of batches) {
            const b = batchOf(rows);
            floorA = builder.batch(b, 0, floorA);
            for (const out of builder.ready.splice(0)) addBatchToSpan(want, out);
            floorB = columns.batch(b, floorB);
            expect(floorB).toBe(floorA);
            expect(tickersOnly.batch(b, 0, floorC)).toBe(floorA);
            floorC = floorA;
            for (const out of tickersOnly.ready.splice(0)) for (const e of out.tickers.values()) if (e.indexPrice !== undefined) wantTickers.push(e);
          }
          builder.finish();
          for (const out of builder.ready.splice(0)) addBatchToSpan(want, out);
          expect(columns.span).toEqual(want);
          // The index tickers the run's index pass keeps (a tickers-only read), found on the way.
          tickersOnly.finish();
          for (const out of tickersOnly.ready.splice(0)) for (const e of out.tickers.values()) if (e.indexPrice !== undefined) wantTickers.push(e);
          expect(indexTickers).toEqual(wantTickers);
        },
      ),
      { numRuns: 500 },
    );
  });
});
