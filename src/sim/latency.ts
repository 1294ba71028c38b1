import type { RandomStream } from '../random/random-stream.ts';

/** A one-way delay, sampled per message, in integer nanoseconds. */
export interface LatencyModel {
  sampleNs(): number;
}

/** The same delay every time. */
export class ConstantLatency implements LatencyModel {
  constructor(readonly ns: number) {
    if (!Number.isSafeInteger(ns) || ns < 0) throw new RangeError(`latency must be a non-negative integer of ns, got ${ns}`);
  }

  sampleNs(): number {
    return this.ns;
  }
}

/**
 * A floor plus a log-normal jitter (median `medianJitterNs`, shape `sigma`): network delays
 * are right-skewed with a hard minimum. Seeded: the stream decides every draw.
 */
export class LogNormalLatency implements LatencyModel {
  constructor(
    private readonly rng: RandomStream,
    readonly floorNs: number,
    readonly medianJitterNs: number,
    readonly sigma = 0.5,
  ) {}

  sampleNs(): number {
    return this.floorNs + Math.round(this.medianJitterNs * Math.exp(this.sigma * this.rng.normal()));
  }
}

/** No delay at all (for tests that need exact instants). */
export const ZERO_LATENCY: LatencyModel = new ConstantLatency(0);
