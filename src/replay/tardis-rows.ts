import type { TickSize } from '../core/price.ts';
import type { Side } from '../core/types.ts';
import type { FieldReader } from './fields.ts';
import type { Level } from './levels.ts';
import { ReplayError } from './replay-error.ts';

/**
 * Row shapes of tardis.dev's downloadable CSVs and their decoders. Every row keeps the exchange
 * time (`timestamp`, µs in the file) as exact ns; the receipt time (`local_timestamp`) is on
 * the batch the row belongs to (see `tardis-csv.ts`).
 */

/** The tardis data types this reader understands, told apart by their header. */
export type TardisKind = 'incremental_book_L2' | 'trades' | 'quotes' | 'book_snapshot' | 'derivative_ticker';

/** incremental_book_L2: the new absolute amount at one price (0 deletes the level). */
export interface TardisBookUpdate {
  exchangeTsNs: bigint;
  side: Side;
  priceTicks: number;
  qtyLots: number;
  /** Part of an initial or refreshed full snapshot rather than a change. */
  isSnapshot: boolean;
}

/** trades: one trade; `takerSide` is undefined where tardis says `unknown`. */
export interface TardisTrade {
  exchangeTsNs: bigint;
  tradeId: string;
  takerSide: Side | undefined;
  priceTicks: number;
  qtyLots: number;
}

/**
 * quotes: top of book, flat (one object per row: quotes are the bulk of most captures). A side's
 * price and amount are both undefined when its fields are empty (no quote on that side).
 */
export interface TardisQuote {
  exchangeTsNs: bigint;
  bidPriceTicks: number | undefined;
  bidQtyLots: number | undefined;
  askPriceTicks: number | undefined;
  askQtyLots: number | undefined;
}

/** book_snapshot_N: the top N levels (fewer when the book had fewer), best first. */
export interface TardisBookSnapshot {
  exchangeTsNs: bigint;
  bids: Level[];
  asks: Level[];
}

/**
 * derivative_ticker: funding and reference prices. Rates, open interest and index / mark prices
 * are not on the tick grid, so they stay exact decimal text (exponent form normalized);
 * undefined when the field is empty.
 */
export interface TardisDerivativeTicker {
  exchangeTsNs: bigint;
  fundingTsNs: bigint | undefined;
  fundingRate: string | undefined;
  predictedFundingRate: string | undefined;
  openInterest: string | undefined;
  lastPrice: string | undefined;
  indexPrice: string | undefined;
  markPrice: string | undefined;
}

/** The row type of each kind. */
export interface TardisRowOf {
  incremental_book_L2: TardisBookUpdate;
  trades: TardisTrade;
  quotes: TardisQuote;
  book_snapshot: TardisBookSnapshot;
  derivative_ticker: TardisDerivativeTicker;
}

/** Instrument units for the conversion of decimal text. */
export interface TardisUnits {
  tick: TickSize;
  lot: TickSize;
}

/** Decodes the record the reader points at. */
export type RowDecoder<R> = (f: FieldReader) => R;

const COMMON = ['exchange', 'symbol', 'timestamp', 'local_timestamp'];
const COLUMNS: Record<Exclude<TardisKind, 'book_snapshot'>, string[]> = {
  incremental_book_L2: [...COMMON, 'is_snapshot', 'side', 'price', 'amount'],
  trades: [...COMMON, 'id', 'side', 'price', 'amount'],
  quotes: [...COMMON, 'ask_amount', 'ask_price', 'bid_price', 'bid_amount'],
  derivative_ticker: [...COMMON, 'funding_timestamp', 'funding_rate', 'predicted_funding_rate', 'open_interest', 'last_price', 'index_price', 'mark_price'],
};

/** The kind a header belongs to (columns in tardis's order), or a `ReplayError` on line 1. */
export function detectTardisKind(file: string, header: readonly string[]): TardisKind {
  for (const [kind, columns] of Object.entries(COLUMNS)) {
    if (columns.length === header.length && columns.every((c, i) => header[i] === c)) return kind as TardisKind;
  }
  if (snapshotDepth(header) > 0) return 'book_snapshot';
  throw new ReplayError(file, 1, undefined, `not a tardis CSV header: ${header.join(',')}`);
}

/** N of a book_snapshot_N header, or 0 when the header is not one. */
function snapshotDepth(header: readonly string[]): number {
  const n = (header.length - COMMON.length) / 4;
  if (!Number.isInteger(n) || n < 1 || !COMMON.every((c, i) => header[i] === c)) return 0;
  for (let i = 0; i < n; i++) {
    const at = COMMON.length + 4 * i;
    const names = [`asks[${i}].price`, `asks[${i}].amount`, `bids[${i}].price`, `bids[${i}].amount`];
    if (!names.every((name, k) => header[at + k] === name)) return 0;
  }
  return n;
}

/** The decoder of one kind, given the file's header and units. */
export function tardisDecoder(kind: TardisKind, header: readonly string[], units: TardisUnits): RowDecoder<TardisRowOf[TardisKind]> {
  const { tick, lot } = units;
  switch (kind) {
    case 'incremental_book_L2':
      return (f) => ({
        exchangeTsNs: f.microsAsNs(2, 'timestamp'),
        isSnapshot: flag(f, 4),
        side: side(f, 5, 'bid', 'ask'),
        priceTicks: f.steps(6, tick, 'price'),
        qtyLots: f.steps(7, lot, 'amount'),
      });
    case 'trades':
      return (f) => ({
        exchangeTsNs: f.microsAsNs(2, 'timestamp'),
        tradeId: f.field(4),
        takerSide: f.is(5, 'unknown') ? undefined : side(f, 5, 'buy', 'sell'),
        priceTicks: f.steps(6, tick, 'price'),
        qtyLots: f.steps(7, lot, 'amount'),
      });
    case 'quotes':
      return (f) => {
        pairedEmpty(f, 5, 4);
        pairedEmpty(f, 6, 7);
        return {
          exchangeTsNs: f.microsAsNs(2, 'timestamp'),
          bidPriceTicks: f.optionalSteps(6, tick, 'price'),
          bidQtyLots: f.optionalSteps(7, lot, 'amount'),
          askPriceTicks: f.optionalSteps(5, tick, 'price'),
          askQtyLots: f.optionalSteps(4, lot, 'amount'),
        };
      };
    case 'book_snapshot': {
      const depth = snapshotDepth(header);
      return (f) => {
        const bids: Level[] = [];
        const asks: Level[] = [];
        for (let i = 0; i < depth; i++) {
          const at = COMMON.length + 4 * i;
          pushLevel(f, at, asks, units);
          pushLevel(f, at + 2, bids, units);
        }
        return { exchangeTsNs: f.microsAsNs(2, 'timestamp'), bids, asks };
      };
    }
    case 'derivative_ticker':
      return (f) => ({
        exchangeTsNs: f.microsAsNs(2, 'timestamp'),
        fundingTsNs: f.isEmpty(4) ? undefined : f.microsAsNs(4, 'funding_timestamp'),
        fundingRate: f.optionalDecimalText(5, 'funding rate'),
        predictedFundingRate: f.optionalDecimalText(6, 'funding rate'),
        openInterest: f.optionalDecimalText(7, 'open interest'),
        lastPrice: f.optionalDecimalText(8, 'price'),
        indexPrice: f.optionalDecimalText(9, 'price'),
        markPrice: f.optionalDecimalText(10, 'price'),
      });
  }
}

function flag(f: FieldReader, i: number): boolean {
  if (f.is(i, 'true')) return true;
  if (f.is(i, 'false')) return false;
  throw f.error(i, `${JSON.stringify(f.field(i))} is not true or false`);
}

function side(f: FieldReader, i: number, buy: string, sell: string): Side {
  if (f.is(i, buy)) return 'B';
  if (f.is(i, sell)) return 'S';
  throw f.error(i, `${JSON.stringify(f.field(i))} is not ${buy} or ${sell}`);
}

/** A price and its amount are empty together (no level) or not at all. */
function pairedEmpty(f: FieldReader, priceAt: number, amountAt: number): boolean {
  const noPrice = f.isEmpty(priceAt);
  if (noPrice !== f.isEmpty(amountAt)) {
    throw noPrice ? f.error(priceAt, 'price is empty but the amount is not') : f.error(amountAt, 'amount is empty but the price is not');
  }
  return noPrice;
}

/** Appends the level at `at` (price, amount) unless both fields are empty (a short book). */
function pushLevel(f: FieldReader, at: number, side: Level[], units: TardisUnits): void {
  if (pairedEmpty(f, at, at + 1)) return;
  side.push({ priceTicks: f.steps(at, units.tick, 'price'), qtyLots: f.steps(at + 1, units.lot, 'amount') });
}
