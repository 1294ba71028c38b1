import type { Side } from '../core/types.ts';

/**
 * Candle intervals of the candle endpoint (decisions.md), in seconds. Every interval divides
 * 86 400, so buckets aligned to the Unix epoch nest inside UTC days.
 */
export const CANDLE_INTERVALS = {
  '1s': 1,
  '5s': 5,
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '1h': 3600,
  '1d': 86400,
} as const;

/** The name of a candle interval as the REST body spells it (`"1s"` … `"1d"`). */
export type CandleInterval = keyof typeof CANDLE_INTERVALS;

const INTERVAL_NAMES = Object.keys(CANDLE_INTERVALS) as CandleInterval[];

/**
 * True when `text` is exactly one of the interval names of {@link CANDLE_INTERVALS}
 * (case-sensitive; `"1M"` and `" 1m"` are not intervals). Inherited property names such as
 * `"toString"` are rejected.
 */
export function isCandleInterval(text: string): text is CandleInterval {
  return Object.prototype.hasOwnProperty.call(CANDLE_INTERVALS, text);
}

/**
 * Start of the epoch-aligned bucket of `interval` containing `sec`:
 * `floor(sec / interval) * interval`, in Unix seconds. `1d` buckets start at 00:00 UTC.
 * Works for negative `sec` (before 1970) too.
 */
export function candleStartSec(sec: number, interval: CandleInterval): number {
  return startOf(sec, CANDLE_INTERVALS[interval]);
}

/** Numbers `CandleSeries.saveTo` writes. */
export const CANDLES_SAVED = 1 + INTERVAL_NAMES.length * 6;
/** Numbers one interval's `saveTo` writes. */
const COLUMN_SAVED = 6;

/** `candleStartSec` for a width in seconds. */
function startOf(sec: number, width: number): number {
  return Math.floor(sec / width) * width;
}

/**
 * One aggregated candle. Prices are integer ticks, volumes integer lots (contracts).
 * `buyVolumeLots` counts trades whose aggressor (taker) side was `'B'`, `sellVolumeLots` those
 * with `'S'`; they always add up to `volumeLots`.
 */
export interface Candle {
  /** Bucket start, Unix seconds, a multiple of the interval. */
  startSec: number;
  /** Price of the bucket's first trade. */
  openTicks: number;
  highTicks: number;
  lowTicks: number;
  /** Price of the bucket's last trade. */
  closeTicks: number;
  volumeLots: number;
  buyVolumeLots: number;
  sellVolumeLots: number;
}


/**
 * The candles of one interval as parallel append-only arrays (struct of arrays): no object per
 * candle, and `starts` is strictly ascending so ranges are found by binary search.
 * Sell volume is not stored; it is `volume - buyVolume`. 7 numbers per non-empty bucket.
 */
class IntervalColumns {
  readonly starts: number[] = [];
  readonly opens: number[] = [];
  readonly highs: number[] = [];
  readonly lows: number[] = [];
  readonly closes: number[] = [];
  readonly volumes: number[] = [];
  readonly buyVolumes: number[] = [];

  constructor(readonly width: number) {}

  get length(): number {
    return this.starts.length;
  }

  /** Volume of the bucket `start` would land in after adding `qty`, for overflow checks. */
  volumeAfter(start: number, qty: number): number {
    const n = this.starts.length;
    return n > 0 && this.starts[n - 1] === start ? this.volumes[n - 1]! + qty : qty;
  }

  add(start: number, price: number, qty: number, isBuy: boolean): void {
    const n = this.starts.length;
    if (n > 0 && this.starts[n - 1] === start) {
      const i = n - 1;
      if (price > this.highs[i]!) this.highs[i] = price;
      if (price < this.lows[i]!) this.lows[i] = price;
      this.closes[i] = price;
      this.volumes[i] = this.volumes[i]! + qty;
      if (isBuy) this.buyVolumes[i] = this.buyVolumes[i]! + qty;
      return;
    }
    this.starts.push(start);
    this.opens.push(price);
    this.highs.push(price);
    this.lows.push(price);
    this.closes.push(price);
    this.volumes.push(qty);
    this.buyVolumes.push(isBuy ? qty : 0);
  }

  /** The last bucket and the length, as `COLUMN_SAVED` numbers at `out[at]` (`CandleSeries.saveTo`). */
  saveTo(out: Float64Array, at: number): void {
    const n = this.starts.length;
    out[at] = n;
    if (n === 0) return;
    const i = n - 1;
    out[at + 1] = this.highs[i]!;
    out[at + 2] = this.lows[i]!;
    out[at + 3] = this.closes[i]!;
    out[at + 4] = this.volumes[i]!;
    out[at + 5] = this.buyVolumes[i]!;
  }

  /** Undoes every `add` since `saveTo` wrote `saved[at]`. */
  restoreFrom(saved: Float64Array, at: number): void {
    const n = saved[at]!;
    for (const col of [this.starts, this.opens, this.highs, this.lows, this.closes, this.volumes, this.buyVolumes]) col.length = n;
    if (n === 0) return;
    const i = n - 1;
    this.highs[i] = saved[at + 1]!;
    this.lows[i] = saved[at + 2]!;
    this.closes[i] = saved[at + 3]!;
    this.volumes[i] = saved[at + 4]!;
    this.buyVolumes[i] = saved[at + 5]!;
  }

  candleAt(i: number): Candle {
    const volumeLots = this.volumes[i]!;
    const buyVolumeLots = this.buyVolumes[i]!;
    return {
      startSec: this.starts[i]!,
      openTicks: this.opens[i]!,
      highTicks: this.highs[i]!,
      lowTicks: this.lows[i]!,
      closeTicks: this.closes[i]!,
      volumeLots,
      buyVolumeLots,
      sellVolumeLots: volumeLots - buyVolumeLots,
    };
  }

  /** First index whose bucket start is greater than `bound` (`length` when none). */
  firstStartAbove(bound: number): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid]! > bound) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** First index whose bucket end (`start + width`) is after `sec` (`length` when none). */
  firstEndAfter(sec: number): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid]! + this.width > sec) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/**
 * The candles of one symbol, for every interval of {@link CANDLE_INTERVALS} at once.
 *
 * Trades must arrive in non-decreasing time. Each trade updates the current bucket of every
 * interval in O(1) (7 intervals); storage is append-only parallel number arrays per interval,
 * 7 numbers (about 56 bytes) per non-empty bucket, so a long run with a trade every second costs
 * roughly 56 bytes per second for the 1s candles and far less for the coarser intervals. Buckets without
 * trades take no space and never appear in query results (decisions.md: an interval with no
 * trades is omitted). Queries binary-search the bucket starts: O(log n + k).
 */
export class CandleSeries {
  /**
   * One column per interval, in `INTERVAL_NAMES` order (an array, not a `Map`: every trade
   * walks all of them, and a `Map`'s entry iterator allocated per step).
   */
  private readonly columns: IntervalColumns[] = INTERVAL_NAMES.map((name) => new IntervalColumns(CANDLE_INTERVALS[name]));
  /** The `1d` column: its current bucket holds every trade of the other intervals' current buckets. */
  private readonly day = this.columns[INTERVAL_NAMES.indexOf('1d')]!;
  private lastTradeSec: number | undefined;

  /** Time of the latest trade added, Unix seconds, or undefined before the first. */
  get lastTradeTimeSec(): number | undefined {
    return this.lastTradeSec;
  }

  /**
   * Lots a trade at `sec` could still add without any candle volume passing
   * `Number.MAX_SAFE_INTEGER` (order entry checks this before anything changes).
   *
   * Only the `1d` bucket is read: every interval divides the next one up (1 s, 5 s, 1 m, 5 m,
   * 15 m, 1 h, 1 d), so the bucket of `sec` in any interval lies inside its `1d` bucket, and
   * trades only ever land in the latest buckets: no bucket's volume exceeds the day's.
   */
  volumeRoomLots(sec: number): number {
    return Number.MAX_SAFE_INTEGER - this.day.volumeAfter(startOf(sec, this.day.width), 0);
  }

  /** Whether a trade of `qtyLots` at `sec` fits `volumeRoomLots` (a boolean: the room is a double past the small integers, boxed when returned). */
  volumeFits(sec: number, qtyLots: number): boolean {
    return qtyLots <= Number.MAX_SAFE_INTEGER - this.day.volumeAfter(startOf(sec, this.day.width), 0);
  }

  /**
   * Adds one trade to the candles of every interval.
   *
   * @param sec Trade time, whole Unix seconds (the `ts` part; nanoseconds do not affect buckets).
   * @param priceTicks Trade price, integer ticks.
   * @param qtyLots Traded quantity, positive integer lots.
   * @param aggressorSide Side of the taker: `'B'` counts toward buy volume, `'S'` toward sell.
   * @throws RangeError when `sec` is earlier than the previous trade's, when an argument is not
   *   a safe integer (or `qtyLots <= 0`, or the side is not `'B'`/`'S'`), or when a bucket's
   *   volume would exceed `Number.MAX_SAFE_INTEGER`. Nothing is changed when it throws.
   */
  addTrade(sec: number, priceTicks: number, qtyLots: number, aggressorSide: Side): void {
    if (!Number.isSafeInteger(sec)) throw new RangeError(`addTrade: sec ${sec} is not a safe integer`);
    if (!Number.isSafeInteger(priceTicks)) {
      throw new RangeError(`addTrade: priceTicks ${priceTicks} is not a safe integer`);
    }
    if (!Number.isSafeInteger(qtyLots) || qtyLots <= 0) {
      throw new RangeError(`addTrade: qtyLots ${qtyLots} must be a positive safe integer`);
    }
    if (aggressorSide !== 'B' && aggressorSide !== 'S') {
      throw new RangeError(`addTrade: aggressor side ${String(aggressorSide)} is not 'B' or 'S'`);
    }
    if (this.lastTradeSec !== undefined && sec < this.lastTradeSec) {
      throw new RangeError(`addTrade: time went back from ${this.lastTradeSec} to ${sec}`);
    }
    // The day's bucket is the fullest (see `volumeRoomLots`): if it fits, every bucket does.
    if (!this.volumeFits(sec, qtyLots)) throw new RangeError('addTrade: 1d candle volume would exceed Number.MAX_SAFE_INTEGER');
    const isBuy = aggressorSide === 'B';
    const columns = this.columns;
    for (let i = 0; i < columns.length; i++) {
      const col = columns[i]!;
      col.add(startOf(sec, col.width), priceTicks, qtyLots, isBuy);
    }
    this.lastTradeSec = sec;
  }

  /**
   * Writes everything a later `addTrade` can change (each interval's last bucket and count, the
   * last trade time) as `CANDLES_SAVED` numbers at `out[at]`, for the venue's undo of a failed
   * command (no object per save).
   */
  saveTo(out: Float64Array, at: number): void {
    out[at] = this.lastTradeSec ?? NaN;
    const columns = this.columns;
    for (let i = 0; i < columns.length; i++) columns[i]!.saveTo(out, at + 1 + i * COLUMN_SAVED);
  }

  /** Puts the candles back as they were when `saveTo` wrote `saved[at]`. */
  restoreFrom(saved: Float64Array, at: number): void {
    const columns = this.columns;
    for (let i = 0; i < columns.length; i++) columns[i]!.restoreFrom(saved, at + 1 + i * COLUMN_SAVED);
    this.lastTradeSec = Number.isNaN(saved[at]) ? undefined : saved[at]!;
  }

  /**
   * The non-empty candles of `interval` whose bucket overlaps `[startSec, endSec]` (both
   * inclusive): bucket start `<= endSec` and bucket start + interval `> startSec`. Ascending by
   * start; fresh objects the caller may keep or mutate. A bucket containing `startSec` is
   * included even when it started earlier.
   *
   * @param startSec Range start, Unix seconds; may be fractional or `-Infinity`.
   * @param endSec Range end, Unix seconds; may be fractional or `Infinity`.
   * @throws RangeError when either bound is NaN or `endSec < startSec`.
   */
  query(interval: CandleInterval, startSec: number, endSec: number): Candle[] {
    if (Number.isNaN(startSec) || Number.isNaN(endSec)) throw new RangeError('query: NaN time bound');
    if (endSec < startSec) throw new RangeError(`query: endSec ${endSec} < startSec ${startSec}`);
    const col = this.column(interval);
    const from = col.firstEndAfter(startSec);
    const to = col.firstStartAbove(endSec);
    const out: Candle[] = [];
    for (let i = from; i < to; i++) out.push(col.candleAt(i));
    return out;
  }

  /** The latest non-empty candle of `interval` (possibly still open), or undefined before any trade. */
  last(interval: CandleInterval): Candle | undefined {
    const col = this.column(interval);
    return col.length === 0 ? undefined : col.candleAt(col.length - 1);
  }

  /** Number of stored (non-empty) candles of `interval`. */
  count(interval: CandleInterval): number {
    return this.column(interval).length;
  }

  private column(interval: CandleInterval): IntervalColumns {
    const i = isCandleInterval(interval) ? INTERVAL_NAMES.indexOf(interval) : -1;
    if (i < 0) throw new RangeError(`unknown candle interval ${String(interval)}`);
    return this.columns[i]!;
  }
}
