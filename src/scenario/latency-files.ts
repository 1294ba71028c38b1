import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { parseTimestamp } from '../core/time.ts';
import type { LatencyModelSpec } from './latency-schema.ts';
import type { Scenario } from './schema.ts';

/** One recorded latency as a scenario carries it: `ts` integer ns or RFC 3339, latency in ns. */
export interface LatencySeriesPoint {
  ts: string;
  latencyNs: number;
}

/**
 * Reads a recorded latency series: a CSV file with a header row naming `ts` (integer ns since
 * the epoch, or RFC 3339 text) and `latency_ns` (a non-negative integer); other columns are
 * ignored, rows need not be sorted. Throws an Error naming the file and the row on anything else.
 */
export function readLatencySeries(file: string): LatencySeriesPoint[] {
  const rows: Record<string, string>[] = parse(readFileSync(file, 'utf8'), { columns: true, skip_empty_lines: true, trim: true });
  if (rows.length === 0) throw new Error(`${file}: no rows (expected a header ts,latency_ns and at least one row)`);
  return rows.map((row, i) => {
    const ts = row['ts'];
    const latency = row['latency_ns'];
    if (ts === undefined || latency === undefined) throw new Error(`${file}: the header must name the columns ts and latency_ns`);
    if (!/^\d+$/.test(ts) && parseTimestamp(ts) === undefined) throw new Error(`${file}: row ${i + 1}: ts must be integer ns since the epoch or an RFC 3339 date-time, got ${JSON.stringify(ts)}`);
    if (!/^\d+$/.test(latency) || !Number.isSafeInteger(Number(latency))) throw new Error(`${file}: row ${i + 1}: latency_ns must be a non-negative integer, got ${JSON.stringify(latency)}`);
    return { ts, latencyNs: Number(latency) };
  });
}

/** `spec` with a series' file read (relative to `baseDir`); any other spec as it is. */
export function resolveLatencySpec<T extends LatencyModelSpec | undefined>(spec: T, baseDir: string): T {
  if (spec === undefined || !('kind' in spec) || spec.kind !== 'series' || spec.points !== undefined || spec.file === undefined) return spec;
  const path = isAbsolute(spec.file) ? spec.file : join(baseDir, spec.file);
  return { ...spec, points: readLatencySeries(path) };
}

/**
 * Reads the files of every latency series the scenario names (its defaults, its agent groups',
 * its replay's market data); relative paths start at `baseDir`. Returns a new scenario.
 */
export function resolveLatencyFiles(scenario: Scenario, baseDir: string): Scenario {
  const both = <L extends { order?: LatencyModelSpec | undefined; marketData?: LatencyModelSpec | undefined } | undefined>(l: L): L =>
    l === undefined ? l : { ...l, order: resolveLatencySpec(l.order, baseDir), marketData: resolveLatencySpec(l.marketData, baseDir) };
  const out: Scenario = { ...scenario, latency: both(scenario.latency), agents: scenario.agents.map((a) => (a.latency === undefined ? a : { ...a, latency: both(a.latency) })) };
  const replay = scenario.market?.replay;
  if (replay !== undefined && replay.latency.marketData !== 'recorded') {
    out.market = { replay: { ...replay, latency: { marketData: resolveLatencySpec(replay.latency.marketData, baseDir) } } };
  }
  return out;
}
