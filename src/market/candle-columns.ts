/**
 * One interval's candles for `CandleSeries` (candles.ts): the bucket columns, their undo
 * snapshot and the binary searches over bucket starts.
 */

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

/** Numbers one interval's `saveTo` writes. */
export const COLUMN_SAVED = 6;

/** `candleStartSec` for a width in seconds. */
export function startOf(sec: number, width: number): number {
  return Math.floor(sec / width) * width;
}

/**
 * The candles of one interval as parallel append-only arrays (struct of arrays): no object per
 * candle, and `starts` is strictly ascending so ranges are found by binary search.
 * Sell volume is not stored; it is `volume - buyVolume`. 7 numbers per non-empty bucket.
 */
export class IntervalColumns {
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

