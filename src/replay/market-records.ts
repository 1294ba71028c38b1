import type { Side } from '../core/types.ts';
import type { Level } from './levels.ts';

/**
 * perpsim's normalized market records: the one shape every replay source can be turned into
 * (tardis CSV, LOBSTER, Binance captures, perpsim's event log, `perpsim record` recordings),
 * and the rows of the normalized Arrow file (`market-arrow.ts`). Prices are integer ticks and
 * sizes integer lots of the symbol's units (the file's `perpsim.instruments` metadata says
 * which); times are exact ns.
 *
 * Book records are level rows in the tardis `incremental_book_L2` style: the new absolute
 * quantity at one price (0 removes the level). A row with `reset` clears the symbol's book
 * first: it starts a snapshot, and the rows that follow with the same `recvNs` complete it.
 * Apply all rows that share a `recvNs` together (what a client received at once).
 */

/** Row kinds, in code order (the Arrow `kind` dictionary is seeded with them). */
export const MARKET_KINDS = ['book', 'trade', 'quote', 'stats'] as const;
export type MarketKind = (typeof MARKET_KINDS)[number];
export const KIND_BOOK = 0;
export const KIND_TRADE = 1;
export const KIND_QUOTE = 2;
export const KIND_STATS = 3;

/** Side codes of `MarketBatch.side`. */
export const SIDE_NONE = 0;
export const SIDE_BUY = 1;
export const SIDE_SELL = 2;

interface RecordBase {
  /** When the data was received (tardis `local_timestamp`, capture time, the recorder's clock). */
  recvNs: bigint;
  /** The exchange's time for it (equals `recvNs` when the source has one time only). */
  exchNs: bigint;
  symbol: string;
}

/** One price level's new absolute quantity; `reset` clears the book first. */
export interface BookRecord extends RecordBase {
  kind: 'book';
  reset: boolean;
  /** Undefined only on a reset row that carries no level (an empty snapshot). */
  side: Side | undefined;
  priceTicks: number;
  qtyLots: number;
}

/** One print; `side` is the taker's, undefined when the source does not say. */
export interface TradeRecord extends RecordBase {
  kind: 'trade';
  side: Side | undefined;
  priceTicks: number;
  qtyLots: number;
  tradeId: string | undefined;
}

/** Top of book; a side is undefined when it is empty. */
export interface QuoteRecord extends RecordBase {
  kind: 'quote';
  bidTicks: number | undefined;
  bidQtyLots: number | undefined;
  askTicks: number | undefined;
  askQtyLots: number | undefined;
}

/**
 * Ticker, mark, index and funding values. Off-grid values (rates, index, mark, open interest)
 * are exact decimal text; a field the source did not give is undefined.
 */
export interface StatsFields {
  lastPrice?: string | undefined;
  lastQtyLots?: number | undefined;
  openPrice?: string | undefined;
  highPrice?: string | undefined;
  lowPrice?: string | undefined;
  volumeLots?: number | undefined;
  markPrice?: string | undefined;
  indexPrice?: string | undefined;
  fundingRate?: string | undefined;
  predictedFundingRate?: string | undefined;
  fundingTsNs?: bigint | undefined;
  openInterest?: string | undefined;
}

export interface StatsRecord extends RecordBase, StatsFields {
  kind: 'stats';
}

/** Any normalized record, by `kind`. */
export type MarketRecord = BookRecord | TradeRecord | QuoteRecord | StatsRecord;

/** The units of one symbol: decimal text of its price tick and its lot (quantity step). */
export interface SymbolUnits {
  tickSize: string;
  lotSize: string;
}

/**
 * A batch of normalized rows as columns (typed arrays, no object per row): what fast consumers
 * iterate. Absent numbers are NaN, absent sides `SIDE_NONE`. Valid until the next batch is
 * requested from the same reader (arrays may be reused).
 */
export interface MarketBatch {
  length: number;
  /** Symbol names by code. */
  symbols: readonly string[];
  symbol: Int32Array;
  /** `KIND_*` codes. */
  kind: Uint8Array;
  recvNs: BigInt64Array;
  exchNs: BigInt64Array;
  /** 1 where a book row resets the book. */
  reset: Uint8Array;
  /** `SIDE_*`: a book row's side, a trade's taker side. */
  side: Uint8Array;
  /** Book and trade rows. */
  priceTicks: Float64Array;
  qtyLots: Float64Array;
  /** Quote rows. */
  bidTicks: Float64Array;
  bidQtyLots: Float64Array;
  askTicks: Float64Array;
  askQtyLots: Float64Array;
  /** A trade row's id (rare fields are decoded on demand). */
  tradeId(row: number): string | undefined;
  /** A stats row's fields. */
  stats(row: number): StatsFields;
}

const sideOf = (code: number): Side | undefined => (code === SIDE_BUY ? 'B' : code === SIDE_SELL ? 'S' : undefined);
const num = (x: number): number | undefined => (Number.isNaN(x) ? undefined : x);

/** Row `i` of a batch as a record object. */
export function batchRecord(b: MarketBatch, i: number): MarketRecord {
  const base = { recvNs: b.recvNs[i]!, exchNs: b.exchNs[i]!, symbol: b.symbols[b.symbol[i]!]! };
  switch (b.kind[i]) {
    case KIND_BOOK: {
      const side = sideOf(b.side[i]!);
      return { kind: 'book', ...base, reset: b.reset[i] === 1, side, priceTicks: side === undefined ? 0 : b.priceTicks[i]!, qtyLots: side === undefined ? 0 : b.qtyLots[i]! };
    }
    case KIND_TRADE:
      return { kind: 'trade', ...base, side: sideOf(b.side[i]!), priceTicks: b.priceTicks[i]!, qtyLots: b.qtyLots[i]!, tradeId: b.tradeId(i) };
    case KIND_QUOTE:
      return { kind: 'quote', ...base, bidTicks: num(b.bidTicks[i]!), bidQtyLots: num(b.bidQtyLots[i]!), askTicks: num(b.askTicks[i]!), askQtyLots: num(b.askQtyLots[i]!) };
    default:
      return { kind: 'stats', ...base, ...b.stats(i) };
  }
}

/** Every row of a batch as record objects. */
export function batchRecords(b: MarketBatch): MarketRecord[] {
  const out: MarketRecord[] = new Array(b.length);
  for (let i = 0; i < b.length; i++) out[i] = batchRecord(b, i);
  return out;
}

/** Book rows as levels (what one snapshot / update message carries). */
export function bookRows(symbol: string, recvNs: bigint, exchNs: bigint, reset: boolean, bids: readonly Level[], asks: readonly Level[]): BookRecord[] {
  const out: BookRecord[] = [];
  const row = (side: Side, l: Level): BookRecord => ({ kind: 'book', recvNs, exchNs, symbol, reset: reset && out.length === 0, side, priceTicks: l.priceTicks, qtyLots: l.qtyLots });
  for (const l of bids) out.push(row('B', l));
  for (const l of asks) out.push(row('S', l));
  if (reset && out.length === 0) out.push({ kind: 'book', recvNs, exchNs, symbol, reset: true, side: undefined, priceTicks: 0, qtyLots: 0 });
  return out;
}

/**
 * An L2 book rebuilt from book rows (one per symbol): `apply` each row in order, read `l2()`.
 * For checks and simple consumers; the L2 replay keeps its own books.
 */
export class RecordBook {
  private readonly bids = new Map<number, number>();
  private readonly asks = new Map<number, number>();

  apply(r: BookRecord): void {
    if (r.reset) {
      this.bids.clear();
      this.asks.clear();
    }
    if (r.side === undefined) return;
    const side = r.side === 'B' ? this.bids : this.asks;
    if (r.qtyLots === 0) side.delete(r.priceTicks);
    else side.set(r.priceTicks, r.qtyLots);
  }

  /** Bids best (highest) first, asks best (lowest) first. */
  l2(): { bids: Level[]; asks: Level[] } {
    const levels = (m: Map<number, number>, dir: number): Level[] =>
      [...m].map(([priceTicks, qtyLots]) => ({ priceTicks, qtyLots })).sort((a, b) => dir * (a.priceTicks - b.priceTicks));
    return { bids: levels(this.bids, -1), asks: levels(this.asks, 1) };
  }
}

/**
 * The book rows that turn `before` into `after` (each side best first, as LOBSTER and the
 * market-data socket give them): a removed level as quantity 0, a new or changed level with
 * its quantity, unchanged levels not at all.
 */
export function levelDiff(side: Side, before: readonly Level[], after: readonly Level[], make: (side: Side, priceTicks: number, qtyLots: number) => void): void {
  const dir = side === 'B' ? -1 : 1; // position of a price along the side: better first
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    const b = before[i];
    const a = after[j];
    if (a === undefined || (b !== undefined && dir * (b.priceTicks - a.priceTicks) < 0)) {
      make(side, b!.priceTicks, 0);
      i++;
    } else if (b === undefined || dir * (a.priceTicks - b.priceTicks) < 0) {
      make(side, a.priceTicks, a.qtyLots);
      j++;
    } else {
      if (a.qtyLots !== b.qtyLots) make(side, a.priceTicks, a.qtyLots);
      i++;
      j++;
    }
  }
}
