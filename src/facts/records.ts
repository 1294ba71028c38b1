/**
 * The market records the facts read: the shape of perpsim's normalized market records
 * (`src/replay/market-records.ts`, which satisfies these types), declared here so the facts
 * depend on nothing above them and a simulation can feed them without the replay layer.
 * Prices are integer ticks, sizes integer lots, times exact ns; mark, index and funding rate are
 * decimal text.
 */

interface FactsRecordBase {
  /** When the data was received; the facts' clock. */
  recvNs: bigint;
  /** The exchange's time (trade inter-arrival times use it). */
  exchNs: bigint;
  symbol: string;
}

/** One level's new absolute quantity (0 removes it); `reset` clears the book first. */
export interface FactsBookRecord extends FactsRecordBase {
  kind: 'book';
  reset: boolean;
  side: 'B' | 'S' | undefined;
  priceTicks: number;
  qtyLots: number;
}

export interface FactsTradeRecord extends FactsRecordBase {
  kind: 'trade';
  priceTicks: number;
  qtyLots: number;
}

/** Top of book; a side is undefined when empty. */
export interface FactsQuoteRecord extends FactsRecordBase {
  kind: 'quote';
  bidTicks: number | undefined;
  bidQtyLots: number | undefined;
  askTicks: number | undefined;
  askQtyLots: number | undefined;
}

export interface FactsStatsRecord extends FactsRecordBase {
  kind: 'stats';
  markPrice?: string | undefined;
  indexPrice?: string | undefined;
  fundingRate?: string | undefined;
  /** The settlement time the rate is for, when the source restates it until then. */
  fundingTsNs?: bigint | undefined;
}

export type FactsRecord = FactsBookRecord | FactsTradeRecord | FactsQuoteRecord | FactsStatsRecord;

/** Tick and lot size of a symbol, as decimal text. */
export interface FactsUnits {
  tickSize: string;
  lotSize: string;
}
