import { tickerStats } from '../../venue/wire-forms.ts';
import { MARKET_DATA_LEVELS, type MarketDataLevel } from '../../wire/market-data.ts';
import type { Market } from '../../venue/market.ts';
import { encodeTickerStats } from './wire-json.ts';

/**
 * Market-data websocket text, built from the venue's one market-data form (src/venue/wire-forms.ts,
 * also used by in-process agents). Each message is serialized once per symbol and level by the
 * fan-out, never per subscriber, so building those objects first costs little.
 */

/** Subscription levels of the market-data websocket. */
export const LEVELS = MARKET_DATA_LEVELS;
export type Level = MarketDataLevel;

/** Index 0, 1, 2 of a level (its update type is `t` = index + 1). */
export function levelIndex(level: Level): 0 | 1 | 2 {
  return level === 'LEVEL_1' ? 0 : level === 'LEVEL_2' ? 1 : 2;
}

/** The ticker stats message (`t: "s"`) of a market at time (sec, nanos); see {@link tickerStats}. */
export function statsMessage(market: Market, sec: number, nanos: number): string {
  return encodeTickerStats(tickerStats(market, sec, nanos));
}

/** A whole book update message (`t` "1", "2" or "3") from its levels part (./md-levels.ts); the same text as JSON.stringify of `bookUpdate` (src/venue/wire-forms.ts). */
export function bookMessage(symbolJson: string, level: Level, sec: number, nanos: number, levelsJson: string): string {
  return `{"t":"${levelIndex(level) + 1}","ts":${sec},"tn":${nanos},"s":${symbolJson},${levelsJson}}`;
}
