/**
 * The local sweep pool's speed-up: `node --import tsx bench/sweep.bench.ts [--duration 10m]
 * [--repeats 2]` runs the same 24-run sweep (momentum on `default`, 3 × 4 params sets × 2
 * seeds) into fresh directories with 1 and 2 worker threads, alternating 1, 2, 1, 2, … so
 * both see the same load on a shared machine, and prints wall and CPU time per pass, runs/s,
 * and the ratio of the 2-worker throughput to the 1-worker floor measured in the same run.
 * The results of every pass must be byte-identical (checked), or the figure means nothing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDuration } from '../src/core/time.ts';
import { expandGrid } from '../src/sweep/grid.ts';
import { localPool } from '../src/sweep/local-pool.ts';
import { absoluteSpec, planSweep } from '../src/sweep/plan.ts';
import { runSweep } from '../src/sweep/run-sweep.ts';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1]!;
};
const duration = parseDuration(arg('duration', '10m'))!;
const repeats = Number(arg('repeats', '2'));

const spec = absoluteSpec({ strategyFile: join(import.meta.dirname, '../examples/momentum.ts'), scenario: 'default', durationNs: duration.toString() });
const plan = await planSweep(spec, expandGrid('{"lookbackSec":[30,60,120],"entryBps":[3,4,6,8]}'), [1, 2]);
console.log(`sweep.local: ${plan.runs.length} runs of ${arg('duration', '10m')} (momentum on default), workers 1 and 2 alternating, ${repeats} passes each`);

const passes: { workers: number; wallS: number; cpuS: number }[] = [];
let reference: Buffer | undefined;
for (let i = 0; i < repeats; i++) {
  for (const workers of [1, 2]) {
    const dir = mkdtempSync(join(tmpdir(), 'perpsim-sweep-bench-'));
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const outcome = await runSweep(plan, dir, localPool(workers));
    const wallS = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuS = (cpu.user + cpu.system) / 1e6;
    if (outcome.ran !== plan.runs.length || outcome.failed.length > 0) throw new Error(`pass ran ${outcome.ran} runs, ${outcome.failed.length} failed`);
    const bytes = readFileSync(join(dir, 'results.arrow'));
    reference ??= bytes;
    if (!bytes.equals(reference)) throw new Error('results.arrow differs between passes');
    rmSync(dir, { recursive: true, force: true });
    passes.push({ workers, wallS, cpuS });
    console.log(`  workers ${workers}: ${wallS.toFixed(1)} s wall, ${cpuS.toFixed(1)} s CPU (all threads), ${(plan.runs.length / wallS).toFixed(2)} runs/s`);
  }
}
const range = (xs: number[], digits = 1) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
const of = (w: number) => passes.filter((p) => p.workers === w);
const ratios = of(2).map((p, i) => of(1)[i]!.wallS / p.wallS);
const cpuRatios = of(2).map((p, i) => p.cpuS / of(1)[i]!.cpuS);
console.log(`sweep.local: 1 worker ${range(of(1).map((p) => p.wallS))} s, 2 workers ${range(of(2).map((p) => p.wallS))} s wall`);
console.log(`sweep.local: 2 workers over the 1-worker floor (pass by pass): ${range(ratios, 2)}× throughput, ${range(cpuRatios, 2)}× CPU time; results byte-identical in every pass`);
