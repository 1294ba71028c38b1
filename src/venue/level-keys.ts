/**
 * Number → number tables keyed by a recorded level (its price in ticks, negated for asks),
 * for external liquidity's hot path: every recorded level change looks its level up.
 *
 * Why not a `Map<number, number>`: the keys come out of Float64Array columns as doubles, and
 * a Map lookup of a double was the largest single cost of applying a level change (it boxes
 * the key, then hashes it); here keys and values stay unboxed in typed arrays. Linear probing,
 * at most half full, deletion by backward shift (no tombstones under the churn of a book).
 */

/** What `get` returns for an absent key. */
export const ABSENT = -1;

const MIN_BITS = 6;

/** Home cell of a level key (an integer, usually an int32; others still hash, just worse). */
function home(key: number, shift: number): number {
  return Math.imul((key | 0) ^ ((key / 4294967296) | 0), 0x9e3779b1) >>> shift;
}

/** Level key → a non-negative value (a book id). */
export class LevelKeyMap {
  private bits = MIN_BITS;
  private keys = new Float64Array(1 << MIN_BITS).fill(NaN);
  private vals = new Float64Array(1 << MIN_BITS);
  private used = 0;

  get size(): number {
    return this.used;
  }

  get(key: number): number {
    const mask = this.keys.length - 1;
    for (let i = home(key, 32 - this.bits); ; i = (i + 1) & mask) {
      const k = this.keys[i]!;
      if (k === key) return this.vals[i]!;
      if (k !== k) return ABSENT; // NaN: an empty cell
    }
  }

  set(key: number, value: number): void {
    const mask = this.keys.length - 1;
    let i = home(key, 32 - this.bits);
    for (let k = this.keys[i]!; k === k && k !== key; k = this.keys[i]!) i = (i + 1) & mask;
    if (this.keys[i] !== key) {
      this.keys[i] = key;
      if (++this.used * 2 > this.keys.length) {
        this.vals[i] = value;
        return this.grow();
      }
    }
    this.vals[i] = value;
  }

  delete(key: number): void {
    const keys = this.keys;
    const mask = keys.length - 1;
    const shift = 32 - this.bits;
    let i = home(key, shift);
    for (let k = keys[i]!; k !== key; k = keys[i]!) {
      if (k !== k) return;
      i = (i + 1) & mask;
    }
    // Backward shift: pull later cells of the probe run into the hole when their home allows.
    for (let j = (i + 1) & mask; ; j = (j + 1) & mask) {
      const k = keys[j]!;
      if (k !== k) break;
      const h = home(k, shift);
      if (((j - h) & mask) >= ((j - i) & mask)) {
        keys[i] = k;
        this.vals[i] = this.vals[j]!;
        i = j;
      }
    }
    keys[i] = NaN;
    this.used--;
  }

  clear(): void {
    this.keys.fill(NaN);
    this.used = 0;
  }

  /** The values, in no particular order (a copy: the table may change while they are used). */
  values(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.keys.length; i++) if (this.keys[i] === this.keys[i]) out.push(this.vals[i]!);
    return out;
  }

  /** The keys, in no particular order (a copy). */
  keyList(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.keys.length; i++) if (this.keys[i] === this.keys[i]) out.push(this.keys[i]!);
    return out;
  }

  private grow(): void {
    const keys = this.keys;
    const vals = this.vals;
    this.bits++;
    this.keys = new Float64Array(1 << this.bits).fill(NaN);
    this.vals = new Float64Array(1 << this.bits);
    this.used = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i] === keys[i]) this.set(keys[i]!, vals[i]!);
  }
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
