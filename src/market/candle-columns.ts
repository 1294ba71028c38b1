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
// array (`CandleSeries.open`): high, low, close, volume and buy volume. The finest interval (1 s,
// at 0) holds its whole open bucket; a coarser one holds the part of its open bucket before the
// open second (its "base": volume 0 when the bucket began in this second), the rest being the
// open second's: a trade within the second of the one before it changes five numbers, and the
// coarser intervals take in the second when the next one begins (`roll`). Buckets nest (every
// interval divides the next), so the open second always lies in every interval's open bucket.
export const O_HIGH = 0;
export const O_LOW = 1;
export const O_CLOSE = 2;
export const O_VOLUME = 3;
export const O_BUY = 4;
export const OPEN_NUMBERS = 5;

/** Adds a trade to the open second (at 0 in `open`). */
export function addToSecond(open: Float64Array, price: number, qty: number, isBuy: boolean): void {
  if (price > open[O_HIGH]!) open[O_HIGH] = price;
  if (price < open[O_LOW]!) open[O_LOW] = price;
  open[O_CLOSE] = price;
  open[O_VOLUME] = open[O_VOLUME]! + qty;
  if (isBuy) open[O_BUY] = open[O_BUY]! + qty;
}

/**
 * The candles of one interval as parallel append-only arrays (struct of arrays): no object per
 * candle, and `starts` is strictly ascending so ranges are found by binary search.
 * Sell volume is not stored; it is `volume - buyVolume`. 7 numbers per non-empty bucket. The
 * last bucket is the open one: its high, low, close and volumes are the numbers at `open[o]`
 * (with the open second's for a coarser interval, see `O_HIGH`), written into the arrays when
 * the next bucket starts.
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
    /** Where this interval's open bucket (or its base) is in `open`: 0 for the finest. */
    readonly o: number,
  ) {}

  get length(): number {
    return this.starts.length;
  }

  /** Number `k` (`O_HIGH` … `O_BUY`) of the open bucket: for a coarser interval, its base with the open second. */
  private openValue(k: number): number {
    const open = this.open;
    const o = this.o;
    if (o === 0) return open[k]!;
    const empty = open[o + O_VOLUME] === 0;
    switch (k) {
      case O_HIGH:
        return empty ? open[O_HIGH]! : Math.max(open[o + O_HIGH]!, open[O_HIGH]!);
      case O_LOW:
        return empty ? open[O_LOW]! : Math.min(open[o + O_LOW]!, open[O_LOW]!);
      case O_CLOSE:
        return open[O_CLOSE]!;
      default:
        return open[o + k]! + open[k]!;
    }
  }

  /** Volume of bucket `start` so far: the open bucket's when it is `start`, else 0 (a bucket not begun). */
  volumeAt(start: number): number {
    const n = this.starts.length;
    return n > 0 && this.starts[n - 1] === start ? this.openValue(O_VOLUME) : 0;
  }

  /**
   * A trade at a new second, in this interval's bucket `start`, at `price` (a coarser interval:
   * before the finest starts its bucket). The second that ends joins the open bucket's base
   * (`openValue`'s merge, written back) when the trade lands in it, else the open bucket closes
   * (its numbers into the arrays) and one opens at `start` with an empty base.
   */
  roll(start: number, price: number): void {
    const n = this.starts.length;
    if (n > 0) {
      const open = this.open;
      const o = this.o;
      // High and low first: their merge reads whether the base is empty (its volume, written last).
      open[o + O_HIGH] = this.openValue(O_HIGH);
      open[o + O_LOW] = this.openValue(O_LOW);
      open[o + O_CLOSE] = open[O_CLOSE]!;
      open[o + O_VOLUME] = this.openValue(O_VOLUME);
      open[o + O_BUY] = this.openValue(O_BUY);
      if (this.starts[n - 1] === start) return;
      this.close(n - 1);
    }
    this.push(start, price);
    this.open[this.o + O_VOLUME] = 0;
    this.open[this.o + O_BUY] = 0;
  }

  /** The finest interval's bucket `start` opens with a trade (the open one closes). */
  startSecond(start: number, price: number, qty: number, isBuy: boolean): void {
    const n = this.starts.length;
    if (n > 0) this.close(n - 1);
    this.push(start, price);
    const open = this.open;
    open[O_HIGH] = price;
    open[O_LOW] = price;
    open[O_CLOSE] = price;
    open[O_VOLUME] = qty;
    open[O_BUY] = isBuy ? qty : 0;
  }

  /** Writes the open bucket's numbers (its base, all of it once `roll` took in the second) into the arrays at `i`. */
  private close(i: number): void {
    const open = this.open;
    const o = this.o;
    this.highs[i] = open[o + O_HIGH]!;
    this.lows[i] = open[o + O_LOW]!;
    this.closes[i] = open[o + O_CLOSE]!;
    this.volumes[i] = open[o + O_VOLUME]!;
    this.buyVolumes[i] = open[o + O_BUY]!;
  }

  /** A new bucket at `start` opened by a trade at `price` (the numbers but the open price are read from `open` while it is open). */
  private push(start: number, price: number): void {
    this.starts.push(start);
    this.opens.push(price);
    this.highs.push(price);
    this.lows.push(price);
    this.closes.push(price);
    this.volumes.push(0);
    this.buyVolumes.push(0);
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
    const volumeLots = last ? this.openValue(O_VOLUME) : this.volumes[i]!;
    const buyVolumeLots = last ? this.openValue(O_BUY) : this.buyVolumes[i]!;
    return {
      startSec: this.starts[i]!,
      openTicks: this.opens[i]!,
      highTicks: last ? this.openValue(O_HIGH) : this.highs[i]!,
      lowTicks: last ? this.openValue(O_LOW) : this.lows[i]!,
      closeTicks: last ? this.openValue(O_CLOSE) : this.closes[i]!,
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

