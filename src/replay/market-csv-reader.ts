import { TickSize } from '../core/price.ts';
import type { Side } from '../core/types.ts';
import type { ByteSource } from './byte-source.ts';
import type { CountedStream } from './binance-dump-csv.ts';
import { ChunkedStream } from './chunked-stream.ts';
import type { FieldReader } from './fields.ts';
import { decodeHeaderCsv } from './header-csv.ts';
import { STATS_INT, STATS_TEXT } from './market-arrow-columns.ts';
import { MARKET_CSV_HEADER } from './market-csv.ts';
import type { MarketRecord, StatsFields, SymbolUnits } from './market-records.ts';
import { ReplayError, RowErrors } from './replay-error.ts';

/**
 * `perpsim convert --to csv` output read back as normalized records: the exact inverse of
 * `MarketCsvWriter` (decimal prices and quantities back to ticks and lots of each symbol's
 * units, which the CSV does not carry: `unitsOf` gives them).
 */
export function readMarketCsv(source: ByteSource, unitsOf: (symbol: string) => SymbolUnits | undefined, options: { skipBadRows?: boolean } = {}): CountedStream {
  const errors = new RowErrors(options.skipBadRows ?? false);
  const steps = new Map<string, { tick: TickSize; lot: TickSize }>();
  const stepsOf = (reader: FieldReader, symbol: string) => {
    let s = steps.get(symbol);
    if (s === undefined) {
      const u = unitsOf(symbol);
      if (u === undefined) throw reader.error(2, `symbol ${symbol} has no known units: give --tick-size and --lot-size`);
      s = { tick: new TickSize(u.tickSize), lot: new TickSize(u.lotSize) };
      steps.set(symbol, s);
    }
    return s;
  };
  const checkHeader = (header: string[]): void => {
    if (header.join(',') !== MARKET_CSV_HEADER.join(',')) throw new ReplayError(source.name, 1, undefined, 'not a perpsim market-records CSV header');
  };
  const stream = new ChunkedStream<MarketRecord>(() => decodeHeaderCsv(source, MARKET_CSV_HEADER.length, errors, (row) => decodeRow(row, stepsOf), checkHeader));
  return Object.assign(stream, { errors });
}

const NS = /^\d{1,19}$/;
const FIRST_STATS = 13;

function decodeRow(f: FieldReader, stepsOf: (f: FieldReader, symbol: string) => { tick: TickSize; lot: TickSize }): MarketRecord {
  const ns = (i: number, what: string): bigint => {
    const text = f.field(i);
    if (!NS.test(text)) throw f.error(i, `${JSON.stringify(text)} is not a time in ns (${what})`);
    return BigInt(text);
  };
  const recvNs = ns(0, 'recv_ns');
  const exchNs = ns(1, 'exch_ns');
  const symbol = f.field(2);
  const { tick, lot } = stepsOf(f, symbol);
  const side = (): Side | undefined => (f.is(5, 'B') ? 'B' : f.is(5, 'S') ? 'S' : f.isEmpty(5) ? undefined : badSide(f));
  const base = { recvNs, exchNs, symbol };
  if (f.is(3, 'book')) {
    const s = side();
    return { kind: 'book', ...base, reset: f.is(4, 'true'), side: s, priceTicks: s === undefined ? 0 : f.steps(6, tick, 'price'), qtyLots: s === undefined ? 0 : f.steps(7, lot, 'quantity') };
  }
  if (f.is(3, 'trade')) {
    return { kind: 'trade', ...base, side: side(), priceTicks: f.steps(6, tick, 'price'), qtyLots: f.steps(7, lot, 'quantity'), tradeId: f.isEmpty(8) ? undefined : f.field(8) };
  }
  if (f.is(3, 'quote')) {
    return { kind: 'quote', ...base, bidTicks: f.optionalSteps(9, tick, 'price'), bidQtyLots: f.optionalSteps(10, lot, 'quantity'), askTicks: f.optionalSteps(11, tick, 'price'), askQtyLots: f.optionalSteps(12, lot, 'quantity') };
  }
  if (!f.is(3, 'stats')) throw f.error(3, `${JSON.stringify(f.field(3))} is not a record kind (book, trade, quote, stats)`);
  const stats: StatsFields = {};
  STATS_TEXT.forEach(([key], k) => {
    if (!f.isEmpty(FIRST_STATS + k)) stats[key] = f.field(FIRST_STATS + k);
  });
  STATS_INT.forEach(([key, name], k) => {
    const i = FIRST_STATS + STATS_TEXT.length + k;
    if (!f.isEmpty(i)) stats[key] = f.steps(i, lot, name);
  });
  const fundingAt = FIRST_STATS + STATS_TEXT.length + STATS_INT.length;
  if (!f.isEmpty(fundingAt)) stats.fundingTsNs = ns(fundingAt, 'funding_ts_ns');
  return { kind: 'stats', ...base, ...stats };
}

function badSide(f: FieldReader): never {
  throw f.error(5, `side ${JSON.stringify(f.field(5))} is neither B nor S`);
}
