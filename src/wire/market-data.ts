/** Market-data subscription levels. */
export const MARKET_DATA_LEVELS = ['LEVEL_1', 'LEVEL_2', 'LEVEL_3'] as const;
export type MarketDataLevel = (typeof MARKET_DATA_LEVELS)[number];

/**
 * Largest `depth` a market-data subscribe accepts (perpsim's extension of the interface: the
 * first `depth` levels a side). Far beyond any real book's levels; it bounds what a client can
 * ask a server to keep apart.
 */
export const MAX_MARKET_DATA_DEPTH = 100_000;

/** Why `value` is not a valid subscribe `depth` (absent or null means every level), or undefined. */
export function depthProblem(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > MAX_MARKET_DATA_DEPTH) {
    return `depth must be an integer from 1 to ${MAX_MARKET_DATA_DEPTH}`;
  }
  return undefined;
}

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
