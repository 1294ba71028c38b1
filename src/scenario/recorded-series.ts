import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Scenario } from './schema.ts';

/** One recorded index observation as a scenario carries it. */
export interface RecordedPoint {
  /** Unix seconds, or RFC 3339 text. */
  time: number | string;
  price: number;
}

/**
 * Reads a recorded index series: a CSV file with a header row naming `time` and `price`
 * columns (other columns are ignored), or a JSON file holding an array of `{time, price}`.
 * Times are Unix seconds or RFC 3339 text; prices positive numbers. Throws an Error naming the
 * file and the row on anything else.
 */
export function readIndexSeries(file: string): RecordedPoint[] {
  const text = readFileSync(file, 'utf8');
  const rows: Record<string, unknown>[] = file.toLowerCase().endsWith('.json') ? jsonRows(text, file) : parse(text, { columns: true, skip_empty_lines: true, trim: true });
  return rows.map((row, i) => {
    const rawTime = row['time'];
    const rawPrice = row['price'];
    const price = typeof rawPrice === 'number' ? rawPrice : Number(rawPrice);
    if (!(price > 0)) throw new Error(`${file}: row ${i + 1}: price must be a positive number, got ${JSON.stringify(rawPrice)}`);
    let time: number | string;
    if (typeof rawTime === 'number') time = rawTime;
    else if (typeof rawTime === 'string' && /^\d+(\.\d+)?$/.test(rawTime)) time = Number(rawTime);
    else if (typeof rawTime === 'string' && rawTime.length > 0) time = rawTime;
    else throw new Error(`${file}: row ${i + 1}: time must be Unix seconds or an RFC 3339 date-time, got ${JSON.stringify(rawTime)}`);
    return { time, price };
  });
}

function jsonRows(text: string, file: string): Record<string, unknown>[] {
  const data: unknown = JSON.parse(text);
  if (!Array.isArray(data)) throw new Error(`${file}: expected a JSON array of {time, price}`);
  return data as Record<string, unknown>[];
}

/**
 * Replaces every recorded index that names a `file` (and has no inline `points`) by the file's
 * points; relative paths start at `baseDir` (the scenario file's folder). Returns a new
 * scenario; the input is not changed.
 */
export function resolveRecordedIndexes(scenario: Scenario, baseDir: string): Scenario {
  const resolve = <T extends Scenario['index']>(spec: T): T => {
    if (spec === undefined || spec.kind !== 'recorded' || spec.points !== undefined || spec.file === undefined) return spec;
    const path = isAbsolute(spec.file) ? spec.file : join(baseDir, spec.file);
    return { ...spec, points: readIndexSeries(path) };
  };
  return {
    ...scenario,
    index: resolve(scenario.index),
    instruments: scenario.instruments.map((i) => (i.index === undefined ? i : { ...i, index: resolve(i.index) })),
  };
}
