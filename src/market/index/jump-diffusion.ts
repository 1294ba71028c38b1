import { checkStep, poisson, requireNonNegative, requirePositive, type IndexProcess, type IndexRandom } from './index-process.ts';
import { gbmLogStep } from './gbm.ts';

/** Poisson jumps with normally distributed log size (Merton). */
export interface JumpParams {
  /** Expected number of jumps per day of simulated time (≥ 0). */
  perDay: number;
  /** Mean log size of a jump, e.g. −0.005 (a drop of about 0.5 % on average); default 0. */
  logMean?: number;
  /** Standard deviation of the log size, e.g. 0.01 (≥ 0). */
  logStd: number;
}

/**
 * Adds Merton jumps to a log level over one step: draws the number of jumps in `dtSec` and
 * returns the sum of their normal log sizes (0 most steps). The drift compensator
 * −λ·(E[e^J] − 1)·dt keeps the level's expected growth equal to the diffusion's drift.
 */
export class JumpComponent {
  private readonly perSec: number;
  private readonly logMean: number;
  private readonly logStd: number;
  private readonly compensatorPerSec: number;

  constructor(
    private readonly rng: IndexRandom,
    params: JumpParams,
  ) {
    this.perSec = requireNonNegative('jumps.perDay', params.perDay) / 86_400;
    this.logMean = params.logMean ?? 0;
    this.logStd = requireNonNegative('jumps.logStd', params.logStd);
    this.compensatorPerSec = this.perSec * (Math.exp(this.logMean + 0.5 * this.logStd * this.logStd) - 1);
  }

  /** Log change from jumps (compensated) over `dtSec`. */
  logChange(dtSec: number): number {
    let total = -this.compensatorPerSec * dtSec;
    const n = poisson(this.rng, this.perSec * dtSec);
    for (let i = 0; i < n; i++) total += this.rng.normal(this.logMean, this.logStd);
    return total;
  }
}

/** Parameters of Merton's jump diffusion. */
export interface JumpDiffusionParams {
  start: number;
  /** Annualized volatility of the diffusion part. */
  volAnnual: number;
  driftAnnual?: number;
  jumps: JumpParams;
}

/**
 * Merton jump diffusion: geometric Brownian motion plus compound-Poisson jumps with normal log
 * sizes. Gives heavy-tailed returns at every horizon that contains jumps.
 */
export class JumpDiffusionIndex implements IndexProcess {
  private logLevel: number;
  private readonly sigma: number;
  private readonly mu: number;
  private readonly jumps: JumpComponent;

  constructor(
    private readonly rng: IndexRandom,
    params: JumpDiffusionParams,
  ) {
    this.logLevel = Math.log(requirePositive('start', params.start));
    this.sigma = requireNonNegative('volAnnual', params.volAnnual);
    this.mu = params.driftAnnual ?? 0;
    this.jumps = new JumpComponent(rng, params.jumps);
  }

  get level(): number {
    return Math.exp(this.logLevel);
  }

  next(dtSec: number): number {
    checkStep(dtSec);
    const diffusion = gbmLogStep(this.mu, this.sigma, dtSec, this.rng.normal());
    this.logLevel += diffusion + this.jumps.logChange(dtSec);
    return Math.exp(this.logLevel);
  }
}
