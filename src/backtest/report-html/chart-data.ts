import { parseTimestamp } from '../../core/time.ts';
import { drawdownFromEquity } from './drawdown.ts';
import type { ReportHtmlInput } from './input.ts';

/** A point for the charting library: [seconds since the epoch (ms resolution), value]. */
export type ChartPoint = [number, number];

/** One fill for the chart: [seconds, +1 buy / −1 sell, price, qty, 1 maker / 0 taker, fee, realized]. */
export type ChartFill = [number, 1 | -1, number, number, 0 | 1, string, string];

/** What the page's script draws; plain JSON embedded in the page. */
export interface ChartData {
  currency: string;
  symbols: { symbol: string; label: string; bid: ChartPoint[]; ask: ChartPoint[]; price: ChartPoint[]; fills: ChartFill[] }[];
  positions: { symbol: string; points: ChartPoint[] }[];
  equity: ChartPoint[];
  drawdown: ChartPoint[];
  fees: ChartPoint[];
  funding: ChartPoint[];
}

/** Integer ns or RFC 3339 text → bigint ns; a RangeError naming the field otherwise. */
export function parseTime(text: string, what: string): bigint {
  const t = /^-?\d+$/.test(text) ? BigInt(text) : parseTimestamp(text);
  if (t === undefined) throw new RangeError(`report: ${what} must be integer nanoseconds or RFC 3339, got ${JSON.stringify(text)}`);
  return t;
}

/** Seconds since the epoch at millisecond resolution (the charting library's time unit is the second). */
export function chartSeconds(tNs: bigint): number {
  return Number(tNs / 1_000_000n) / 1000;
}

function value(text: string, what: string): number {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v)) throw new RangeError(`report: ${what} is not a number: ${JSON.stringify(text)}`);
  return v;
}

/**
 * Points in time order with one value per chart time (the last one wins: the library needs
 * strictly increasing times, and two samples in the same millisecond draw as one). Points
 * outside [t0, t1] and null values are left out.
 */
function series<P>(points: readonly P[], t0: bigint, t1: bigint, time: (p: P) => string, val: (p: P) => string | null | undefined, what: string): ChartPoint[] {
  const out: ChartPoint[] = [];
  points.forEach((p, i) => {
    const t = parseTime(time(p), `${what}[${i}].tNs`);
    const v = val(p);
    if (t < t0 || t > t1 || v === null || v === undefined) return;
    const point: ChartPoint = [chartSeconds(t), value(v, `${what}[${i}]`)];
    const last = out[out.length - 1];
    if (last !== undefined && last[0] === point[0]) out[out.length - 1] = point;
    else if (last === undefined || last[0] < point[0]) out.push(point);
    else throw new RangeError(`report: ${what} is not in time order at [${i}]`);
  });
  return out;
}

/** Symbols that traded or held a position: they get chart panes; the others are folded into one line. */
export function activeSymbols(input: ReportHtmlInput): { active: string[]; idle: string[] } {
  const all: string[] = [];
  const add = (s: string) => {
    if (!all.includes(s)) all.push(s);
  };
  for (const s of input.series.prices) add(s.symbol);
  for (const s of input.series.positions) add(s.symbol);
  for (const f of input.series.fills) add(f.symbol);
  const busy = new Set(input.series.fills.map((f) => f.symbol));
  for (const s of input.series.positions) if (s.points.some((p) => Number(p.qty) !== 0)) busy.add(s.symbol);
  return { active: all.filter((s) => busy.has(s)), idle: all.filter((s) => !busy.has(s)) };
}

/** The chart data of a report; pure and deterministic (same input, same JSON). */
export function chartData(input: ReportHtmlInput, t0: bigint, t1: bigint): ChartData {
  const { active } = activeSymbols(input);
  const tOf = (p: { tNs: string }) => p.tNs;
  const symbols = active.map((symbol) => {
    const prices = input.series.prices.find((s) => s.symbol === symbol);
    const points = prices?.points ?? [];
    const what = `series.prices[${symbol}]`;
    const fills: ChartFill[] = [];
    input.series.fills.forEach((f, i) => {
      if (f.symbol !== symbol) return;
      const t = parseTime(f.tNs, `series.fills[${i}].tNs`);
      if (t < t0 || t > t1) return;
      fills.push([chartSeconds(t), f.side === 'B' ? 1 : -1, value(f.price, `series.fills[${i}].price`), value(f.qty, `series.fills[${i}].qty`), f.liquidity === 'maker' ? 1 : 0, f.fee ?? '', f.realized ?? '']);
    });
    return {
      symbol,
      label: prices?.label ?? 'price',
      bid: series(points, t0, t1, tOf, (p) => p.bid, `${what}.bid`),
      ask: series(points, t0, t1, tOf, (p) => p.ask, `${what}.ask`),
      price: series(points, t0, t1, tOf, (p) => p.price, `${what}.price`),
      fills,
    };
  });
  const positions = active.flatMap((symbol) => {
    const pos = input.series.positions.find((s) => s.symbol === symbol);
    return pos === undefined ? [] : [{ symbol, points: series(pos.points, t0, t1, tOf, (p) => p.qty, `series.positions[${symbol}]`) }];
  });
  const drawdown = input.series.drawdown ?? drawdownFromEquity(input.series.equity);
  return {
    currency: input.currency ?? '',
    symbols,
    positions,
    equity: series(input.series.equity, t0, t1, tOf, (p) => p.equity, 'series.equity'),
    drawdown: series(drawdown, t0, t1, tOf, (p) => p.drawdown, 'series.drawdown'),
    fees: series(input.series.fees ?? [], t0, t1, tOf, (p) => p.value, 'series.fees'),
    funding: series(input.series.fundingPnl ?? [], t0, t1, tOf, (p) => p.value, 'series.fundingPnl'),
  };
}

/** JSON safe to put inside a `<script type="application/json">` element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
