import { checkStep, requireNonNegative, requirePositive, SECONDS_PER_YEAR, type IndexProcess, type IndexRandom } from './index-process.ts';

/** Parameters of geometric Brownian motion. */
export interface GbmParams {
  /** Starting level, price units (> 0). */
  start: number;
  /** Annualized volatility of log returns, e.g. 0.5 for 50 % (≥ 0). */
  volAnnual: number;
  /** Annualized expected return (drift of the level), e.g. 0.05; default 0. */
  driftAnnual?: number;
}

/**
 * Geometric Brownian motion, stepped exactly: ln S(t+dt) = ln S(t) + (μ − σ²/2)·dt + σ·√dt·Z,
 * with time in years. Log returns over a step are normal with variance σ²·dt.
 */
export class GbmIndex implements IndexProcess {
  private logLevel: number;
  private readonly sigma: number;
  private readonly mu: number;

  constructor(
    private readonly rng: IndexRandom,
    params: GbmParams,
  ) {
    this.logLevel = Math.log(requirePositive('start', params.start));
    this.sigma = requireNonNegative('volAnnual', params.volAnnual);
    this.mu = params.driftAnnual ?? 0;
  }

  get level(): number {
    return Math.exp(this.logLevel);
  }

  next(dtSec: number): number {
    checkStep(dtSec);
    this.logLevel += gbmLogStep(this.mu, this.sigma, dtSec, this.rng.normal());
    return Math.exp(this.logLevel);
  }
}

/** The log change of a GBM over `dtSec` seconds, given a standard normal draw `z`. */
export function gbmLogStep(mu: number, sigma: number, dtSec: number, z: number): number {
  const dt = dtSec / SECONDS_PER_YEAR;
  return (mu - 0.5 * sigma * sigma) * dt + sigma * Math.sqrt(dt) * z;
}
