/**
 * Runs the benchmarks: `npm run bench [-- [--json] [filter...]]`.
 *
 * A filter keeps the cases whose name contains it (`book` runs every book case, `book.mix`
 * just that one), plus the floor of each kept case (`BenchCase.floor`); after the table, one
 * line per case with a floor gives its ratio to the floor. With `--json` the output ends with
 * exactly one line: a JSON array of `{"name", "ops_per_sec", "heap_mb"}` entries, plus
 * `"floor", "cpu_ratio", "wall_ratio"` for a case with a floor.
 */
import { backtestCases } from './backtest.bench.ts';
import { bookCases } from './book.bench.ts';
import { cliCases } from './cli.bench.ts';
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

const allCases = [...bookCases(), ...clockCases(), ...simCases(), ...replayCases(), ...wireCases(), ...venueCases(), ...backtestCases(), ...l2ReplayCases(), ...cliCases()];
const picked = new Set(allCases.filter((c) => filters.length === 0 || filters.some((f) => c.name.includes(f))).map((c) => c.name));
// A case's floor runs with it, so its ratio is always measured in the same run.
for (const c of allCases) if (picked.has(c.name) && c.floor !== undefined) picked.add(c.floor);
const cases = allCases.filter((c) => picked.has(c.name));
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

const ratios = floorRatios(results);
if (ratios.length > 0) {
  console.log('');
  for (const r of ratios) console.log(`${r.name} / ${r.floor}: ${r.cpu.toFixed(2)}× in CPU time (fastest pass), ${r.wall.toFixed(2)}× wall`);
}

if (json) {
  const round = (x: number, digits: number): number => Number(x.toFixed(digits));
  console.log(
    JSON.stringify(
      results.map((r) => {
        const ratio = ratios.find((x) => x.name === r.name);
        const floor = ratio === undefined ? {} : { floor: ratio.floor, cpu_ratio: round(ratio.cpu, 3), wall_ratio: round(ratio.wall, 3) };
        return { name: r.name, ops_per_sec: round(r.opsPerSec, 0), heap_mb: round(r.heapMb, 1), ...floor };
      }),
    ),
  );
}

/** Each case with a floor against that floor's result of this run. */
function floorRatios(all: BenchResult[]): { name: string; floor: string; cpu: number; wall: number }[] {
  const out: { name: string; floor: string; cpu: number; wall: number }[] = [];
  for (const c of cases) {
    const mine = all.find((r) => r.name === c.name);
    const floor = all.find((r) => r.name === c.floor);
    if (mine === undefined || floor === undefined) continue;
    out.push({ name: c.name, floor: floor.name, cpu: mine.cpuOpsPerSec / floor.cpuOpsPerSec, wall: mine.opsPerSec / floor.opsPerSec });
  }
  return out;
}
