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
