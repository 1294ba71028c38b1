/**
 * Small statistics over series split into segments (gaps between segments are not bridged).
 * Inputs are expected to be standardized (mean 0, variance 1) per source where they pool.
 */

/** Demeans and scales a symbol's segments by its own mean and standard deviation (all segments together). */
export function standardize(segments: number[][]): number[][] {
  let n = 0;
  let sum = 0;
  for (const seg of segments) for (const x of seg) (sum += x), n++;
  if (n < 2) return [];
  const mean = sum / n;
  let ss = 0;
  for (const seg of segments) for (const x of seg) ss += (x - mean) * (x - mean);
  const sd = Math.sqrt(ss / n);
  if (!(sd > 0)) return [];
  return segments.map((seg) => seg.map((x) => (x - mean) / sd));
}

/** Autocorrelation at `lag` of standardized segments: Σ z_t·z_{t+lag} within segments / Σ z_t². NaN without data. */
export function autocorrelation(segments: number[][], lag: number): number {
  let num = 0;
  let den = 0;
  for (const seg of segments) {
    for (let i = 0; i < seg.length; i++) {
      const z = seg[i]!;
      den += z * z;
      if (i + lag < seg.length) num += z * seg[i + lag]!;
    }
  }
  return den > 0 ? num / den : Number.NaN;
}

/** Non-excess kurtosis m4 / m2² of standardized segments (a normal sample gives about 3). */
export function kurtosis(segments: number[][]): number {
  let n = 0;
  let m2 = 0;
  let m4 = 0;
  for (const seg of segments) {
    for (const z of seg) {
      const z2 = z * z;
      m2 += z2;
      m4 += z2 * z2;
      n++;
    }
  }
  if (n < 4 || m2 <= 0) return Number.NaN;
  m2 /= n;
  m4 /= n;
  return m4 / (m2 * m2);
}
