import type { XY } from './downsample.ts';

/**
 * Turns the input's text series into plot numbers: x is nanoseconds since `t0` (a float is
 * exact enough for pixels over years), y the decimal value. Money stays text everywhere else;
 * these numbers only ever become coordinates and axis labels.
 */
export function toXY<P>(
  points: readonly P[],
  t0: bigint,
  time: (p: P) => string,
  value: (p: P) => string,
  what: string,
): XY {
  const n = points.length;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    x[i] = Number(parseNs(time(p), `${what}[${i}].tNs`) - t0);
    y[i] = parseValue(value(p), `${what}[${i}]`);
    if (i > 0 && x[i]! < x[i - 1]!) sorted = false;
  }
  return sorted ? { x, y } : sortByX(x, y);
}

/** Integer nanoseconds from decimal text ("1758672000000000000"). */
export function parseNs(text: string, what: string): bigint {
  if (!/^-?\d+$/.test(text)) throw new RangeError(`report: ${what} must be integer nanoseconds, got ${JSON.stringify(text)}`);
  return BigInt(text);
}

/** A finite number from decimal text, for plotting. */
export function parseValue(text: string, what: string): number {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v)) throw new RangeError(`report: ${what} is not a number: ${JSON.stringify(text)}`);
  return v;
}

/** A stable sort by x (ties keep input order), for callers that pass unsorted samples. */
function sortByX(x: Float64Array, y: Float64Array): XY {
  const order = Array.from(x.keys()).sort((a, b) => x[a]! - x[b]! || a - b);
  return { x: Float64Array.from(order, (i) => x[i]!), y: Float64Array.from(order, (i) => y[i]!) };
}
