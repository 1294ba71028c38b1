import type { TimeNs } from '../core/types.ts';
import type { LatencyModel } from './latency.ts';

/** One recorded observation: at `tNs` a message took `latencyNs`. */
export interface LatencyPoint {
  tNs: TimeNs;
  latencyNs: bigint;
}

/**
 * Latency read off a recorded series (round trips measured live, hftbacktest's
 * IntpOrderLatency): between two observations it is interpolated linearly in time, before the
 * first and after the last it holds their value. Exact: the interpolation is done in bigint
 * ns and rounded half up to a whole ns, the only rounding. Deterministic by construction.
 */
export class InterpolatedLatency implements LatencyModel {
  private readonly times: TimeNs[];
  private readonly values: bigint[];
  /** Index of the segment found last: messages come in time order, so searches start there. */
  private hint = 0;

  constructor(points: readonly LatencyPoint[]) {
    if (points.length === 0) throw new RangeError('a latency series needs at least one point');
    const sorted = [...points].sort((a, b) => (a.tNs < b.tNs ? -1 : a.tNs > b.tNs ? 1 : 0));
    for (const [i, p] of sorted.entries()) {
      if (p.latencyNs < 0n || p.latencyNs > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`latency series point ${i}: latency must be 0 … 2^53-1 ns, got ${p.latencyNs}`);
      if (i > 0 && p.tNs === sorted[i - 1]!.tNs) throw new RangeError(`latency series: two points at the same time ${p.tNs} ns`);
    }
    this.times = sorted.map((p) => p.tNs);
    this.values = sorted.map((p) => p.latencyNs);
  }

  sampleNs(sec: number, nanos: number): number {
    const atNs = BigInt(sec) * 1_000_000_000n + BigInt(nanos);
    const t = this.times;
    const last = t.length - 1;
    if (atNs <= t[0]!) return Number(this.values[0]!);
    if (atNs >= t[last]!) return Number(this.values[last]!);
    // Find i with t[i] <= atNs < t[i + 1], moving from the last segment found.
    let i = this.hint;
    if (t[i]! > atNs) i = 0;
    while (t[i + 1]! <= atNs) i++;
    this.hint = i;
    const t0 = t[i]!;
    const span = t[i + 1]! - t0;
    const v0 = this.values[i]!;
    const rise = (this.values[i + 1]! - v0) * (atNs - t0);
    // rise / span rounded half up (toward +∞ at exactly one half), for either sign of rise.
    const q = floorDiv(2n * rise + span, 2n * span);
    return Number(v0 + q);
  }
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}
