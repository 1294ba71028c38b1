/**
 * Start-up of the `perpsim` command: `node bench/cli-startup.ts` (or `npm run bench:startup`).
 * Needs the build (`npm run build`). Runs, alternating and repeated, the floor `node -e 0`, the
 * built JavaScript (dist/, what the installed package runs) and the TypeScript sources through
 * tsx (what every command ran before the build), for `--version` and for a command that loads
 * its logic (`scenarios`), and the checkout's `bin/perpsim.js --version` (answered before any
 * TypeScript loader). Prints wall and CPU time (user + sys of the child, from GNU time)
 * as min … max and median, and each case's ratio to the floor's median. `npm run bench --
 * cli.version` prints the built `--version` against the same floor beside the other targets.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_CLI, describeSeconds, NODE_FLOOR, ROOT, startupSamples, type StartupCase } from './cli-startup-runs.ts';

const REPEAT = Number(process.env.PERPSIM_BENCH_REPEAT ?? 10);
if (!existsSync(BUILT_CLI)) {
  console.error('bench/cli-startup: dist/ is missing: run npm run build first');
  process.exit(1);
}

const cases: StartupCase[] = [
  NODE_FLOOR,
  ['dist: perpsim --version', [BUILT_CLI, '--version']],
  ['bin (checkout): perpsim --version', [join(ROOT, 'bin/perpsim.js'), '--version']],
  ['src+tsx: perpsim --version', [join(ROOT, 'src/cli/bin.js'), '--version']],
  ['dist: perpsim scenarios', [BUILT_CLI, 'scenarios']],
  ['src+tsx: perpsim scenarios', [join(ROOT, 'src/cli/bin.js'), 'scenarios']],
];

const samples = startupSamples(cases, REPEAT);
const floor = samples.get(NODE_FLOOR[0])!;
console.log(`${REPEAT} runs each, alternating; seconds (min … max, median); ratio = median / floor median`);
for (const [name] of cases) {
  const s = samples.get(name)!;
  console.log(`${name.padEnd(34)} wall ${describeSeconds(s.wall, floor.wall)}   cpu ${describeSeconds(s.cpu, floor.cpu)}`);
}
