import type { XY } from './downsample.ts';

/**
 * Small SVG text helpers shared by the charts. Paths use relative commands on a grid of a
 * tenth of a pixel: deltas are short, and rounding the absolute positions first means no drift.
 */

/** A coordinate with one decimal (tenth of a pixel): short, stable text. */
export function c(v: number): string {
  return tenths(Math.round(v * 10));
}

/** Text of n/10 without a leading zero ("-.3", "1.2", "40"). */
function tenths(n: number): string {
  if (n === 0) return '0';
  const sign = n < 0 ? '-' : '';
  const a = Math.abs(n);
  const int = Math.floor(a / 10);
  const frac = a % 10;
  return sign + (int === 0 ? '' : String(int)) + (frac === 0 ? '' : '.' + frac);
}

/** Joins numbers, leaving out the separator where a sign or a leading dot already separates them. */
function pair(a: string, b: string): string {
  return b[0] === '-' ? a + b : a + ',' + b;
}

/**
 * Visits the points on the tenth-of-a-pixel grid: `first` gets the absolute start, `next` the
 * delta from the previous point. Returns the last absolute x (tenths).
 */
function walk(
  xy: XY,
  px: (x: number) => number,
  py: (y: number) => number,
  first: (x: number, y: number) => void,
  next: (dx: number, dy: number) => void,
): number {
  let X = 0;
  let Y = 0;
  for (let i = 0; i < xy.x.length; i++) {
    const nx = Math.round(px(xy.x[i]!) * 10);
    const ny = Math.round(py(xy.y[i]!) * 10);
    if (i === 0) first(nx, ny);
    else next(nx - X, ny - Y);
    X = nx;
    Y = ny;
  }
  return X;
}

/** `M x,y l dx,dy …` through the points, mapped by `px` and `py`. */
export function linePath(xy: XY, px: (x: number) => number, py: (y: number) => number): string {
  let d = '';
  walk(
    xy,
    px,
    py,
    (x, y) => (d = 'M' + pair(tenths(x), tenths(y)) + 'l'),
    (dx, dy) => {
      if (dx === 0 && dy === 0) return;
      const p = pair(tenths(dx), tenths(dy));
      d += d.endsWith('l') || p[0] === '-' ? p : ' ' + p;
    },
  );
  return d.endsWith('l') ? d.slice(0, -1) : d;
}

/** A step line: each value holds until the next sample, the last one until `xEnd`. */
export function stepPath(xy: XY, px: (x: number) => number, py: (y: number) => number, xEnd: number): string {
  let d = '';
  const lastX = walk(
    xy,
    px,
    py,
    (x, y) => (d = 'M' + pair(tenths(x), tenths(y))),
    (dx, dy) => {
      if (dx !== 0) d += 'h' + tenths(dx);
      if (dy !== 0) d += 'v' + tenths(dy);
    },
  );
  const end = Math.round(px(xEnd) * 10);
  if (xy.x.length > 0 && end > lastX) d += 'h' + tenths(end - lastX);
  return d;
}
