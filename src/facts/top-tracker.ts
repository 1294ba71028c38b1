/**
 * Distances from the mid at which `perpsim facts` measures depth: 1, 2, 5 and 10 ticks, and
 * 1, 2, 5 and 10 basis points of the mid (the depth arrays hold the four in ticks, then the
 * four in bps).
 */
export const DEPTH_DISTANCES = [1, 2, 5, 10] as const;
const DEPTH_MEASURES = 2 * DEPTH_DISTANCES.length;

/**
 * Time-weighted top-of-book state: each observation holds from its time until the next
 * observation (the last one carries no weight: nothing says how long it lasted). `spread`
 * undefined (a side empty) or a depth undefined (no book) accrue no weight for that measure.
 */
export class TopTracker {
  private sinceNs: bigint | undefined;
  private spreadTicks: number | undefined;
  private touchLots: number | undefined;
  private depths: readonly number[] | undefined;
  /** Spread (ticks) → time (ns) spent at it. */
  readonly spreadWeights = new Map<number, number>();
  touchLotsNs = 0;
  touchWeightNs = 0;
  readonly depthLotsNs: number[] = Array.from({ length: DEPTH_MEASURES }, () => 0);
  depthWeightNs = 0;
  observations = 0;

  /** The state from `tNs` on. Times must not go back. */
  observe(tNs: bigint, spreadTicks: number | undefined, touchLots: number | undefined, depths: readonly number[] | undefined): void {
    if (this.sinceNs !== undefined && tNs > this.sinceNs) {
      const dt = Number(tNs - this.sinceNs);
      if (this.spreadTicks !== undefined) this.spreadWeights.set(this.spreadTicks, (this.spreadWeights.get(this.spreadTicks) ?? 0) + dt);
      if (this.touchLots !== undefined) {
        this.touchLotsNs += this.touchLots * dt;
        this.touchWeightNs += dt;
      }
      if (this.depths !== undefined) {
        for (let i = 0; i < this.depths.length; i++) this.depthLotsNs[i]! += this.depths[i]! * dt;
        this.depthWeightNs += dt;
      }
    }
    if (this.sinceNs === undefined || tNs >= this.sinceNs) this.sinceNs = tNs;
    this.spreadTicks = spreadTicks;
    this.touchLots = touchLots;
    this.depths = depths;
    this.observations++;
  }

  /** Total time with a two-sided touch, ns. */
  get spreadWeightNs(): number {
    let total = 0;
    for (const w of this.spreadWeights.values()) total += w;
    return total;
  }
}
