import type { Venue } from '../venue/venue.ts';
import type { LatencyModel } from './latency.ts';

/**
 * How busy the market is: the times of its recent market messages (every book change and
 * every trade the venue announces, on any instrument — a replay's recorded updates included),
 * so a model can count those in a trailing window. Times are kept as ns after the first
 * message's second (a double: exact for 104 days) in a growing ring, pruned as the window moves on: memory follows the busiest window,
 * not the run.
 */
export class MarketActivity {
  private ring = new Float64Array(1024);
  private head = 0;
  private size = 0;
  /** Unix second of the first message: times are kept as ns after its start. */
  private originSec: number | undefined;
  private keptNs = 0;
  /** Messages seen in all (for tests and reports). */
  total = 0;

  /** A market message at sim time (sec, nanos) (times never go back: the clock does not). */
  note(sec: number, nanos: number): void {
    this.originSec ??= sec;
    if (this.size === this.ring.length) this.grow();
    this.ring[(this.head + this.size) % this.ring.length] = (sec - this.originSec) * 1e9 + nanos;
    this.size++;
    this.total++;
  }

  /** Keep at least `windowNs` of history (each model asks for its window when it is built). */
  keep(windowNs: number): void {
    if (windowNs > this.keptNs) this.keptNs = windowNs;
  }

  /** Messages in the window (now − windowNs, now]; forgets those older than every window kept. */
  countWithin(sec: number, nanos: number, windowNs: number): number {
    if (this.originSec === undefined) return 0;
    const nowRel = (sec - this.originSec) * 1e9 + nanos;
    const oldest = nowRel - Math.max(windowNs, this.keptNs);
    while (this.size > 0 && this.ring[this.head]! <= oldest) {
      this.head = (this.head + 1) % this.ring.length;
      this.size--;
    }
    // The first kept message inside the window, by binary search over the ring (times ascend).
    const cutoff = nowRel - windowNs;
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ring[(this.head + mid) % this.ring.length]! <= cutoff) lo = mid + 1;
      else hi = mid;
    }
    return this.size - lo;
  }

  private grow(): void {
    const next = new Float64Array(this.ring.length * 2);
    for (let i = 0; i < this.size; i++) next[i] = this.ring[(this.head + i) % this.ring.length]!;
    this.ring = next;
    this.head = 0;
  }
}

const meters = new WeakMap<Venue, MarketActivity>();

/** The venue's activity meter, attached on first use (one per venue, shared by every model). */
export function marketActivityOf(venue: Venue): MarketActivity {
  let meter = meters.get(venue);
  if (meter === undefined) {
    const m = new MarketActivity();
    const note = () => m.note(venue.clock.nowSec, venue.clock.nowNanos);
    venue.subscribe({ bookChanged: note, trade: note });
    meters.set(venue, (meter = m));
  }
  return meter;
}

/** Parameters of {@link ActivityLatency}, integer ns. */
export interface ActivityLatencyParams {
  baseNs: number;
  /** Added per market message in the trailing window. */
  perMessageNs: number;
  windowNs: number;
  /** The most it can be (undefined: no cap). */
  capNs: number | undefined;
}

/**
 * Latency that grows with market activity, since it spikes exactly when markets move
 * (hftbacktest #256): `base + perMessage × (messages in the trailing window)`, capped. With a
 * window W the message rate is count / W, so this is base + (perMessage × W) × rate.
 * Messages at the sending instant count (they happened before the message left).
 */
export class ActivityLatency implements LatencyModel {
  constructor(
    private readonly activity: MarketActivity,
    readonly params: ActivityLatencyParams,
  ) {
    for (const [k, v] of Object.entries(params)) {
      if (v !== undefined && (!Number.isSafeInteger(v) || v < 0)) throw new RangeError(`activity latency ${k} must be a non-negative integer of ns, got ${v}`);
    }
    if (params.windowNs <= 0) throw new RangeError('activity latency window must be positive');
    activity.keep(params.windowNs);
  }

  sampleNs(sec: number, nanos: number): number {
    const { baseNs, perMessageNs, windowNs, capNs } = this.params;
    const ns = baseNs + perMessageNs * this.activity.countWithin(sec, nanos, windowNs);
    return capNs !== undefined && ns > capNs ? capNs : ns;
  }
}
