import type { SimClock } from '../clock/sim-clock.ts';

export type Speed = number | 'max';

export interface ClockDriverOptions {
  /** Sim seconds per wall second, or 'max' (as fast as the machine goes). Default 1. */
  speed?: Speed;
  /** Time moves only through `advance` (admin API). */
  manual?: boolean;
  /** Wall-clock milliseconds (injectable for tests). */
  wallNow?: () => number;
  /** Called after every batch of events the driver runs (market-data flush, for instance). */
  afterRun?: () => void;
}

const NS_PER_MS = 1_000_000;
/** How far a max-speed slice may advance sim time before yielding to I/O. */
const MAX_SLICE_NS = 1_000_000_000n;
const PACE_INTERVAL_MS = 5;

/**
 * Drives the sim clock from wall time: real time (speed 1), accelerated (speed N), as fast as
 * possible ('max', in slices that yield to the event loop so sockets stay served), or manual.
 * This is the only place wall time meets sim time, which is why it lives at the edge.
 */
export class ClockDriver {
  private speed: Speed;
  private paused: boolean;
  private readonly manual: boolean;
  private readonly wallNow: () => number;
  private anchorWallMs = 0;
  private anchorSimNs = 0n;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private running = false;

  constructor(
    private readonly clock: SimClock,
    private readonly options: ClockDriverOptions = {},
  ) {
    this.speed = options.speed ?? 1;
    if (this.speed !== 'max' && !(this.speed > 0)) throw new RangeError(`speed must be a positive number or "max", got ${this.speed}`);
    this.manual = options.manual ?? false;
    this.paused = this.manual;
    this.wallNow = options.wallNow ?? Date.now;
    // Pace from construction, so a sync() or advance() before start() never sees anchor 0.
    this.anchor();
  }

  /** Starts pacing (no-op in manual mode). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.anchor();
    this.schedule();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }

  /** Brings sim time up to the paced target (call before answering a request). */
  sync(): void {
    if (this.paused || this.speed === 'max') return;
    const target = this.anchorSimNs + BigInt(Math.floor((this.wallNow() - this.anchorWallMs) * this.speed * NS_PER_MS));
    if (target > this.clock.nowNs) this.runTo(target);
  }

  /** Runs every event of the next `seconds` of sim time at once; returns the new status. */
  advance(seconds: number): void {
    if (!(seconds >= 0) || !Number.isFinite(seconds)) throw new RangeError('seconds must be a non-negative number');
    this.sync();
    this.runTo(this.clock.nowNs + BigInt(Math.round(seconds * 1e9)));
    this.anchor();
  }

  pause(): void {
    this.sync();
    this.paused = true;
  }

  resume(): void {
    if (this.manual) throw new RangeError('the clock is manual: use advance');
    this.paused = false;
    this.anchor();
    this.schedule();
  }

  setSpeed(speed: Speed): void {
    if (speed !== 'max' && !(typeof speed === 'number' && speed > 0 && Number.isFinite(speed))) {
      throw new RangeError('speed must be a positive number or "max"');
    }
    this.sync();
    this.speed = speed;
    this.anchor();
    this.schedule();
  }

  status(): { now_ns: string; speed: Speed; paused: boolean } {
    this.sync();
    return { now_ns: String(this.clock.nowNs), speed: this.speed, paused: this.paused };
  }

  private anchor(): void {
    this.anchorWallMs = this.wallNow();
    this.anchorSimNs = this.clock.nowNs;
  }

  private runTo(targetNs: bigint): void {
    this.clock.runUntil(targetNs);
    this.options.afterRun?.();
  }

  private schedule(): void {
    if (!this.running) return;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.paused) return;
    if (this.speed === 'max') {
      if (this.immediate === undefined) this.immediate = setImmediate(() => this.maxSlice());
    } else {
      this.timer = setInterval(() => this.sync(), PACE_INTERVAL_MS);
      this.timer.unref?.();
    }
  }

  /** One slice at max speed: up to the next event plus a second, then yield. */
  private maxSlice(): void {
    this.immediate = undefined;
    if (!this.running || this.paused || this.speed !== 'max') return;
    const next = this.clock.nextEventNs();
    const target = (next ?? this.clock.nowNs) + MAX_SLICE_NS;
    this.runTo(target);
    this.immediate = setImmediate(() => this.maxSlice());
  }
}
