import { parseTimestamp } from '../core/time.ts';
import type { RandomStream } from '../random/random-stream.ts';
import { isFloorJitter, type LatencyModelSpec } from '../scenario/latency-schema.ts';
import type { Venue } from '../venue/venue.ts';
import { ActivityLatency, marketActivityOf } from './latency-activity.ts';
import { InterpolatedLatency } from './latency-series.ts';
import { ConstantLatency, LogNormalLatency, type LatencyModel } from './latency.ts';

/** Latency when neither the agent nor the scenario gives one: 1 ms floor + 0.5 ms median jitter. */
export const DEFAULT_LATENCY: LatencyModelSpec = { floorMs: 1, jitterMs: 0.5, sigma: 0.5 };

const msToNs = (ms: number): number => Math.round(ms * 1e6);

/**
 * The latency model a scenario's spec describes: floor + jitter drawing from `rng`, a recorded
 * series (its file read by the scenario loader), or market activity measured on `venue`.
 *
 * @throws Error when a series names a file that was not loaded (use `loadScenario`).
 */
export function latencyModelOf(spec: LatencyModelSpec, rng: RandomStream, venue: Venue): LatencyModel {
  if (isFloorJitter(spec)) {
    const floorNs = msToNs(spec.floorMs);
    if (spec.jitterMs === 0) return new ConstantLatency(floorNs);
    return new LogNormalLatency(rng, floorNs, msToNs(spec.jitterMs), spec.sigma);
  }
  if (spec.kind === 'series') {
    if (spec.points === undefined) throw new Error(`the latency series file ${spec.file} was not loaded (load the scenario with loadScenario)`);
    return new InterpolatedLatency(
      spec.points.map((p) => ({ tNs: /^\d+$/.test(p.ts) ? BigInt(p.ts) : parseTimestamp(p.ts)!, latencyNs: BigInt(p.latencyNs) })),
    );
  }
  return new ActivityLatency(marketActivityOf(venue), {
    baseNs: msToNs(spec.baseMs),
    perMessageNs: msToNs(spec.perMessageMs),
    windowNs: msToNs(spec.windowMs),
    capNs: spec.capMs === undefined ? undefined : msToNs(spec.capMs),
  });
}
