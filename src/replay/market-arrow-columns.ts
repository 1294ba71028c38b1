import { Field, RecordBatch, Schema, Struct, makeData, type Data } from 'apache-arrow';
import { BoolColumn, Int64Column, Utf8Column, type Column } from '../sim/event-log/columns.ts';
import { DictionaryColumn } from '../sim/event-log/dictionary-column.ts';
import { MARKET_KINDS, type MarketRecord, type StatsFields, type SymbolUnits } from './market-records.ts';

/**
 * The normalized market-records Arrow table (`perpsim convert --to arrow`, `perpsim record`):
 * one row per `MarketRecord`, columns a kind does not use are null.
 *
 * | kind | columns set (besides `recv_ns`, `exch_ns`, `symbol`, `kind`) |
 * | --- | --- |
 * | `book` | `reset`, `side` (B bid / S ask), `price_ticks`, `qty_lots` (0 removes the level); a reset row of an empty book has no side |
 * | `trade` | `side` (taker, null if unknown), `price_ticks`, `qty_lots`, `trade_id` |
 * | `quote` | `bid_ticks`, `bid_qty`, `ask_ticks`, `ask_qty` (null for an empty side) |
 * | `stats` | `stats`: a JSON object with any of `last_price last_qty open_price high_price low_price volume mark_price index_price funding_rate predicted_funding_rate funding_ts_ns open_interest` (prices and rates decimal strings, quantities integers, `funding_ts_ns` a string of digits) |
 *
 * Stats are rare, so they share one text column: a row costs about 80 bytes instead of 135 with
 * a column per field, and reading speed is bound by bytes.
 *
 * Schema metadata: `perpsim.market_records` (version), `perpsim.instruments` (JSON: symbol →
 * `{tick_size, lot_size}`), `perpsim.source` (what it was converted or recorded from).
 */

export const MARKET_RECORDS_VERSION = '1';

/** Text stats fields and their column names. */
export const STATS_TEXT = [
  ['lastPrice', 'last_price'], ['openPrice', 'open_price'], ['highPrice', 'high_price'], ['lowPrice', 'low_price'],
  ['markPrice', 'mark_price'], ['indexPrice', 'index_price'], ['fundingRate', 'funding_rate'],
  ['predictedFundingRate', 'predicted_funding_rate'], ['openInterest', 'open_interest'],
] as const satisfies readonly (readonly [keyof StatsFields, string])[];

/** Integer stats fields and their column names. */
export const STATS_INT = [['lastQtyLots', 'last_qty'], ['volumeLots', 'volume']] as const satisfies readonly (readonly [keyof StatsFields, string])[];

const MASK_32 = 0xffffffffn;

/** The stats fields of a record as the `stats` column's JSON (snake_case keys, fields given only). */
export function statsJson(r: StatsFields): string {
  const out: Record<string, string | number> = {};
  for (const [key, name] of STATS_TEXT) if (r[key] !== undefined) out[name] = r[key];
  for (const [key, name] of STATS_INT) if (r[key] !== undefined) out[name] = r[key];
  if (r.fundingTsNs !== undefined) out.funding_ts_ns = String(r.fundingTsNs);
  return JSON.stringify(out);
}

/** The `stats` column's JSON back as fields (the exact inverse of `statsJson`). */
export function parseStats(json: string | undefined): StatsFields {
  const out: StatsFields = {};
  if (json === undefined) return out;
  const o = JSON.parse(json) as Record<string, unknown>;
  for (const [key, name] of STATS_TEXT) if (typeof o[name] === 'string') out[key] = o[name];
  for (const [key, name] of STATS_INT) if (typeof o[name] === 'number') out[key] = o[name];
  if (typeof o.funding_ts_ns === 'string') out.fundingTsNs = BigInt(o.funding_ts_ns);
  return out;
}

/** The builders of one batch; `add` appends a record, `finish` hands the batch over. */
export class MarketColumns {
  readonly schema: Schema;
  rows = 0;
  private readonly recv: Int64Column;
  private readonly exch: Int64Column;
  private readonly symbol: DictionaryColumn;
  private readonly kind: DictionaryColumn;
  private readonly reset: BoolColumn;
  private readonly side: DictionaryColumn;
  private readonly price: Int64Column;
  private readonly qty: Int64Column;
  private readonly tradeId: Utf8Column;
  private readonly bid: Int64Column;
  private readonly bidQty: Int64Column;
  private readonly ask: Int64Column;
  private readonly askQty: Int64Column;
  private readonly stats: Utf8Column;
  private readonly columns: [string, Column][];

  /**
   * Batches are built in reused arrays: a finished batch is valid until the next `add`, so
   * write it out at once (as `EventLogFileWriter.write` does).
   */
  constructor(
    readonly capacity: number,
    instruments: Readonly<Record<string, SymbolUnits>>,
    source: string,
  ) {
    const i64 = () => new Int64Column(capacity, true);
    this.recv = i64();
    this.exch = i64();
    this.price = i64();
    this.qty = i64();
    this.bid = i64();
    this.bidQty = i64();
    this.ask = i64();
    this.askQty = i64();
    this.symbol = new DictionaryColumn(capacity, 0, 32, true);
    this.kind = new DictionaryColumn(capacity, 1, 8, true);
    this.side = new DictionaryColumn(capacity, 2, 8, true);
    this.reset = new BoolColumn(capacity, true);
    this.tradeId = new Utf8Column(capacity, true);
    this.stats = new Utf8Column(capacity, true);
    this.kind.seed(MARKET_KINDS);
    this.side.seed(['B', 'S']);
    this.symbol.seed(Object.keys(instruments).filter((s) => s !== '*'));
    this.columns = [
      ['recv_ns', this.recv], ['exch_ns', this.exch], ['symbol', this.symbol], ['kind', this.kind], ['reset', this.reset],
      ['side', this.side], ['price_ticks', this.price], ['qty_lots', this.qty], ['trade_id', this.tradeId],
      ['bid_ticks', this.bid], ['bid_qty', this.bidQty], ['ask_ticks', this.ask], ['ask_qty', this.askQty],
      ['stats', this.stats],
    ];
    const required = new Set(['recv_ns', 'exch_ns', 'symbol', 'kind']);
    const units = Object.fromEntries(Object.entries(instruments).map(([s, u]) => [s, { tick_size: u.tickSize, lot_size: u.lotSize }]));
    const metadata = new Map([
      ['perpsim.market_records', MARKET_RECORDS_VERSION],
      ['perpsim.instruments', JSON.stringify(units)],
      ['perpsim.source', source],
    ]);
    this.schema = new Schema(this.columns.map(([name, c]) => new Field(name, c.type, !required.has(name))), metadata);
  }

  get full(): boolean {
    return this.rows >= this.capacity;
  }

  /** Appends one record as the next row (recycling the arrays when a batch was just finished). */
  add(r: MarketRecord): void {
    if (this.rows === 0) for (const [, c] of this.columns) c.recycle();
    const row = this.rows++;
    setNs(this.recv, row, r.recvNs);
    setNs(this.exch, row, r.exchNs);
    this.symbol.set(row, r.symbol);
    this.kind.set(row, r.kind);
    switch (r.kind) {
      case 'book':
        this.reset.set(row, r.reset);
        if (r.side === undefined) break;
        this.side.set(row, r.side);
        this.price.setNumber(row, r.priceTicks);
        this.qty.setNumber(row, r.qtyLots);
        break;
      case 'trade':
        if (r.side !== undefined) this.side.set(row, r.side);
        this.price.setNumber(row, r.priceTicks);
        this.qty.setNumber(row, r.qtyLots);
        if (r.tradeId !== undefined) this.tradeId.set(row, r.tradeId);
        break;
      case 'quote':
        if (r.bidTicks !== undefined) this.bid.setNumber(row, r.bidTicks);
        if (r.bidQtyLots !== undefined) this.bidQty.setNumber(row, r.bidQtyLots);
        if (r.askTicks !== undefined) this.ask.setNumber(row, r.askTicks);
        if (r.askQtyLots !== undefined) this.askQty.setNumber(row, r.askQtyLots);
        break;
      case 'stats':
        this.stats.set(row, statsJson(r));
        break;
    }
  }

  /** The rows added since the last `finish` as a record batch. */
  finish(): RecordBatch {
    const rows = this.rows;
    const children: Data[] = this.columns.map(([, c]) => c.finish(rows));
    this.rows = 0;
    return new RecordBatch(this.schema, makeData({ type: new Struct(this.schema.fields), length: rows, nullCount: 0, children }));
  }
}

function setNs(column: Int64Column, row: number, ns: bigint): void {
  if (ns >= 0n && ns <= 9_007_199_254_740_991n) return column.setNumber(row, Number(ns));
  column.setHalves(row, Number(BigInt.asIntN(64, ns) >> 32n), Number(ns & MASK_32));
}
