/**
 * Runs the benchmarks: `npm run bench [-- [--json] [filter...]]`.
 *
 * A filter keeps the cases whose name contains it (`book` runs every book case, `book.mix`
 * just that one). With `--json` the output ends with exactly one line: a JSON array of
 * `{"name", "ops_per_sec", "heap_mb"}` entries.
 */
import { backtestCases } from './backtest.bench.ts';
import { bookCases } from './book.bench.ts';
import { clockCases } from './clock.bench.ts';
import { findGc, runCase, type BenchResult } from './harness.ts';
import { l2ReplayCases } from './l2-replay.bench.ts';
import { simCases } from './sim.bench.ts';
import { replayCases } from './replay.bench.ts';
import { wireCases } from './wire.bench.ts';
import { venueCases } from './venue.bench.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const filters = args.filter((a) => !a.startsWith('--'));

const cases = [...bookCases(), ...clockCases(), ...simCases(), ...replayCases(), ...wireCases(), ...venueCases(), ...backtestCases(), ...l2ReplayCases()].filter(
  (c) => filters.length === 0 || filters.some((f) => c.name.includes(f)),
);
if (cases.length === 0) {
  console.error(`no benchmark matches ${filters.join(', ')}`);
  process.exit(1);
}

const gc = findGc();
if (gc === undefined) console.log('note: gc() unavailable, heap figures include uncollected garbage');

const results: BenchResult[] = [];
for (const c of cases) {
  const r = await runCase(c, gc);
  results.push(r);
  console.log(`${r.name}: ${r.note}`);
}

const rows = results.map((r) => [
  r.name,
  Math.round(r.opsPerSec).toLocaleString('en-US'),
  r.unit,
  r.meanMs.toFixed(r.meanMs < 1 ? 4 : 1),
  `±${r.rmePct.toFixed(1)}%`,
  Number.isNaN(r.cpuOpsPerSec) ? '-' : Math.round(r.cpuOpsPerSec).toLocaleString('en-US'),
  String(r.samples),
  r.heapMb.toFixed(1),
  r.buffersMb.toFixed(1),
]);
const header = ['bench', 'ops/s', 'op', 'mean ms/run', 'rme', 'cpu ops/s', 'runs', 'heap MB', 'buffers MB'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
const line = (cells: string[]): string =>
  cells.map((cell, i) => (i === 0 || i === 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
console.log('');
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of rows) console.log(line(row));

if (json) {
  const round = (x: number, digits: number): number => Number(x.toFixed(digits));
  console.log(
    JSON.stringify(results.map((r) => ({ name: r.name, ops_per_sec: round(r.opsPerSec, 0), heap_mb: round(r.heapMb, 1) }))),
  );
}
