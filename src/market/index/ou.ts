import { checkStep, requireNonNegative, requirePositive, SECONDS_PER_YEAR, type IndexProcess, type IndexRandom } from './index-process.ts';

/** Parameters of a mean-reverting log price. */
export interface OuParams {
  start: number;
  /** Level the log price reverts to (price units); default `start`. */
  mean?: number;
  /** Time for a deviation of the log price to halve, seconds (> 0). */
  halfLifeSec: number;
  /** Annualized volatility of the log price's innovations. */
  volAnnual: number;
}

/**
 * Ornstein–Uhlenbeck on the log price, stepped exactly:
 * x(t+dt) = m + (x(t) − m)·e^(−κ·dt) + σ·√((1 − e^(−2κ·dt)) / (2κ))·Z with κ = ln 2 / halfLife.
 * Deviations from the mean decay; the stationary standard deviation of x is σ / √(2κ).
 */
export class OuLogIndex implements IndexProcess {
  private x: number;
  private readonly m: number;
  private readonly kappaPerYear: number;
  private readonly sigma: number;

  constructor(
    private readonly rng: IndexRandom,
    params: OuParams,
  ) {
    this.x = Math.log(requirePositive('start', params.start));
    this.m = Math.log(requirePositive('mean', params.mean ?? params.start));
    this.kappaPerYear = (Math.LN2 / requirePositive('halfLifeSec', params.halfLifeSec)) * SECONDS_PER_YEAR;
    this.sigma = requireNonNegative('volAnnual', params.volAnnual);
  }

  get level(): number {
    return Math.exp(this.x);
  }

  /** The level the process reverts to, price units. */
  get meanLevel(): number {
    return Math.exp(this.m);
  }

  next(dtSec: number): number {
    checkStep(dtSec);
    const dt = dtSec / SECONDS_PER_YEAR;
    const decay = Math.exp(-this.kappaPerYear * dt);
    const sd = this.sigma * Math.sqrt((1 - decay * decay) / (2 * this.kappaPerYear));
    this.x = this.m + (this.x - this.m) * decay + sd * this.rng.normal();
    return Math.exp(this.x);
  }
}
