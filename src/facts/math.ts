/**
 * The statistics behind `perpsim facts`, on plain arrays of numbers (floats are fine here: these
 * are measurements of a market, never money). Series may be split into segments: a gap in the
 * data starts a new segment, and lags never bridge one.
 */

/** Arithmetic mean; NaN for no data. */
export function mean(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
}

/**
 * The `q`-quantile of `xs` (0 ≤ q ≤ 1) by linear interpolation between order statistics
 * (type 7, as numpy and R default): position (n − 1)·q. NaN for no data.
 */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sortedQuantile(sorted, q);
}

/** {@link quantile} of an already ascending array. */
export function sortedQuantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * The smallest value whose cumulative weight reaches `q` of the total, for a distribution given
 * as value → weight (a time-weighted spread distribution). NaN when the total is 0.
 */
export function weightedQuantile(weights: ReadonlyMap<number, number>, q: number): number {
  let total = 0;
  for (const w of weights.values()) total += w;
  if (!(total > 0)) return Number.NaN;
  const keys = [...weights.keys()].sort((a, b) => a - b);
  let acc = 0;
  for (const k of keys) {
    acc += weights.get(k)!;
    if (acc >= q * total) return k;
  }
  return keys[keys.length - 1]!;
}

/**
 * Sample autocorrelation at `lag` of a series in segments: with x̄ the mean of all values,
 * Σ (x_t − x̄)(x_{t+lag} − x̄) over pairs inside one segment / Σ (x_t − x̄)² over all values.
 * NaN without variance.
 */
export function autocorrelation(segments: readonly (readonly number[])[], lag: number): number {
  const m = mean(segments.flat());
  let num = 0;
  let den = 0;
  for (const seg of segments) {
    for (let i = 0; i < seg.length; i++) {
      const d = seg[i]! - m;
      den += d * d;
      if (i + lag < seg.length) num += d * (seg[i + lag]! - m);
    }
  }
  return den > 0 ? num / den : Number.NaN;
}

/** Pearson correlation of paired samples; NaN when either has no variance or lengths differ. */
export function correlation(xs: readonly number[], ys: readonly number[]): number {
  if (xs.length !== ys.length || xs.length < 2) return Number.NaN;
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : Number.NaN;
}

/** Non-excess kurtosis m4 / m2² about the mean (a normal sample gives about 3); NaN below 4 values. */
export function kurtosis(xs: readonly number[]): number {
  if (xs.length < 4) return Number.NaN;
  const m = mean(xs);
  let m2 = 0;
  let m4 = 0;
  for (const x of xs) {
    const d2 = (x - m) * (x - m);
    m2 += d2;
    m4 += d2 * d2;
  }
  m2 /= xs.length;
  m4 /= xs.length;
  return m2 > 0 ? m4 / (m2 * m2) : Number.NaN;
}

/** Share of the tail used by {@link hillTailIndex}: the largest 5 % of the sample. */
export const HILL_TAIL_FRACTION = 0.05;

/** Fewest order statistics the Hill estimate is computed from (below: NaN). */
export const HILL_MIN_TAIL = 5;

/**
 * Hill's estimate of the tail index α of |x| (P(|X| > x) ~ x^−α): with X₍₁₎ ≥ X₍₂₎ ≥ … the
 * absolute values in descending order and k = ⌊fraction · n⌋,
 * α̂ = k / Σ_{i=1..k} ln(X₍ᵢ₎ / X₍ₖ₊₁₎). NaN when k < {@link HILL_MIN_TAIL} or X₍ₖ₊₁₎ = 0.
 * A Gaussian sample gives large values (thin tails); returns of liquid markets give about 3.
 */
export function hillTailIndex(xs: readonly number[], fraction = HILL_TAIL_FRACTION): number {
  const abs = xs.map(Math.abs).sort((a, b) => b - a);
  const k = Math.floor(fraction * abs.length);
  if (k < HILL_MIN_TAIL || k >= abs.length) return Number.NaN;
  const threshold = abs[k]!;
  if (!(threshold > 0)) return Number.NaN;
  let sum = 0;
  for (let i = 0; i < k; i++) sum += Math.log(abs[i]! / threshold);
  return sum > 0 ? k / sum : Number.NaN;
}
