import { Decimal } from 'decimal.js';
import { canonicalJson } from './canonical-json.ts';
import type { ResultRow } from './results.ts';

/** Mean and spread of one metric over the seeds of a params set (exact decimals, then rounded). */
export interface MetricStats {
  /** Seeds with a defined value (null metrics are left out). */
  n: number;
  mean: Decimal | null;
  /** Sample standard deviation (n − 1); 0 for one seed. */
  sd: Decimal | null;
  min: Decimal | null;
  max: Decimal | null;
  /** Each seed's value, in seed order. */
  values: { seed: number; value: Decimal }[];
}

/** A params set with its runs over seeds. */
export interface ParamsGroup {
  key: string;
  params: Record<string, unknown>;
  rows: ResultRow[];
}

/** The value of a metric in a row as an exact decimal (money is decimal text), or null. */
export function metricValue(row: ResultRow, metric: string): Decimal | null {
  const v = row.metrics[metric];
  if (typeof v === 'number' && Number.isFinite(v)) return new Decimal(v);
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return new Decimal(v);
  return null;
}

/** Metrics that have a numeric value in some row, in report order. */
export function numericMetrics(rows: readonly ResultRow[]): string[] {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r.metrics)))];
  return keys.filter((k) => rows.some((r) => metricValue(r, k) !== null));
}

/** Rows grouped by params (canonical JSON), groups in key order, rows by seed. */
export function groupByParams(rows: readonly ResultRow[]): ParamsGroup[] {
  const groups = new Map<string, ParamsGroup>();
  for (const row of rows) {
    const key = canonicalJson(row.params);
    let g = groups.get(key);
    if (g === undefined) groups.set(key, (g = { key, params: row.params, rows: [] }));
    g.rows.push(row);
  }
  for (const g of groups.values()) g.rows.sort((a, b) => a.seed - b.seed);
  return [...groups.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export function metricStats(rows: readonly ResultRow[], metric: string): MetricStats {
  const values = rows.flatMap((r) => {
    const value = metricValue(r, metric);
    return value === null ? [] : [{ seed: r.seed, value }];
  });
  const n = values.length;
  if (n === 0) return { n, mean: null, sd: null, min: null, max: null, values };
  const sum = values.reduce((s, v) => s.plus(v.value), new Decimal(0));
  const mean = sum.div(n);
  const ss = values.reduce((s, v) => s.plus(v.value.minus(mean).pow(2)), new Decimal(0));
  const sd = n < 2 ? new Decimal(0) : ss.div(n - 1).sqrt();
  const min = Decimal.min(...values.map((v) => v.value));
  const max = Decimal.max(...values.map((v) => v.value));
  return { n, mean, sd, min, max, values };
}

/** A params set ranked by the mean of a metric over its seeds. */
export interface RankedGroup extends ParamsGroup {
  rank: number;
  stats: MetricStats;
}

/**
 * Ranks params sets by the mean of `metric` over seeds (highest first; `ascending` for
 * metrics where lower is better), never by a single lucky seed. Ties and undefined means
 * (last) fall back to the params' order.
 */
export function rankGroups(rows: readonly ResultRow[], metric: string, ascending = false): RankedGroup[] {
  const ranked = groupByParams(rows).map((g) => ({ ...g, rank: 0, stats: metricStats(g.rows, metric) }));
  ranked.sort((a, b) => {
    if (a.stats.mean === null || b.stats.mean === null) return (a.stats.mean === null ? 1 : 0) - (b.stats.mean === null ? 1 : 0);
    const c = a.stats.mean.comparedTo(b.stats.mean);
    return ascending ? c : -c;
  });
  ranked.forEach((g, i) => (g.rank = i + 1));
  return ranked;
}

/** The params whose value differs between groups (what the sweep varied), sorted. */
export function variedParams(groups: readonly ParamsGroup[]): string[] {
  const keys = [...new Set(groups.flatMap((g) => Object.keys(g.params)))].sort();
  return keys.filter((k) => new Set(groups.map((g) => canonicalJson(g.params[k] ?? null))).size > 1);
}
