import { Float64, Table, Utf8, makeVector, tableToIPC, vectorFromArray } from 'apache-arrow';
import { join } from 'node:path';
import { canonicalJson } from './canonical-json.ts';
import { writeAtomic } from './manifest.ts';
import type { SweepPlan } from './plan.ts';
import type { RunStore } from './run-store.ts';

/** One row of results.arrow / results.csv: a finished run. */
export interface ResultRow {
  id: string;
  seed: number;
  /** Params after the schema's defaults. */
  params: Record<string, unknown>;
  state_hash: string;
  /** report.json's metrics: exact money as decimal text, ratios as numbers, null when undefined. */
  metrics: Record<string, unknown>;
}

/** The rows of the plan's finished runs, sorted by id (so any executor gives the same order). */
export function resultRows(plan: SweepPlan, store: RunStore): ResultRow[] {
  return plan.runs
    .filter((r) => store.has(r.id))
    .map((r) => {
      const report = store.report(r.id);
      const params = report.params !== null && typeof report.params === 'object' ? (report.params as Record<string, unknown>) : { value: report.params };
      return { id: r.id, seed: report.seed, params, state_hash: report.state_hash, metrics: report.metrics as unknown as Record<string, unknown> };
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A column of the results: its name and each row's value (number, text or null). */
interface Column {
  name: string;
  values: (number | string | null)[];
}

/**
 * The columns: `id`, `seed`, `params` (canonical JSON), `param.<key>` for every top-level
 * param, `state_hash`, then every metric. Objects become canonical JSON text.
 */
function columns(rows: readonly ResultRow[]): Column[] {
  const paramKeys = [...new Set(rows.flatMap((r) => Object.keys(r.params)))].sort();
  const metricKeys = [...new Set(rows.flatMap((r) => Object.keys(r.metrics)))];
  const cell = (v: unknown): number | string | null => (v === undefined || v === null ? null : typeof v === 'number' || typeof v === 'string' ? v : canonicalJson(v));
  return [
    { name: 'id', values: rows.map((r) => r.id) },
    { name: 'seed', values: rows.map((r) => r.seed) },
    { name: 'params', values: rows.map((r) => canonicalJson(r.params)) },
    ...paramKeys.map((k) => ({ name: `param.${k}`, values: rows.map((r) => cell(r.params[k])) })),
    { name: 'state_hash', values: rows.map((r) => r.state_hash) },
    ...metricKeys.map((k) => ({ name: k, values: rows.map((r) => cell(r.metrics[k])) })),
  ];
}

/** A column whose values are all numbers (or null) is Float64; any other is Utf8. */
function isNumeric(c: Column): boolean {
  return c.values.every((v) => v === null || typeof v === 'number') && c.values.some((v) => v !== null);
}

/** results.arrow: an Arrow IPC file, one row per run. */
export function resultsArrow(rows: readonly ResultRow[]): Uint8Array {
  const vectors: Record<string, ReturnType<typeof makeVector>> = {};
  for (const c of columns(rows)) {
    vectors[c.name] = isNumeric(c) ? vectorFromArray(c.values as (number | null)[], new Float64()) : vectorFromArray(c.values.map((v) => (v === null ? null : String(v))), new Utf8());
  }
  return tableToIPC(new Table(vectors), 'file');
}

/** results.csv: the same columns; empty cell for null, RFC 4180 quoting. */
export function resultsCsv(rows: readonly ResultRow[]): string {
  const cols = columns(rows);
  const lines = [cols.map((c) => csvCell(c.name)).join(',')];
  for (let i = 0; i < rows.length; i++) lines.push(cols.map((c) => csvCell(c.values[i] ?? null)).join(','));
  return `${lines.join('\n')}\n`;
}

function csvCell(v: number | string | null): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Writes DIR/results.arrow and DIR/results.csv for the plan's finished runs. */
export function writeResults(dir: string, plan: SweepPlan, store: RunStore): ResultRow[] {
  const rows = resultRows(plan, store);
  writeAtomic(join(dir, 'results.arrow'), resultsArrow(rows));
  writeAtomic(join(dir, 'results.csv'), resultsCsv(rows));
  return rows;
}
