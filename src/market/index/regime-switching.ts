import { checkStep, requireNonNegative, requirePositive, SECONDS_PER_YEAR, type IndexProcess, type IndexRandom } from './index-process.ts';
import { JumpComponent, type JumpParams } from './jump-diffusion.ts';

/** One volatility regime of the Markov chain. */
export interface Regime {
  /** A label for reports and tests, e.g. "calm". */
  name?: string;
  /** Annualized volatility while in this regime. */
  volAnnual: number;
  /** Mean time spent in the regime before switching, seconds (exponential holding time). */
  meanDurationSec: number;
}

/** Parameters of regime-switching volatility. */
export interface RegimeSwitchingParams {
  start: number;
  /** At least one regime; the chain starts in the first. */
  regimes: Regime[];
  driftAnnual?: number;
  /** Optional Merton jumps on top (any regime). */
  jumps?: JumpParams;
}

/**
 * Geometric Brownian motion whose volatility follows a continuous-time Markov chain between
 * regimes (e.g. calm ↔ volatile). Leaving a regime happens with probability
 * 1 − e^(−dt / meanDuration) per step, to one of the other regimes chosen uniformly. Because
 * regimes persist for many steps, large moves cluster: absolute returns are autocorrelated
 * and the mixture of variances fattens the tails (kurtosis > 3) even without jumps.
 */
export class RegimeSwitchingIndex implements IndexProcess {
  private logLevel: number;
  private current = 0;
  private readonly mu: number;
  private readonly regimes: readonly Regime[];
  private readonly jumps: JumpComponent | undefined;

  constructor(
    private readonly rng: IndexRandom,
    params: RegimeSwitchingParams,
  ) {
    this.logLevel = Math.log(requirePositive('start', params.start));
    if (params.regimes.length === 0) throw new RangeError('regimes must not be empty');
    params.regimes.forEach((r, i) => {
      requireNonNegative(`regimes[${i}].volAnnual`, r.volAnnual);
      requirePositive(`regimes[${i}].meanDurationSec`, r.meanDurationSec);
    });
    this.regimes = params.regimes.map((r) => ({ ...r }));
    this.mu = params.driftAnnual ?? 0;
    this.jumps = params.jumps === undefined ? undefined : new JumpComponent(rng, params.jumps);
  }

  get level(): number {
    return Math.exp(this.logLevel);
  }

  /** Index of the current regime in `regimes`. */
  get regimeIndex(): number {
    return this.current;
  }

  /** The current regime. */
  get regime(): Regime {
    return this.regimes[this.current]!;
  }

  next(dtSec: number): number {
    checkStep(dtSec);
    const regime = this.regimes[this.current]!;
    const dt = dtSec / SECONDS_PER_YEAR;
    const sigma = regime.volAnnual;
    this.logLevel += (this.mu - 0.5 * sigma * sigma) * dt + sigma * Math.sqrt(dt) * this.rng.normal();
    if (this.jumps !== undefined) this.logLevel += this.jumps.logChange(dtSec);
    // Switch after the step, so a step's variance belongs to one regime.
    if (this.regimes.length > 1 && this.rng.next() < 1 - Math.exp(-dtSec / regime.meanDurationSec)) {
      const other = Math.floor(this.rng.next() * (this.regimes.length - 1));
      this.current = other >= this.current ? other + 1 : other;
    }
    return Math.exp(this.logLevel);
  }
}
