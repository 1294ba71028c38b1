/**
 * Latency recording for the wire benchmarks: every request's latency goes into a preallocated
 * array (nanoseconds from `process.hrtime.bigint()`, stored as numbers), and percentiles are
 * read off the sorted samples by nearest rank — exact, like an HDR histogram at full precision.
 */
export class LatencyRecorder {
  private readonly samples: Float64Array;
  private n = 0;

  constructor(capacity: number) {
    this.samples = new Float64Array(capacity);
  }

  /** Records one latency in ns (dropped silently past capacity, which the caller sizes). */
  record(ns: number): void {
    if (this.n < this.samples.length) this.samples[this.n++] = ns;
  }

  get count(): number {
    return this.n;
  }

  /** p50 / p99 / max in microseconds (NaN when nothing was recorded). */
  summary(): LatencySummary {
    const sorted = this.samples.slice(0, this.n).sort();
    const at = (q: number): number => (this.n === 0 ? NaN : sorted[Math.min(this.n - 1, Math.ceil(q * this.n) - 1)]! / 1000);
    return { samples: this.n, p50Us: at(0.5), p99Us: at(0.99), maxUs: this.n === 0 ? NaN : sorted[this.n - 1]! / 1000 };
  }

  reset(): void {
    this.n = 0;
  }
}

export interface LatencySummary {
  samples: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
}

const ORIGIN = process.hrtime.bigint();

/** Monotonic wall time in ns since this module loaded, as a number (exact below 104 days). */
export function nowNs(): number {
  return Number(process.hrtime.bigint() - ORIGIN);
}
