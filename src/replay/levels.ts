/**
 * Shared shapes of replayed market data. Prices are integer ticks of the instrument's tick
 * size, sizes integer lots of its lot size (exact: decimal text is converted, never rounded);
 * times are exact integer nanoseconds since the Unix epoch.
 */

/** One price level: its price and the absolute quantity resting there (0 = the level is gone). */
export interface Level {
  priceTicks: number;
  qtyLots: number;
}

/**
 * One message's levels as numbers, with no object per level: price, quantity, price, quantity, …
 * of its bids, then of its asks; the first `bids` pairs are the bids.
 */
export interface PackedLevels {
  values: number[];
  bids: number;
}
