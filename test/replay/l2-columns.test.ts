import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Side } from '../../src/core/types.ts';
import { eventsOf } from '../../src/replay/l2/l2-batch.ts';
import { L2ColumnBuilder, type SourceMarket } from '../../src/replay/l2/l2-columns.ts';
import type { L2Event } from '../../src/replay/l2/l2-event.ts';
import { MarketBatchArrays } from '../../src/replay/market-batch.ts';
import { KIND_BOOK, KIND_QUOTE, KIND_STATS, KIND_TRADE, SIDE_BUY, SIDE_NONE, SIDE_SELL, type MarketRecord } from '../../src/replay/market-records.ts';
import { MIN_TIME_NS } from '../../src/replay/market-stream.ts';
import type { RecordSource } from '../../src/replay/open-records.ts';

/**
 * The oracle: records → events one object at a time, as the L2 loader did before it wrote
 * columns (src/replay/l2/l2-sources.ts, L2EventBuilder): book rows of one message (same
 * symbol, receive and exchange time, no reset) make one book event; any other kept record
 * ends it; quotes are a one-level book only where they are the book (always, in L1 mode, and
 * then without empty sides); L1 drops level rows. Times are held level where they step back.
 */
function expectedEvents(records: readonly MarketRecord[], m: SourceMarket, quotesAreBook: boolean): L2Event[] {
  const out: L2Event[] = [];
  let open: { event: Extract<L2Event, { kind: 'book' }>; recvNs: bigint; exchNs: bigint; symbol: string } | undefined;
  const close = () => {
    if (open !== undefined) out.push(open.event);
    open = undefined;
  };
  let floor = MIN_TIME_NS;
  for (const r of records) {
    const tsNs = r.exchNs < floor ? floor : r.exchNs;
    floor = tsNs;
    if (m.symbol !== undefined && r.symbol !== m.symbol) continue;
    if (m.l1 && r.kind === 'book') continue;
    const common = { tsNs, feedDelayNs: r.recvNs - r.exchNs, market: m.market };
    if (r.kind === 'book') {
      if (open === undefined || r.reset || open.recvNs !== r.recvNs || open.exchNs !== r.exchNs || open.symbol !== r.symbol) {
        close();
        open = { event: { kind: 'book', ...common, reset: r.reset, updates: [] }, recvNs: r.recvNs, exchNs: r.exchNs, symbol: r.symbol };
      }
      if (r.side !== undefined) open.event.updates.push({ side: r.side, priceTicks: r.priceTicks, qtyLots: r.qtyLots });
      continue;
    }
    close();
    if (r.kind === 'trade') out.push({ kind: 'trade', ...common, priceTicks: r.priceTicks, qtyLots: r.qtyLots, takerSide: r.side });
    else if (r.kind === 'quote') {
      if (!m.l1 && !quotesAreBook) continue;
      const updates: { side: Side; priceTicks: number; qtyLots: number }[] = [];
      const shown = (q: number | undefined) => q !== undefined && (!m.l1 || q > 0);
      if (r.bidTicks !== undefined && shown(r.bidQtyLots)) updates.push({ side: 'B', priceTicks: r.bidTicks, qtyLots: r.bidQtyLots! });
      if (r.askTicks !== undefined && shown(r.askQtyLots)) updates.push({ side: 'S', priceTicks: r.askTicks, qtyLots: r.askQtyLots! });
      out.push({ kind: 'book', ...common, reset: true, updates });
    } else out.push({ kind: 'ticker', ...common, markPrice: r.markPrice, indexPrice: r.indexPrice, fundingRate: r.fundingRate, fundingTsNs: r.fundingTsNs });
  }
  close();
  return out;
}

/** The records as one source's own column batches (what an Arrow file gives), `size` rows each. */
function columnBatches(records: readonly MarketRecord[], size: number, symbols: readonly string[]): MarketBatchArrays[] {
  const out: MarketBatchArrays[] = [];
  for (let from = 0; from < records.length; from += size) {
    const rows = records.slice(from, from + size);
    const b = new MarketBatchArrays().resize(rows.length);
    b.symbols = symbols;
    const stats = new Map<number, MarketRecord>();
    rows.forEach((r, i) => {
      b.symbol[i] = symbols.indexOf(r.symbol);
      b.kind[i] = { book: KIND_BOOK, trade: KIND_TRADE, quote: KIND_QUOTE, stats: KIND_STATS }[r.kind];
      b.recvNs[i] = r.recvNs;
      b.exchNs[i] = r.exchNs;
      b.reset[i] = r.kind === 'book' && r.reset ? 1 : 0;
      const side = r.kind === 'book' || r.kind === 'trade' ? r.side : undefined;
      b.side[i] = side === 'B' ? SIDE_BUY : side === 'S' ? SIDE_SELL : SIDE_NONE;
      b.priceTicks[i] = r.kind === 'book' || r.kind === 'trade' ? r.priceTicks : NaN;
      b.qtyLots[i] = r.kind === 'book' || r.kind === 'trade' ? r.qtyLots : NaN;
      const q = r.kind === 'quote' ? r : undefined;
      b.bidTicks[i] = q?.bidTicks ?? NaN;
      b.bidQtyLots[i] = q?.bidQtyLots ?? NaN;
      b.askTicks[i] = q?.askTicks ?? NaN;
      b.askQtyLots[i] = q?.askQtyLots ?? NaN;
      if (r.kind === 'stats') stats.set(i, r);
    });
    b.stats = (i) => {
      const s = stats.get(i)!;
      return { markPrice: s.kind === 'stats' ? s.markPrice : undefined, indexPrice: s.kind === 'stats' ? s.indexPrice : undefined, fundingRate: s.kind === 'stats' ? s.fundingRate : undefined, fundingTsNs: s.kind === 'stats' ? s.fundingTsNs : undefined };
    };
    out.push(b);
  }
  return out;
}

const SYMBOLS = ['BTCUSDT', 'ETHUSDT'];
// Few distinct times, so that messages share them, step back, and runs of rows group; some
// differ only in their high 32 bits (the column builder compares a row's times word by word).
const time = fc.constantFrom(0n, 1n, 2n, (1n << 32n) + 1n, (1n << 33n) + 2n);
const side = fc.option(fc.constantFrom<Side>('B', 'S'), { nil: undefined });
const base = { recvNs: time, exchNs: time, symbol: fc.constantFrom(...SYMBOLS) };
const maybe = (a: fc.Arbitrary<number>) => fc.option(a, { nil: undefined });
const record: fc.Arbitrary<MarketRecord> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('book' as const), ...base, reset: fc.constantFrom(false, false, false, true), side, priceTicks: fc.nat(50), qtyLots: fc.nat(9) }).map((r) => (r.side === undefined ? { ...r, priceTicks: 0, qtyLots: 0 } : r)) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('trade' as const), ...base, side, priceTicks: fc.nat(50), qtyLots: fc.integer({ min: 1, max: 9 }), tradeId: fc.constant(undefined) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('quote' as const), ...base, bidTicks: maybe(fc.nat(50)), bidQtyLots: maybe(fc.nat(9)), askTicks: maybe(fc.nat(50)), askQtyLots: maybe(fc.nat(9)) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('stats' as const), ...base, markPrice: fc.constantFrom('1.5', undefined), indexPrice: fc.constantFrom('1.4', undefined), fundingRate: fc.constantFrom('0.0001', undefined), fundingTsNs: fc.constantFrom(7n, undefined) }) },
);
const market: fc.Arbitrary<SourceMarket> = fc.record({ market: fc.nat(2), symbol: fc.constantFrom(undefined, ...SYMBOLS), l1: fc.boolean() });

function source(quotes: RecordSource['quotes']): RecordSource {
  return { name: 'memory', paths: [], format: 'market-records', records: undefined as never, instruments: {}, errors: undefined, priority: 2, quotes };
}

describe('records → the replay column batches (l2-columns.ts)', () => {
  it('give the events of the object-at-a-time loader, from record objects and from column batches of any size, in batches of any size', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 80 }), market, fc.boolean(), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 6 }), (records, m, quotesAreBook, inputRows, maxRows) => {
        const want = expectedEvents(records, m, quotesAreBook);
        const quotes = quotesAreBook ? 'book' : 'ignore';
        // From objects, as the merged stream hands them (its times already held level).
        const fromRecords = new L2ColumnBuilder([source(quotes)], [m], false, maxRows, 4);
        let floor = MIN_TIME_NS;
        for (const r of records) {
          floor = r.exchNs < floor ? floor : r.exchNs;
          fromRecords.record(r, 0, floor);
        }
        fromRecords.finish();
        // From columns, holding times level itself.
        const fromColumns = new L2ColumnBuilder([source(quotes)], [m], false, maxRows, 4);
        let held = MIN_TIME_NS;
        for (const b of columnBatches(records, inputRows, SYMBOLS)) held = fromColumns.batch(b, 0, held);
        fromColumns.finish();
        for (const got of [fromRecords.ready, fromColumns.ready]) {
          expect(got.every((b) => b.length > 0 && b.length <= maxRows)).toBe(true);
          expect(got.flatMap(eventsOf)).toEqual(want);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('keep only the tickers when asked (the recorded index pass), at the same times', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 80 }), market, fc.integer({ min: 1, max: 9 }), (records, m, inputRows) => {
        const want = expectedEvents(records, m, true).filter((e) => e.kind === 'ticker');
        const builder = new L2ColumnBuilder([source('book')], [m], true);
        let held = MIN_TIME_NS;
        for (const b of columnBatches(records, inputRows, SYMBOLS)) held = builder.batch(b, 0, held);
        builder.finish();
        expect(builder.ready.flatMap(eventsOf)).toEqual(want);
      }),
      { numRuns: 200 },
    );
  });
});
