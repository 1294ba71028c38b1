import type { RandomStream } from '../random/random-stream.ts';
import type { LatencyModelSpec } from '../scenario/schema.ts';
import { ConstantLatency, LogNormalLatency, type LatencyModel } from './latency.ts';

/** Latency when neither the agent nor the scenario gives one: 1 ms floor + 0.5 ms median jitter. */
export const DEFAULT_LATENCY: LatencyModelSpec = { floorMs: 1, jitterMs: 0.5, sigma: 0.5 };

/** The latency model a scenario's spec describes, drawing from `rng`. */
export function latencyModelOf(spec: LatencyModelSpec, rng: RandomStream): LatencyModel {
  const floorNs = Math.round(spec.floorMs * 1e6);
  if (spec.jitterMs === 0) return new ConstantLatency(floorNs);
  return new LogNormalLatency(rng, floorNs, Math.round(spec.jitterMs * 1e6), spec.sigma);
}
