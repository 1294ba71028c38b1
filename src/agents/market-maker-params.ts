/** How a market maker quotes. Distances are ticks; times seconds unless named otherwise. */
export interface MarketMakerParams {
  /** Fair value: the index, or the book's mid pulled toward the index by `indexWeight`. */
  anchor: 'index' | 'mid';
  /**
   * With `anchor: "mid"`: fair = indexWeight·index + (1 − indexWeight)·(smoothed mid), 0..1.
   * Inventory skew then moves the book until the index pull balances it, so a persistent
   * one-sided flow leaves the perp at a premium or discount of about skew / indexWeight.
   */
  indexWeight: number;
  /** With `anchor: "mid"`: time constant of the mid's moving average, seconds. */
  midSmoothingSec: number;
  /** Quote levels per side (1 to 20). */
  levels: number;
  /** Distance of the first level from fair value. */
  halfSpreadTicks: number;
  /** Distance between levels. */
  levelSpacingTicks: number;
  /** Size of the first level, lots; level i has sizeLots·sizeGrowth^i (± jitter). */
  sizeLots: number;
  sizeGrowth: number;
  /** Relative size noise, 0..1. */
  sizeJitter: number;
  /**
   * Soft inventory limit: sizes on the side that adds to the position shrink linearly to a
   * quarter at this inventory; at twice this the maker stops adding altogether.
   */
  maxInventoryLots: number;
  /** Fair value moves this far against the inventory at `maxInventoryLots` (linear skew, unclamped). */
  skewTicks: number;
  /** Spreads widen by √(short-term / long-term variance), capped at this factor. */
  maxWiden: number;
  volShortSec: number;
  volLongSec: number;
  /** An index step larger than this many long-run standard deviations pulls every quote… */
  shockSigmas: number;
  /** …for this long. */
  pullSec: number;
  /** Minimum time between two requotes of a symbol. */
  minRequoteMs: number;
  /** After an EXCHANGE_CLOSED reject, wait this long before quoting again (doubling while closed, up to 16×). */
  closedBackoffSec: number;
}

/** Defaults: a tight, five-level, index-anchored maker. */
export const MARKET_MAKER_DEFAULTS: MarketMakerParams = {
  anchor: 'index',
  indexWeight: 0.5,
  midSmoothingSec: 10,
  levels: 5,
  halfSpreadTicks: 1,
  levelSpacingTicks: 2,
  sizeLots: 2,
  sizeGrowth: 1.4,
  sizeJitter: 0.3,
  maxInventoryLots: 50,
  skewTicks: 4,
  maxWiden: 4,
  volShortSec: 30,
  volLongSec: 1800,
  shockSigmas: 10,
  pullSec: 3,
  minRequoteMs: 50,
  closedBackoffSec: 60,
};
