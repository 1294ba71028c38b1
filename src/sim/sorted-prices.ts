/** Binary searches over a captured side's prices (`lazy-book-levels.ts`: a capture updated from the levels that changed). */

/** In `prices` (falling) from `from` on, the first index whose price is ≤ `p` (`length` if none). */
export function firstAtOrBelow(prices: ArrayLike<number>, p: number, from: number): number {
  let lo = from;
  let hi = prices.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (prices[mid]! > p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** In `prices` (rising) from `from` on, the first index whose price is ≥ `p` (`length` if none). */
export function firstAtOrAbove(prices: ArrayLike<number>, p: number, from: number): number {
  let lo = from;
  let hi = prices.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (prices[mid]! < p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
