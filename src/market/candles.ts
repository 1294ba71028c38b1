import type { Side } from '../core/types.ts';
import { IntervalColumns, OPEN_NUMBERS, O_VOLUME, addToSecond, startOf, type Candle } from './candle-columns.ts';

export type { Candle } from './candle-columns.ts';

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

/** The open buckets' numbers of every interval (`CandleSeries.open`). */
const OPEN_SIZE = INTERVAL_NAMES.length * OPEN_NUMBERS;

/** Numbers `CandleSeries.saveTo` writes: the last trade time, each interval's count, the open buckets. */
export const CANDLES_SAVED = 1 + INTERVAL_NAMES.length + OPEN_SIZE;

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
  private readonly columns: IntervalColumns[];
  /**
   * The open (last) bucket of every interval, `OPEN_NUMBERS` each in `INTERVAL_NAMES` order (the
   * coarser ones as a base and the open second: see `O_HIGH`): a trade within the second of the
   * previous one updates the second's five, and the undo copies them all as one run.
   */
  private readonly open = new Float64Array(OPEN_SIZE);
  /** The `1d` column: its current bucket holds every trade of the other intervals' current buckets. */
  private readonly day: IntervalColumns;
  /** Time of the latest trade, NaN before the first (a number field: no generic comparison with undefined per trade). */
  private lastSec = NaN;
  /** Where the `1d` interval's numbers start in `open`: its base volume is at `dayAt + O_VOLUME`. */
  private readonly dayAt = INTERVAL_NAMES.indexOf('1d') * OPEN_NUMBERS;

  constructor() {
    this.columns = INTERVAL_NAMES.map((name, i) => new IntervalColumns(CANDLE_INTERVALS[name], this.open, i * OPEN_NUMBERS));
    this.day = this.columns[INTERVAL_NAMES.indexOf('1d')]!;
  }

  /** Time of the latest trade added, Unix seconds, or undefined before the first. */
  get lastTradeTimeSec(): number | undefined {
    return Number.isNaN(this.lastSec) ? undefined : this.lastSec;
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
    return Number.MAX_SAFE_INTEGER - this.day.volumeAt(startOf(sec, this.day.width));
  }

  /** Whether a trade of `qtyLots` at `sec` fits `volumeRoomLots` (a boolean: the room is a double past the small integers, boxed when returned). */
  volumeFits(sec: number, qtyLots: number): boolean {
    return qtyLots <= Number.MAX_SAFE_INTEGER - this.day.volumeAt(startOf(sec, this.day.width));
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
    // The second of the last trade (a sweep's trades after its first, or the trades of one
    // instant): `sec` was checked then, and the day's open bucket is that trade's, whose volume
    // is its base and the open second's (no bucket lookup, no division). The same checks, the
    // same change.
    if (sec === this.lastSec) {
      const open = this.open;
      if (Number.isSafeInteger(priceTicks) && Number.isSafeInteger(qtyLots) && qtyLots > 0 && (aggressorSide === 'B' || aggressorSide === 'S')
        && qtyLots <= Number.MAX_SAFE_INTEGER - (open[this.dayAt + O_VOLUME]! + open[O_VOLUME]!)) {
        return addToSecond(open, priceTicks, qtyLots, aggressorSide === 'B');
      }
    }
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
    if (sec < this.lastSec) {
      throw new RangeError(`addTrade: time went back from ${this.lastSec} to ${sec}`);
    }
    // The day's bucket is the fullest (see `volumeRoomLots`): if it fits, every bucket does.
    if (!this.volumeFits(sec, qtyLots)) throw new RangeError('addTrade: 1d candle volume would exceed Number.MAX_SAFE_INTEGER');
    const isBuy = aggressorSide === 'B';
    // A new second (the last trade's second took the early path above, or one of the checks
    // threw: they are the early path's, and `volumeFits` adds the same two volumes): the coarser
    // intervals take in the second that ends, then the finest opens one.
    const columns = this.columns;
    for (let i = columns.length - 1; i >= 1; i--) {
      const col = columns[i]!;
      col.roll(startOf(sec, col.width), priceTicks);
    }
    columns[0]!.startSecond(sec, priceTicks, qtyLots, isBuy);
    this.lastSec = sec;
  }

  /**
   * Writes everything a later `addTrade` can change (the last trade time, each interval's count
   * and the open buckets) as `CANDLES_SAVED` numbers at `out[at]`, for the venue's undo of a
   * failed command (no object per save).
   */
  saveTo(out: Float64Array, at: number): void {
    out[at] = this.lastSec;
    const columns = this.columns;
    for (let i = 0; i < columns.length; i++) out[at + 1 + i] = columns[i]!.length;
    out.set(this.open, at + 1 + columns.length);
  }

  /** Puts the candles back as they were when `saveTo` wrote `saved[at]`. */
  restoreFrom(saved: Float64Array, at: number): void {
    const columns = this.columns;
    for (let i = 0; i < columns.length; i++) columns[i]!.truncate(saved[at + 1 + i]!);
    const from = at + 1 + columns.length;
    this.open.set(saved.subarray(from, from + OPEN_SIZE));
    this.lastSec = saved[at]!;
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
