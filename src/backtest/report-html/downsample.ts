/**
 * Deterministic min/max downsampling for line charts.
 *
 * The x range is cut into `buckets` equal slices (one per pixel or so); each slice keeps its
 * lowest and highest point, in time order, and the series' first and last points are always
 * kept. A line through the kept points covers exactly the pixels the full series would, so
 * spikes and the global extrema survive while a day of 1-second samples shrinks to about
 * 2 × buckets points.
 */
export interface XY {
  readonly x: Float64Array;
  readonly y: Float64Array;
}

/**
 * @param xs ascending x values; `ys` the same length.
 * @param x0 left edge of the plotted range; `x1` the right edge (x1 > x0 unless the series is a point).
 * @returns the kept points, a subsequence of the input (indices ascending).
 */
export function downsampleMinMax(series: XY, x0: number, x1: number, buckets: number): XY {
  const { x: xs, y: ys } = series;
  const n = xs.length;
  if (n <= 2 * buckets + 2 || !(x1 > x0)) return series;
  const keep: number[] = [0];
  const width = (x1 - x0) / buckets;
  let i = 0;
  while (i < n) {
    const b = bucketOf(xs[i]!, x0, width, buckets);
    let lo = i;
    let hi = i;
    let j = i + 1;
    while (j < n && bucketOf(xs[j]!, x0, width, buckets) === b) {
      if (ys[j]! < ys[lo]!) lo = j;
      if (ys[j]! > ys[hi]!) hi = j;
      j++;
    }
    const first = Math.min(lo, hi);
    const second = Math.max(lo, hi);
    if (first !== keep[keep.length - 1]) keep.push(first);
    if (second !== first) keep.push(second);
    i = j;
  }
  if (keep[keep.length - 1] !== n - 1) keep.push(n - 1);
  const x = new Float64Array(keep.length);
  const y = new Float64Array(keep.length);
  keep.forEach((k, idx) => {
    x[idx] = xs[k]!;
    y[idx] = ys[k]!;
  });
  return { x, y };
}

function bucketOf(x: number, x0: number, width: number, buckets: number): number {
  const b = Math.floor((x - x0) / width);
  return b < 0 ? 0 : b >= buckets ? buckets - 1 : b;
}
