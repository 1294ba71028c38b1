import type { SimClock } from '../clock/sim-clock.ts';
import type { IndexProcess } from '../market/index/index-process.ts';
import type { Market } from '../venue/market.ts';
import type { Venue } from '../venue/venue.ts';

/** How an index actor runs. */
export interface IndexActorOptions {
  /** Time between index updates, ns (integer > 0). */
  intervalNs: number;
  /** How many seconds of the path to compute ahead (for look-ahead views). */
  lookaheadSec: number;
  /** Hold the index while the market is CLOSED (trading hours), instead of stepping. */
  frozenWhenClosed: boolean;
}

/** A scheduled move of the index level (a shock), applied on top of the process. */
interface LevelShift {
  atSec: number;
  /** Log of the full move. */
  logSize: number;
  rampSec: number;
}

/**
 * Steps one market's index process on the clock and publishes each level to the venue
 * (`setIndexPrice`, rounded to the tick) and to listeners. The path is computed
 * `lookaheadSec` ahead, so informed agents can `peek` at what the venue will see; scheduled
 * shifts (index shocks) multiply the process's level from their time on.
 */
export class IndexActor {
  private readonly ahead: number[] = [];
  private readonly aheadSteps: number;
  private readonly stepSec: number;
  private raw: number;
  private publishedTicks: number;
  private readonly shifts: LevelShift[] = [];
  private readonly listeners: ((symbol: string, price: number) => void)[] = [];

  constructor(
    private readonly clock: SimClock,
    private readonly venue: Venue,
    readonly market: Market,
    private readonly process: IndexProcess,
    private readonly options: IndexActorOptions,
  ) {
    if (!Number.isSafeInteger(options.intervalNs) || options.intervalNs <= 0) throw new RangeError(`index interval must be a positive integer of ns, got ${options.intervalNs}`);
    this.stepSec = options.intervalNs / 1e9;
    this.aheadSteps = Math.ceil(options.lookaheadSec / this.stepSec);
    this.raw = process.level;
    this.publishedTicks = market.indexTicks;
  }

  get symbol(): string {
    return this.market.symbol;
  }

  /** The published index level, price units (exactly the venue's index). */
  get level(): number {
    return this.publishedTicks / this.market.instrument.tick.priceScale;
  }

  /** Schedules the first step one interval from now. */
  start(): void {
    this.clock.scheduleIn(this.options.intervalNs, () => this.step());
  }

  /** Moves the level by `pct` percent at `atSec` (Unix seconds), linearly over `rampSec`. */
  addShift(atSec: number, pct: number, rampSec = 0): void {
    this.shifts.push({ atSec, logSize: Math.log(1 + pct / 100), rampSec });
  }

  /** Calls `fn(symbol, level)` after each published level; returns a remover. */
  onUpdate(fn: (symbol: string, price: number) => void): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /**
   * The level `aheadSec` from now as it will be published (rounded to whole steps, clamped to
   * the look-ahead horizon), price units.
   */
  peek(aheadSec: number): number {
    const k = Math.max(0, Math.min(this.aheadSteps, Math.round(aheadSec / this.stepSec)));
    this.fillAhead();
    const raw = k === 0 ? this.raw : this.ahead[k - 1]!;
    const nowSec = this.clock.nowSec + this.clock.nowNanos / 1e9;
    return this.roundToTick(raw * Math.exp(this.shiftLog(nowSec + k * this.stepSec)));
  }

  private step(): void {
    this.clock.scheduleIn(this.options.intervalNs, () => this.step());
    if (this.options.frozenWhenClosed && this.market.state === 'CLOSED') return;
    this.fillAhead();
    this.raw = this.aheadSteps > 0 ? this.ahead.shift()! : this.process.next(this.stepSec);
    this.fillAhead();
    const nowSec = this.clock.nowSec + this.clock.nowNanos / 1e9;
    const ticks = Math.max(1, Math.round(this.raw * Math.exp(this.shiftLog(nowSec)) * this.market.instrument.tick.priceScale));
    this.publishedTicks = ticks;
    this.venue.setIndexPrice(this.market, ticks);
    const level = this.level;
    for (const fn of this.listeners) fn(this.market.symbol, level);
  }

  private fillAhead(): void {
    while (this.ahead.length < this.aheadSteps) this.ahead.push(this.process.next(this.stepSec));
  }

  private shiftLog(tSec: number): number {
    let total = 0;
    for (const s of this.shifts) {
      if (tSec < s.atSec) continue;
      total += s.rampSec > 0 ? s.logSize * Math.min(1, (tSec - s.atSec) / s.rampSec) : s.logSize;
    }
    return total;
  }

  private roundToTick(price: number): number {
    const scale = this.market.instrument.tick.priceScale;
    return Math.max(1, Math.round(price * scale)) / scale;
  }
}
