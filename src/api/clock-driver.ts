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
/**
 * Fastest paced speed (sim seconds per wall second). Beyond it a single 5 ms pacing tick would
 * have to run hours of sim time synchronously; 'max' is the way to go faster, in slices.
 */
export const MAX_SPEED = 10_000;
/** Wall milliseconds an advance may run events before it yields to the event loop. */
const ADVANCE_SLICE_MS = 20;
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
  /** The error an event threw while the driver ran the clock (a recording gone bad mid-run); the clock then stays where it stopped. */
  failure: Error | undefined;
  /** Told once when running the clock throws (`perpsim serve` stops serving); without it the error is thrown on. */
  onFailure: ((err: Error) => void) | undefined;
  /** The advance in progress (advances queue behind it); pacing waits while it runs. */
  private advancing: Promise<void> | undefined;

  constructor(
    private readonly clock: SimClock,
    private readonly options: ClockDriverOptions = {},
  ) {
    this.speed = options.speed ?? 1;
    if (!isSpeed(this.speed)) throw new RangeError(`speed must be a positive number up to ${MAX_SPEED} or "max", got ${this.speed}`);
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
    if (this.paused || this.speed === 'max' || this.advancing !== undefined) return;
    const target = this.anchorSimNs + BigInt(Math.floor((this.wallNow() - this.anchorWallMs) * this.speed * NS_PER_MS));
    if (target > this.clock.nowNs) this.runTo(target);
  }

  /** Runs every event of the next `seconds` of sim time at once (in-process callers and tests). */
  advance(seconds: number): void {
    const delta = advanceNs(seconds);
    this.sync();
    this.runTo(this.clock.nowNs + delta);
    this.anchor();
  }

  /**
   * Runs every event of the next `seconds` of sim time in slices of at most
   * {@link ADVANCE_SLICE_MS} wall milliseconds, yielding to the event loop between slices so
   * other clients stay served while a long advance runs. Concurrent advances run one after the
   * other; pacing is held while one runs. Resolves when sim time has reached the target.
   */
  advanceInSlices(seconds: number): Promise<void> {
    const delta = advanceNs(seconds);
    const previous = this.advancing ?? Promise.resolve();
    const run = previous.then(async () => {
      this.sync();
      const targetNs = this.clock.nowNs + delta;
      while (!this.runSlice(targetNs)) await new Promise<void>((resolve) => setImmediate(resolve));
    });
    const tracked = run.finally(() => {
      if (this.advancing === tracked) {
        this.advancing = undefined;
        this.anchor();
      }
    });
    this.advancing = tracked;
    return tracked;
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
    if (!isSpeed(speed)) throw new RangeError(`speed must be a positive number up to ${MAX_SPEED} or "max"`);
    this.sync();
    this.speed = speed;
    this.anchor();
    this.schedule();
  }

  /**
   * Takes over a journaled pace on restart, without running the clock (a restore must not let
   * wall time move sim time before the server serves). Pacing starts from now; a manual clock
   * stays manual.
   */
  restorePace(paused: boolean, speed: Speed): void {
    if (!isSpeed(speed)) throw new RangeError(`journal: bad clock speed ${String(speed)}`);
    this.speed = speed;
    this.paused = this.manual || paused;
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
    if (this.failure !== undefined) return;
    try {
      this.clock.runUntil(targetNs);
    } catch (e) {
      return this.fail(e as Error);
    }
    this.options.afterRun?.();
  }

  /** An event threw: the clock stops for good (its state past that event is not to be trusted), and the owner is told. */
  private fail(err: Error): void {
    this.failure = err;
    this.stop();
    this.paused = true;
    if (this.onFailure === undefined) throw err;
    this.onFailure(err);
  }

  /**
   * Runs events up to `targetNs` for at most one slice of wall time; true when the target was
   * reached (the clock then stands at it).
   */
  private runSlice(targetNs: bigint): boolean {
    if (this.failure !== undefined) return true;
    try {
      return this.runSliceOf(targetNs);
    } catch (e) {
      this.fail(e as Error);
      return true;
    }
  }

  private runSliceOf(targetNs: bigint): boolean {
    const endMs = performance.now() + ADVANCE_SLICE_MS;
    let reached = false;
    for (let n = 0; ; n++) {
      const next = this.clock.nextEventNs();
      if (next === undefined || next > targetNs) {
        reached = true;
        break;
      }
      this.clock.step();
      // Yield only between instants: every event at this time runs first, so a command served
      // during the yield sees the state a `runUntil(now)` would give (what a journal replays).
      if ((n & 255) === 255 && performance.now() >= endMs && this.clock.nextEventNs() !== this.clock.nowNs) break;
    }
    if (reached) this.clock.runUntil(targetNs);
    this.options.afterRun?.();
    return reached;
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
    if (this.advancing !== undefined) {
      this.immediate = setImmediate(() => this.maxSlice());
      return;
    }
    const next = this.clock.nextEventNs();
    const target = (next ?? this.clock.nowNs) + MAX_SLICE_NS;
    this.runTo(target);
    if (this.running) this.immediate = setImmediate(() => this.maxSlice()); // not after a failure stopped the driver
  }
}

/** A paced speed within (0, MAX_SPEED], or 'max'. */
export function isSpeed(speed: unknown): speed is Speed {
  return speed === 'max' || (typeof speed === 'number' && Number.isFinite(speed) && speed > 0 && speed <= MAX_SPEED);
}

/** Seconds to advance as exact nanoseconds; a RangeError for anything not finite and non-negative. */
function advanceNs(seconds: number): bigint {
  if (!(seconds >= 0) || !Number.isFinite(seconds)) throw new RangeError('seconds must be a finite non-negative number');
  return BigInt(Math.round(seconds * 1e9));
}
