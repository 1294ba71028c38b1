import type { TimeNs } from '../core/types.ts';
import type { RandomStream } from '../random/random-stream.ts';
import type { NewOrder } from '../wire/order.ts';

/**
 * A one-way delay in integer nanoseconds, sampled per message. The model is told when the
 * message leaves (sim time as Unix seconds + nanoseconds, the clock's own exact form: no
 * bigint per message) and, on the order path, the new order it carries: a recorded latency
 * series is read at that time, a market-activity model measures the market up to it. Models
 * that need neither ignore them.
 */
export interface LatencyModel {
  sampleNs(sec: number, nanos: number, order?: NewOrder): number;
}

/** A time as the latency models take it, from exact ns (for callers holding a bigint). */
export function secNanos(tNs: TimeNs): [sec: number, nanos: number] {
  return [Number(tNs / 1_000_000_000n), Number(tNs % 1_000_000_000n)];
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
