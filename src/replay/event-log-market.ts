import type { RecordBatch } from 'apache-arrow';
import { TickSize } from '../core/price.ts';
import { codesInto, columnData, dictionaryWords, intAt, mapCodesInto, textAt } from './arrow-columns.ts';
import { LazyMarketBatch } from './lazy-market-batch.ts';
import { MarketBatchArrays } from './market-batch.ts';
import { KIND_QUOTE, KIND_STATS, KIND_TRADE, type MarketBatch, type StatsFields, type SymbolUnits } from './market-records.ts';
import { ReplayError } from './replay-error.ts';

/**
 * perpsim's event log (`perpsim run`'s events.arrow) as normalized market records, a record
 * batch at a time into typed arrays. What the log has for the market, and what it becomes:
 *
 * | log row | record |
 * | --- | --- |
 * | `book` (touch, when it changed) | `quote` (the log keeps the touch, not every level) |
 * | `trade` | `trade` (taker side, trade id) |
 * | `mark`, `index` | `stats` with `markPrice`, `indexPrice` |
 * | `funding` | `stats` with `fundingRate`, `indexPrice` (the benchmark), `markPrice` |
 * | `feed`, `state` | nothing (order feeds are one user's view, not market data) |
 *
 * Sim time is both `recvNs` and `exchNs`. Quantities are contracts (lot size 1).
 */

const KEEP: Record<string, number> = { book: KIND_QUOTE, trade: KIND_TRADE, mark: KIND_STATS, funding: KIND_STATS, index: KIND_STATS };
const DROP = 255;

/** The units of an event log's symbols, from its `perpsim.tick_sizes` metadata. */
export function eventLogInstruments(file: string, metadata: ReadonlyMap<string, string>): Record<string, SymbolUnits> {
  let ticks: Record<string, string>;
  try {
    ticks = JSON.parse(metadata.get('perpsim.tick_sizes') ?? '{}') as Record<string, string>;
  } catch {
    throw new ReplayError(file, undefined, undefined, 'perpsim.tick_sizes metadata is not JSON');
  }
  return Object.fromEntries(Object.entries(ticks).map(([symbol, tick]) => [symbol, { tickSize: String(tick), lotSize: '1' }]));
}

/** Where the lazily decoded columns are in an event log. */
const EVENT_LOG_COLUMNS = { side: 'side', price: 'price_ticks', qty: 'qty', bid: 'bid_ticks', bidQty: 'bid_qty', ask: 'ask_ticks', askQty: 'ask_qty' };

/**
 * Decodes event-log record batches into one reused `MarketBatch` of its market rows: kinds,
 * symbols and times eagerly, the rest on first access (`LazyMarketBatch` over the kept rows).
 */
export class EventLogBatchDecoder {
  private readonly out = new LazyMarketBatch(EVENT_LOG_COLUMNS);
  private readonly kinds = new MarketBatchArrays();
  private origin = new Int32Array(0);
  private readonly ticks = new Map<string, TickSize>();

  constructor(
    private readonly file: string,
    instruments: Readonly<Record<string, SymbolUnits>>,
  ) {
    for (const [symbol, u] of Object.entries(instruments)) this.ticks.set(symbol, new TickSize(u.tickSize));
  }

  decode(batch: RecordBatch): MarketBatch {
    const n = batch.numRows;
    const col = (name: string) => columnData(batch, name);
    const ts = col('ts_ns');
    if (!(ts?.values instanceof BigInt64Array)) throw new ReplayError(this.file, undefined, 'ts_ns', 'not an event log: ts_ns must be int64');
    const all = this.kinds.resize(n);
    const kindData = col('kind');
    mapCodesInto(kindData, n, dictionaryWords(kindData).map((k) => KEEP[k] ?? DROP), DROP, all.kind);
    const symbolData = col('symbol');
    codesInto(symbolData, n, all.symbol);
    if (this.origin.length < n) this.origin = new Int32Array(Math.max(n, 2 * this.origin.length));
    const origin = this.origin;
    let kept = 0;
    for (let i = 0; i < n; i++) if (all.kind[i] !== DROP) origin[kept++] = i;
    const selected = kept === n ? undefined : origin;
    const b = this.out.load(batch, kept, selected);
    const times = ts.values.subarray(ts.offset, ts.offset + n);
    if (selected === undefined) {
      b.kind.set(all.kind.subarray(0, n));
      b.symbol.set(all.symbol.subarray(0, n));
      b.recvNs.set(times);
    } else {
      for (let j = 0; j < kept; j++) {
        const i = origin[j]!;
        b.kind[j] = all.kind[i]!;
        b.symbol[j] = all.symbol[i]!;
        b.recvNs[j] = times[i]!;
      }
    }
    b.exchNs.set(b.recvNs.subarray(0, kept));
    const symbols = dictionaryWords(symbolData);
    b.symbols = symbols;
    const rowOf = (row: number): number => (selected === undefined ? row : origin[row]!);
    const tradeId = col('trade_id');
    b.tradeId = (row) => {
      const id = intAt(tradeId, rowOf(row));
      return id === undefined ? undefined : String(id);
    };
    const mark = col('mark_ticks');
    const index = col('index_ticks');
    const rate = col('funding_rate');
    b.stats = (row) => {
      const i = rowOf(row);
      const tick = this.ticks.get(symbols[all.symbol[i]!] ?? '');
      const price = (ticks: number | undefined) => (ticks === undefined || tick === undefined ? undefined : tick.toPrice(ticks));
      const out: StatsFields = {};
      const m = price(intAt(mark, i));
      const x = price(intAt(index, i));
      const r = textAt(rate, i);
      if (m !== undefined) out.markPrice = m;
      if (x !== undefined) out.indexPrice = x;
      if (r !== undefined) out.fundingRate = r;
      return out;
    };
    return b;
  }
}
