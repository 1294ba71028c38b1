/**
 * The distinct recorded levels of a recorded book change (keyed by price in ticks, negated for
 * asks), for external liquidity's hot path: a recorded message may name a level twice, and
 * every level it names is looked up in the book once. Keys stay unboxed in typed arrays (a
 * Map of the doubles that come out of Float64Array columns boxes and hashes each key).
 * Linear probing, emptied per run by a generation stamp.
 */

const MIN_BITS = 6;

/** Home cell of a level key (an integer, usually an int32; others still hash, just worse). */
function home(key: number, shift: number): number {
  return Math.imul((key | 0) ^ ((key / 4294967296) | 0), 0x9e3779b1) >>> shift;
}

/**
 * The distinct keys of a run of rows, each with its last row, in the order of first mention
 * (a recorded message may name a level twice: its last value counts, where it first stood).
 * Emptied in O(1) per run by a generation stamp.
 */
export class LastRowOfKey {
  private bits = MIN_BITS;
  private keys = new Float64Array(1 << MIN_BITS);
  private stamps = new Int32Array(1 << MIN_BITS);
  /** Index into `out` of the key's entry. */
  private slots = new Int32Array(1 << MIN_BITS);
  private stamp = 0;

  /**
   * Rows `from`..`to` of level columns (`side` 1 bid, else ask): writes the last row of each
   * distinct level to `out`, in first-mention order, and returns how many (`out` holds
   * `to - from`).
   */
  collect(side: Uint8Array, priceTicks: Float64Array, from: number, to: number, out: Int32Array): number {
    while (2 * (to - from) > this.keys.length) this.grow();
    if (++this.stamp === 0x7fffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
    const stamp = this.stamp;
    const mask = this.keys.length - 1;
    const shift = 32 - this.bits;
    let n = 0;
    for (let row = from; row < to; row++) {
      const key = side[row] === 1 ? priceTicks[row]! : -priceTicks[row]!;
      let i = home(key, shift);
      while (this.stamps[i] === stamp && this.keys[i] !== key) i = (i + 1) & mask;
      if (this.stamps[i] === stamp) out[this.slots[i]!] = row;
      else {
        this.stamps[i] = stamp;
        this.keys[i] = key;
        this.slots[i] = n;
        out[n++] = row;
      }
    }
    return n;
  }

  private grow(): void {
    this.bits++;
    this.keys = new Float64Array(1 << this.bits);
    this.stamps = new Int32Array(1 << this.bits);
    this.slots = new Int32Array(1 << this.bits);
    this.stamp = 0;
  }
}
