/**
 * Index-price processes: seeded stochastic models of the underlying's price that an index
 * actor steps on the sim clock. Levels are positive floats; whoever publishes them to the
 * venue rounds to the tick.
 */

/** A stochastic index level, advanced in steps. */
export interface IndexProcess {
  /**
   * Advances the process by `dtSec` seconds of simulated time (> 0) and returns the new index
   * level, a positive finite float in price units (not ticks).
   */
  next(dtSec: number): number;
  /** The current level, without advancing. */
  readonly level: number;
}

/**
 * The random draws a process needs. `RandomStream` (src/random) satisfies it; declared here so
 * that src/market depends on nothing but itself.
 */
export interface IndexRandom {
  /** Uniform in [0, 1). */
  next(): number;
  /** Normal with mean `mu` (default 0) and standard deviation `sigma` (default 1). */
  normal(mu?: number, sigma?: number): number;
}

/**
 * Seconds in the year that annualized parameters refer to: 365.25 days of 24 h, since
 * perpetuals trade around the clock. An instrument whose index only steps during trading hours
 * accrues variance only while it steps, so give it a correspondingly higher `volAnnual`.
 */
export const SECONDS_PER_YEAR = 365.25 * 86_400;

/** Throws a RangeError naming `field` unless `value` is finite and > 0. */
export function requirePositive(field: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${field} must be a positive number, got ${value}`);
  return value;
}

/** Throws a RangeError naming `field` unless `value` is finite and ≥ 0. */
export function requireNonNegative(field: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${field} must be a non-negative number, got ${value}`);
  return value;
}

/** Throws unless `dtSec` is a positive finite step. */
export function checkStep(dtSec: number): void {
  if (!Number.isFinite(dtSec) || dtSec <= 0) throw new RangeError(`dtSec must be a positive number of seconds, got ${dtSec}`);
}

/** A constant index (the `empty` scenario): every step returns the starting level. */
export class FlatIndex implements IndexProcess {
  constructor(readonly level: number) {
    requirePositive('level', level);
  }

  next(dtSec: number): number {
    checkStep(dtSec);
    return this.level;
  }
}

/**
 * Poisson-distributed count with mean `mean` (small: inversion by sequential search), from
 * one uniform per unit of count. Used for jump arrivals within a step.
 */
export function poisson(rng: IndexRandom, mean: number): number {
  if (mean <= 0) return 0;
  const u = rng.next();
  let k = 0;
  let p = Math.exp(-mean);
  let cumulative = p;
  while (u >= cumulative && k < 1000) {
    k++;
    p *= mean / k;
    cumulative += p;
  }
  return k;
}
