/**
 * Ticker stats of the market data websocket (t = s): last trade price and quantity, session
 * open / high / low and session volume. The session resets daily at 00:00 UTC unless the
 * scenario gives another boundary (decisions.md, "Market data websocket").
 */

/** Seconds in a UTC day (no leap seconds: Unix time). */
export const SECONDS_PER_DAY = 86400;

/** Options of {@link SessionStats}. */
export interface SessionStatsOptions {
  /**
   * Seconds after 00:00 UTC at which each daily session starts, in `[0, 86400)`; default 0
   * (sessions are UTC days). E.g. 79200 puts the boundary at 22:00 UTC.
   */
  sessionStartOffsetSec?: number;
}

/**
 * A snapshot of the ticker stats. Prices are integer ticks, quantities integer lots.
 * `last*` is the most recent trade whatever the session; `open/high/low` are undefined before the
 * session's first trade; `volumeLots` is 0 then.
 */
export interface SessionStatsSnapshot {
  lastTicks: number | undefined;
  lastQtyLots: number | undefined;
  openTicks: number | undefined;
  highTicks: number | undefined;
  lowTicks: number | undefined;
  volumeLots: number;
}

/**
 * Running ticker stats of one symbol over daily sessions.
 *
 * A session is the day `[boundary, boundary + 86400)` where boundaries are
 * `sessionStartOffsetSec + k × 86400` Unix seconds. A trade (or a {@link SessionStats.rollTo})
 * in a later session than the current one starts a new session. Times must not go back across
 * `addTrade` and `rollTo` calls together; equal times are fine.
 */
export class SessionStats {
  private readonly offsetSec: number;
  // NaN stands for "none yet" (numbers only: saving and restoring them for the venue's undo and
  // its trade rows, twice a trade, copies numbers without a check for undefined).
  private sessionIndex = NaN;
  private latestSec = NaN;
  private lastTicks = NaN;
  private lastQtyLots = NaN;
  private openTicks = NaN;
  private highTicks = NaN;
  private lowTicks = NaN;
  private volumeLots = 0;
  /**
   * Set while listeners are told of a past trade: `snapshot()` then shows the stats as of it,
   * saved as `saveTo`'s numbers at `shownAt` (the trade's row: read only if asked, no object made).
   */
  private shown: Float64Array | undefined = undefined;
  private shownAt = 0;

  /** @throws RangeError when `sessionStartOffsetSec` is not an integer in `[0, 86400)`. */
  constructor(options: SessionStatsOptions = {}) {
    const offset = options.sessionStartOffsetSec ?? 0;
    if (!Number.isSafeInteger(offset) || offset < 0 || offset >= SECONDS_PER_DAY) {
      throw new RangeError(`sessionStartOffsetSec ${offset} must be an integer in [0, 86400)`);
    }
    this.offsetSec = offset;
  }

  /**
   * Start of the session containing `sec`, Unix seconds (the latest boundary `<= sec`).
   * Pure; does not change the stats.
   */
  sessionStartSec(sec: number): number {
    return this.indexOf(sec) * SECONDS_PER_DAY + this.offsetSec;
  }

  /** Start of the current session, Unix seconds, or undefined before any trade or roll. */
  get currentSessionStartSec(): number | undefined {
    return Number.isNaN(this.sessionIndex) ? undefined : this.sessionIndex * SECONDS_PER_DAY + this.offsetSec;
  }

  /** Lots a trade at `sec` could still add without the session volume passing `Number.MAX_SAFE_INTEGER`. */
  volumeRoomLots(sec: number): number {
    const newSession = !(this.indexOf(sec) <= this.sessionIndex);
    return Number.MAX_SAFE_INTEGER - (newSession ? 0 : this.volumeLots);
  }

  /** Whether a trade of `qtyLots` at `sec` fits `volumeRoomLots` (a boolean: no boxed double returned). */
  volumeFits(sec: number, qtyLots: number): boolean {
    const newSession = !(this.indexOf(sec) <= this.sessionIndex);
    return qtyLots <= Number.MAX_SAFE_INTEGER - (newSession ? 0 : this.volumeLots);
  }

  /**
   * Adds a trade. If it falls in a later session than the current one, the session first resets
   * and this trade becomes its open.
   *
   * @param sec Trade time, whole Unix seconds.
   * @param priceTicks Trade price, integer ticks.
   * @param qtyLots Positive integer lots.
   * @throws RangeError when `sec` is earlier than a previous `addTrade`/`rollTo` time, an argument
   *   is not a safe integer, `qtyLots <= 0`, or the session volume would pass
   *   `Number.MAX_SAFE_INTEGER`. Nothing changes when it throws.
   */
  addTrade(sec: number, priceTicks: number, qtyLots: number): void {
    this.checkTime('addTrade', sec);
    if (!Number.isSafeInteger(priceTicks)) {
      throw new RangeError(`addTrade: priceTicks ${priceTicks} is not a safe integer`);
    }
    if (!Number.isSafeInteger(qtyLots) || qtyLots <= 0) {
      throw new RangeError(`addTrade: qtyLots ${qtyLots} must be a positive safe integer`);
    }
    const index = this.indexOf(sec);
    // A later session, or none yet (NaN compares false).
    const newSession = !(index <= this.sessionIndex);
    const volume = (newSession ? 0 : this.volumeLots) + qtyLots;
    if (!Number.isSafeInteger(volume)) throw new RangeError('addTrade: session volume would exceed Number.MAX_SAFE_INTEGER');
    if (newSession) this.startSession(index);
    this.latestSec = sec;
    this.lastTicks = priceTicks;
    this.lastQtyLots = qtyLots;
    if (Number.isNaN(this.openTicks)) this.openTicks = priceTicks;
    if (!(priceTicks <= this.highTicks)) this.highTicks = priceTicks;
    if (!(priceTicks >= this.lowTicks)) this.lowTicks = priceTicks;
    this.volumeLots = volume;
  }

  /**
   * Advances the clock to `sec` without a trade. When `sec` is in a later session than the
   * current one, the session resets: open/high/low become undefined and volume 0; the last
   * trade price and quantity stay. Within the current session it only records the time.
   *
   * @param sec Unix seconds (whole).
   * @returns True when a new session started.
   * @throws RangeError when `sec` is not a safe integer or earlier than a previous time.
   */
  rollTo(sec: number): boolean {
    this.checkTime('rollTo', sec);
    this.latestSec = sec;
    const index = this.indexOf(sec);
    if (index <= this.sessionIndex) return false;
    this.startSession(index);
    return true;
  }

  /** The current stats (a fresh object). Before any trade: all undefined except volume 0. */
  snapshot(): SessionStatsSnapshot {
    if (this.shown !== undefined) return snapshotFrom(this.shown, this.shownAt);
    return {
      lastTicks: orUndefined(this.lastTicks),
      lastQtyLots: orUndefined(this.lastQtyLots),
      openTicks: orUndefined(this.openTicks),
      highTicks: orUndefined(this.highTicks),
      lowTicks: orUndefined(this.lowTicks),
      volumeLots: this.volumeLots,
    };
  }

  /**
   * Writes what `snapshot()` would answer at `out[at]` as `SNAPSHOT_NUMBERS` numbers (last,
   * last quantity, open, high, low, volume; undefined as NaN): no object, for a reader that
   * keeps many snapshots (market data's per-trade stats within an instant).
   */
  writeSnapshot(out: Float64Array, at: number): void {
    const s = this.shown;
    if (s !== undefined) {
      // `saveTo`'s numbers: session, latest second, then these six (NaN for none yet).
      const a = this.shownAt;
      for (let k = 0; k < 6; k++) out[at + k] = s[a + 2 + k]!;
      return;
    }
    out[at] = this.lastTicks;
    out[at + 1] = this.lastQtyLots;
    out[at + 2] = this.openTicks;
    out[at + 3] = this.highTicks;
    out[at + 4] = this.lowTicks;
    out[at + 5] = this.volumeLots;
  }

  /**
   * Makes `snapshot()` answer the stats saved at `saved[at]` (`saveTo`'s numbers, as a trade row
   * of the venue keeps them) until called with undefined: the venue tells listeners of a
   * command's trades after the command, each with the stats as of its own trade. Nothing is
   * copied unless a listener asks.
   */
  showAsOf(saved: Float64Array | undefined, at = 0): void {
    this.shown = saved;
    this.shownAt = at;
  }

  /**
   * Writes the state a later `addTrade` or `rollTo` can change as `STATS_SAVED` numbers at
   * `out[at]` (undefined as NaN), for the venue's undo of a failed command (no object per save).
   */
  saveTo(out: Float64Array, at: number): void {
    out[at] = this.sessionIndex;
    out[at + 1] = this.latestSec;
    out[at + 2] = this.lastTicks;
    out[at + 3] = this.lastQtyLots;
    out[at + 4] = this.openTicks;
    out[at + 5] = this.highTicks;
    out[at + 6] = this.lowTicks;
    out[at + 7] = this.volumeLots;
  }

  /** Puts back what `saveTo` wrote at `saved[at]`. */
  restoreFrom(saved: Float64Array, at: number): void {
    this.sessionIndex = saved[at]!;
    this.latestSec = saved[at + 1]!;
    this.lastTicks = saved[at + 2]!;
    this.lastQtyLots = saved[at + 3]!;
    this.openTicks = saved[at + 4]!;
    this.highTicks = saved[at + 5]!;
    this.lowTicks = saved[at + 6]!;
    this.volumeLots = saved[at + 7]!;
  }

  private startSession(index: number): void {
    this.sessionIndex = index;
    this.openTicks = NaN;
    this.highTicks = NaN;
    this.lowTicks = NaN;
    this.volumeLots = 0;
  }

  private indexOf(sec: number): number {
    return Math.floor((sec - this.offsetSec) / SECONDS_PER_DAY);
  }

  private checkTime(what: string, sec: number): void {
    if (!Number.isSafeInteger(sec)) throw new RangeError(`${what}: sec ${sec} is not a safe integer`);
    if (sec < this.latestSec) {
      throw new RangeError(`${what}: time went back from ${this.latestSec} to ${sec}`);
    }
  }
}

/** Numbers `SessionStats.writeSnapshot` writes. */
export const SNAPSHOT_NUMBERS = 6;

/** Numbers `SessionStats.saveTo` writes. */
export const STATS_SAVED = 8;

/** The snapshot the stats saved at `saved[at]` (`saveTo`) would have given (a fresh object). */
export function snapshotFrom(saved: Float64Array, at: number): SessionStatsSnapshot {
  return {
    lastTicks: orUndefined(saved[at + 2]!),
    lastQtyLots: orUndefined(saved[at + 3]!),
    openTicks: orUndefined(saved[at + 4]!),
    highTicks: orUndefined(saved[at + 5]!),
    lowTicks: orUndefined(saved[at + 6]!),
    volumeLots: saved[at + 7]!,
  };
}

function orUndefined(n: number): number | undefined {
  return Number.isNaN(n) ? undefined : n;
}
