import type { LatencyModel } from '../../src/sim/latency.ts';

/** Latency samples taken in turn from a fixed list, round and round: the same draws in every twin of a test. */
export class ListLatency implements LatencyModel {
  private i = 0;
  constructor(private readonly ns: readonly number[]) {}
  sampleNs(): number {
    return this.ns[this.i++ % this.ns.length]!;
  }
}
