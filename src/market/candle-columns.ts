/**
 * One interval's candles for `CandleSeries` (candles.ts): the bucket columns, the open
 * bucket's numbers and the binary searches over bucket starts.
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

/** `candleStartSec` for a width in seconds. */
export function startOf(sec: number, width: number): number {
  return Math.floor(sec / width) * width;
}

// The open bucket's numbers of every interval, `OPEN_NUMBERS` per interval side by side in one
// array (`CandleSeries.open`): high, low, close, volume and buy volume.
export const O_HIGH = 0;
export const O_LOW = 1;
export const O_CLOSE = 2;
export const O_VOLUME = 3;
export const O_BUY = 4;
export const OPEN_NUMBERS = 5;

/** Adds a trade to the open bucket at `open[o]` (the trade lands in it). */
export function addToOpen(open: Float64Array, o: number, price: number, qty: number, isBuy: boolean): void {
  if (price > open[o + O_HIGH]!) open[o + O_HIGH] = price;
  if (price < open[o + O_LOW]!) open[o + O_LOW] = price;
  open[o + O_CLOSE] = price;
  open[o + O_VOLUME] = open[o + O_VOLUME]! + qty;
  if (isBuy) open[o + O_BUY] = open[o + O_BUY]! + qty;
}

/**
 * The candles of one interval as parallel append-only arrays (struct of arrays): no object per
 * candle, and `starts` is strictly ascending so ranges are found by binary search.
 * Sell volume is not stored; it is `volume - buyVolume`. 7 numbers per non-empty bucket. The
 * last bucket is the open one: its high, low, close and volumes are the numbers at `open[o]`
 * (shared by all intervals, so a trade updates one typed array and the undo copies it whole),
 * written into the arrays when the next bucket starts.
 */
export class IntervalColumns {
  readonly starts: number[] = [];
  readonly opens: number[] = [];
  readonly highs: number[] = [];
  readonly lows: number[] = [];
  readonly closes: number[] = [];
  readonly volumes: number[] = [];
  readonly buyVolumes: number[] = [];

  constructor(
    readonly width: number,
    private readonly open: Float64Array,
    /** Where this interval's open bucket is in `open`. */
    readonly o: number,
  ) {}

  get length(): number {
    return this.starts.length;
  }

  /** Start of the open (last) bucket, NaN before the first. */
  get lastStart(): number {
    const n = this.starts.length;
    return n === 0 ? NaN : this.starts[n - 1]!;
  }

  /** Volume of the bucket `start` would land in after adding `qty`, for overflow checks. */
  volumeAfter(start: number, qty: number): number {
    const n = this.starts.length;
    return n > 0 && this.starts[n - 1] === start ? this.open[this.o + O_VOLUME]! + qty : qty;
  }

  add(start: number, price: number, qty: number, isBuy: boolean): void {
    const n = this.starts.length;
    if (n > 0 && this.starts[n - 1] === start) return addToOpen(this.open, this.o, price, qty, isBuy);
    this.startBucket(start, price, qty, isBuy);
  }

  /** Closes the open bucket (its numbers into the arrays) and opens one at `start` with a first trade. */
  private startBucket(start: number, price: number, qty: number, isBuy: boolean): void {
    const open = this.open;
    const o = this.o;
    const n = this.starts.length;
    if (n > 0) {
      const i = n - 1;
      this.highs[i] = open[o + O_HIGH]!;
      this.lows[i] = open[o + O_LOW]!;
      this.closes[i] = open[o + O_CLOSE]!;
      this.volumes[i] = open[o + O_VOLUME]!;
      this.buyVolumes[i] = open[o + O_BUY]!;
    }
    this.starts.push(start);
    this.opens.push(price);
    this.highs.push(price);
    this.lows.push(price);
    this.closes.push(price);
    this.volumes.push(qty);
    this.buyVolumes.push(isBuy ? qty : 0);
    open[o + O_HIGH] = price;
    open[o + O_LOW] = price;
    open[o + O_CLOSE] = price;
    open[o + O_VOLUME] = qty;
    open[o + O_BUY] = isBuy ? qty : 0;
  }

  /**
   * Drops the buckets after the first `n` (the undo: their trades are taken back; the open
   * bucket's numbers are put back in `open` by the caller, which read them before).
   */
  truncate(n: number): void {
    if (this.starts.length === n) return;
    for (const col of [this.starts, this.opens, this.highs, this.lows, this.closes, this.volumes, this.buyVolumes]) col.length = n;
  }

  candleAt(i: number): Candle {
    const last = i === this.starts.length - 1;
    const open = this.open;
    const o = this.o;
    const volumeLots = last ? open[o + O_VOLUME]! : this.volumes[i]!;
    const buyVolumeLots = last ? open[o + O_BUY]! : this.buyVolumes[i]!;
    return {
      startSec: this.starts[i]!,
      openTicks: this.opens[i]!,
      highTicks: last ? open[o + O_HIGH]! : this.highs[i]!,
      lowTicks: last ? open[o + O_LOW]! : this.lows[i]!,
      closeTicks: last ? open[o + O_CLOSE]! : this.closes[i]!,
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

