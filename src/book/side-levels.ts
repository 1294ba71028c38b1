/**
 * One side's price levels in price order, for the touch in O(1) and ordered views.
 */
import { growF64, growI32 } from './order-slots.ts';

/**
 * Literals for the hot methods (a module-level constant costs a load and a check at every use
 * in V8's optimized code; see `Rec` in `book-core.ts`).
 */
export const enum K {
  /** `NONE` of `order-slots.ts`: no level. */
  None = -1,
  /** Size of each side's price → level cache; prices this close to each other never collide. */
  CacheSize = 4096,
  /** Moves of up to this many entries are a loop, longer ones `copyWithin`. */
  ShortMove = 16,
}

/**
 * One side's levels ordered by `key`, ascending, best last. The key is the price for bids and
 * minus the price for asks, so "better" is "greater" on both sides and one code path serves
 * both. Keys are distinct integers.
 *
 * Finding the level of a price is the commonest lookup (every order that rests), so a small
 * direct-mapped cache (key modulo 4096 → level) answers it without a search while the prices
 * in use span fewer than 4096 ticks; other prices fall back to the search.
 */
export class SideLevels {
  /** Sort key of each level (price for bids, -price for asks), ascending. */
  keys = new Float64Array(64);
  /** Level slot at each position, parallel to `keys`. */
  levels = new Int32Array(64);
  /** Number of levels; the best is at `length - 1`. */
  length = 0;
  /** Key cached in each bucket (public for the book's hot path, which reads a hit inline). */
  readonly cachedKey = new Float64Array(K.CacheSize);
  /** Level cached in each bucket, NONE when empty. */
  readonly cachedLevel = new Int32Array(K.CacheSize).fill(K.None);
  /**
   * Levels on this side with neither orders nor recorded quantity, never the best: recorded
   * liquidity leaves a level it empties below the touch in place, as the recording often fills
   * that price again (3 new levels in 4 of the BTCUSDT capture), and `purge` takes them out when
   * they grow many. Views skip them.
   */
  empties = 0;
  /**
   * The key the last `levelOf` did not find and where it would go, until the side changes: a
   * new level is looked up, then inserted, and the insert need not search again (a recorded
   * level change makes a new level one time in five, ~3,500 levels a side).
   */
  private missKey = NaN;
  private missAt = 0;

  /** Level slot with `key`, or NONE (-1). */
  levelOf(key: number): number {
    const bucket = key & (K.CacheSize - 1);
    const cached = this.cachedLevel[bucket]!;
    if (cached !== K.None && this.cachedKey[bucket] === key) return cached;
    const at = this.indexOf(key);
    if (at < 0) {
      this.missKey = key;
      this.missAt = -at - 1;
      return K.None;
    }
    const level = this.levels[at]!;
    this.cachedKey[bucket] = key;
    this.cachedLevel[bucket] = level;
    return level;
  }

  /** Position of the level with `key`, or `-(insertion point) - 1` when there is none. */
  indexOf(key: number): number {
    const keys = this.keys;
    const n = this.length;
    if (n === 0) return -1;
    const best = keys[n - 1]!;
    if (key >= best) return key === best ? n - 1 : -n - 1;
    // Keys are distinct integers, so the level sits at least `best - key` places below the
    // top; when the levels in between are contiguous ticks it sits exactly there.
    let lo = n - 1 - (best - key);
    if (lo >= 0 && keys[lo] === key) return lo;
    if (lo < 0) lo = 0;
    let hi = n - 1; // keys[hi] > key
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return keys[lo] === key ? lo : -lo - 1;
  }

  /** Adds a level with a key not yet present, shifting the better levels up. */
  insert(key: number, level: number): void {
    const at = key === this.missKey ? this.missAt : -this.indexOf(key) - 1;
    this.missKey = NaN;
    if (this.length === this.keys.length) {
      this.keys = growF64(this.keys, this.length * 2);
      this.levels = growI32(this.levels, this.length * 2);
    }
    const n = this.length;
    if (at < n) shiftUp(this.keys, this.levels, at, n);
    this.keys[at] = key;
    this.levels[at] = level;
    this.length = n + 1;
    const bucket = key & (K.CacheSize - 1);
    this.cachedKey[bucket] = key;
    this.cachedLevel[bucket] = level;
  }

  /** Removes the level with `key`, which must be present; true when it was the best. */
  remove(key: number): boolean {
    const at = this.indexOf(key);
    this.missKey = NaN;
    const n = this.length - 1;
    if (at < n) shiftDown(this.keys, this.levels, at, n);
    this.length = n;
    this.forget(key);
    return at === n;
  }

  /**
   * Takes out every level `isEmpty` says is empty, handing each to `free`, in one pass (order
   * kept); `empties` becomes 0.
   */
  purge(isEmpty: (level: number) => boolean, free: (level: number) => void): void {
    const { keys, levels } = this;
    let kept = 0;
    for (let i = 0; i < this.length; i++) {
      const level = levels[i]!;
      if (isEmpty(level)) {
        this.forget(keys[i]!);
        free(level);
        continue;
      }
      keys[kept] = keys[i]!;
      levels[kept++] = level;
    }
    this.length = kept;
    this.missKey = NaN;
    this.empties = 0;
  }

  /** Removes the best level. */
  pop(): void {
    this.missKey = NaN;
    this.length--;
    this.forget(this.keys[this.length]!);
  }

  private forget(key: number): void {
    const bucket = key & (K.CacheSize - 1);
    if (this.cachedKey[bucket] === key) this.cachedLevel[bucket] = K.None;
  }
}

/**
 * Moves entries `at..n-1` of both arrays one place up. Levels come and go near the touch (the
 * end of the arrays), so most moves are a few entries: a loop then costs less than
 * `copyWithin`, a call into the runtime (~3% of `book.mix`'s instructions when it was used for
 * every move). Long moves still use it.
 */
function shiftUp(keys: Float64Array, levels: Int32Array, at: number, n: number): void {
  if (n - at > K.ShortMove) {
    keys.copyWithin(at + 1, at, n);
    levels.copyWithin(at + 1, at, n);
    return;
  }
  for (let i = n; i > at; i--) {
    keys[i] = keys[i - 1]!;
    levels[i] = levels[i - 1]!;
  }
}

/** Moves entries `at+1..n` of both arrays one place down (see `shiftUp`). */
function shiftDown(keys: Float64Array, levels: Int32Array, at: number, n: number): void {
  if (n - at > K.ShortMove) {
    keys.copyWithin(at, at + 1, n + 1);
    levels.copyWithin(at, at + 1, n + 1);
    return;
  }
  for (let i = at; i < n; i++) {
    keys[i] = keys[i + 1]!;
    levels[i] = levels[i + 1]!;
  }
}
