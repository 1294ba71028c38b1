/** Market-data subscription levels. */
export const MARKET_DATA_LEVELS = ['LEVEL_1', 'LEVEL_2', 'LEVEL_3'] as const;
export type MarketDataLevel = (typeof MARKET_DATA_LEVELS)[number];

/** One book level: price text, total quantity in lots, and (LEVEL_3 only) order quantities in queue order. */
export interface BookLevel {
  p: string;
  q: number;
  o?: number[];
}

/** A market-data book update: a full snapshot of the subscribed level (`ts`/`tn`: exchange time, s + ns). */
export interface BookUpdate {
  t: '1' | '2' | '3';
  ts: number;
  tn: number;
  s: string;
  b: BookLevel[];
  a: BookLevel[];
}

/**
 * Ticker stats (`t: "s"`): last price and quantity, session open / low / high, volume in lots.
 * Before the first trade of a session the prices are "0" and the last quantity 0 (never null).
 */
export interface TickerStats {
  t: 's';
  ts: number;
  tn: number;
  s: string;
  p: string;
  q: number;
  o: string;
  l: string;
  h: string;
  v: number;
}

export type MarketDataMessage = BookUpdate | TickerStats;
