/** Binary searches over a captured side's prices (`lazy-book-levels.ts`: a capture updated from the levels that changed). */

/** In `prices` (falling) the first index whose price is ≤ `p` (`length` if none). */
export function firstAtOrBelow(prices: ArrayLike<number>, p: number): number {
  let lo = 0;
  let hi = prices.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (prices[mid]! > p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** In `prices` (rising) the first index whose price is ≥ `p` (`length` if none). */
export function firstAtOrAbove(prices: ArrayLike<number>, p: number): number {
  let lo = 0;
  let hi = prices.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (prices[mid]! < p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
