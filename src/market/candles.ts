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
  const width = CANDLE_INTERVALS[interval];
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

/** Saved candles (`CandleSeries.save`). */
export interface CandleMemento {
  readonly lastTradeSec: number | undefined;
  readonly saved: readonly number[];
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

  /** The last bucket and the length, to restore them (`CandleSeries.save`). */
  save(out: number[]): void {
    const i = this.starts.length - 1;
    out.push(this.starts.length);
    if (i >= 0) out.push(this.highs[i]!, this.lows[i]!, this.closes[i]!, this.volumes[i]!, this.buyVolumes[i]!);
  }

  /** Undoes every `add` since `save`; returns where the next saved column starts in `saved`. */
  restore(saved: readonly number[], at: number): number {
    const n = saved[at]!;
    for (const col of [this.starts, this.opens, this.highs, this.lows, this.closes, this.volumes, this.buyVolumes]) col.length = n;
    if (n === 0) return at + 1;
    const i = n - 1;
    this.highs[i] = saved[at + 1]!;
    this.lows[i] = saved[at + 2]!;
    this.closes[i] = saved[at + 3]!;
    this.volumes[i] = saved[at + 4]!;
    this.buyVolumes[i] = saved[at + 5]!;
    return at + 6;
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
  private readonly columns = new Map<CandleInterval, IntervalColumns>();
  private lastTradeSec: number | undefined;

  constructor() {
    for (const name of INTERVAL_NAMES) this.columns.set(name, new IntervalColumns(CANDLE_INTERVALS[name]));
  }

  /** Time of the latest trade added, Unix seconds, or undefined before the first. */
  get lastTradeTimeSec(): number | undefined {
    return this.lastTradeSec;
  }

  /**
   * Lots a trade at `sec` could still add without any candle volume passing
   * `Number.MAX_SAFE_INTEGER` (order entry checks this before anything changes).
   */
  volumeRoomLots(sec: number): number {
    let largest = 0;
    for (const [name, col] of this.columns) largest = Math.max(largest, col.volumeAfter(candleStartSec(sec, name), 0));
    return Number.MAX_SAFE_INTEGER - largest;
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
    for (const [name, col] of this.columns) {
      if (!Number.isSafeInteger(col.volumeAfter(candleStartSec(sec, name), qtyLots))) {
        throw new RangeError(`addTrade: ${name} candle volume would exceed Number.MAX_SAFE_INTEGER`);
      }
    }
    const isBuy = aggressorSide === 'B';
    for (const [name, col] of this.columns) col.add(candleStartSec(sec, name), priceTicks, qtyLots, isBuy);
    this.lastTradeSec = sec;
  }

  /**
   * Everything a later `addTrade` can change (each interval's last bucket and count, the last
   * trade time), for the venue's undo of a failed command. 6 numbers per interval.
   */
  save(): CandleMemento {
    const saved: number[] = [];
    for (const col of this.columns.values()) col.save(saved);
    return { lastTradeSec: this.lastTradeSec, saved };
  }

  /** Puts the candles back as they were at `save()`. */
  restore(m: CandleMemento): void {
    let at = 0;
    for (const col of this.columns.values()) at = col.restore(m.saved, at);
    this.lastTradeSec = m.lastTradeSec;
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
    const col = this.columns.get(interval);
    if (col === undefined) throw new RangeError(`unknown candle interval ${String(interval)}`);
    return col;
  }
}
