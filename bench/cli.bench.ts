/**
 * `cli.version`: `perpsim --version` as a whole process, the start-up every CLI command pays
 * (issue 11's target: ≤ 0.3 s), alternated run by run with its floor `node -e 0` in the same
 * pass. It runs the built CLI (dist/, what the installed package runs) when `npm run build` has
 * made it, else the checkout's `bin/perpsim.js` (which answers `--version` before loading any
 * TypeScript) and says which. One op = one process started and ended; the note gives both
 * medians and their ratio, wall and CPU (the child's user + system, from GNU time).
 * `npm run bench:startup` runs every way of starting it (sources through tsx, `scenarios`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_CLI, describeSeconds, NODE_FLOOR, ROOT, startupSamples, type StartupCase, type StartupSamples } from './cli-startup-runs.ts';
import { median, type BenchCase } from './harness.ts';

const REPEAT = Number(process.env.PERPSIM_BENCH_REPEAT ?? 10);
const TARGET_S = 0.3;

export function cliCases(): BenchCase[] {
  let measured: { cli: StartupCase; samples: StartupSamples; floor: StartupSamples } | undefined;
  const cli = (): StartupCase => (existsSync(BUILT_CLI) ? ['dist: perpsim --version', [BUILT_CLI, '--version']] : ['bin (checkout, no dist/): perpsim --version', [join(ROOT, 'bin/perpsim.js'), '--version']]);
  return [
    {
      name: 'cli.version',
      floor: 'node -e 0',
      unit: 'start',
      opsPerRun: REPEAT,
      iterations: 1,
      timeMs: 0,
      warmupIterations: 0,
      gcBetweenRuns: false,
      async: true,
      prepare() {},
      reset() {},
      async run() {
        const which = cli();
        const samples = startupSamples([NODE_FLOOR, which], REPEAT);
        measured = { cli: which, samples: samples.get(which[0])!, floor: samples.get(NODE_FLOOR[0])! };
      },
      release() {},
      dispose() {},
      describe() {
        if (measured === undefined) return 'no run';
        const { cli: which, samples: s, floor: f } = measured;
        return `${which[0]}, ${REPEAT} runs alternated with node -e 0: wall ${describeSeconds(s.wall, f.wall)}, cpu ${describeSeconds(s.cpu, f.cpu)}; floor wall median ${median(f.wall).toFixed(2)} s (target ≤ ${TARGET_S} s: ${median(s.wall) <= TARGET_S ? 'met' : 'not met'})`;
      },
      rates() {
        if (measured === undefined) return undefined;
        return { opsPerSec: 1 / Math.max(median(measured.samples.wall), 0.01), cpuOpsPerSec: 1 / Math.max(median(measured.samples.cpu), 0.01) };
      },
    },
  ];
}
