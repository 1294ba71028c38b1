/**
 * Start-up of the `perpsim` command: `node bench/cli-startup.ts` (or `npm run bench:startup`).
 * Needs the build (`npm run build`). Runs, alternating and repeated, the floor `node -e 0`, the
 * built JavaScript (dist/, what the installed package runs) and the TypeScript sources through
 * tsx (what every command ran before the build), for `--version` and for a command that loads
 * its logic (`scenarios`), and the checkout's `bin/perpsim.js --version` (answered before any
 * TypeScript loader). Prints wall and CPU time (user + sys of the child, from GNU time)
 * as min … max and median, and each case's ratio to the floor's median.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const REPEAT = Number(process.env.PERPSIM_BENCH_REPEAT ?? 10);
if (!existsSync(join(ROOT, 'dist/cli/cli.js'))) {
  console.error('bench/cli-startup: dist/ is missing: run npm run build first');
  process.exit(1);
}

const cases: [string, string[]][] = [
  ['floor: node -e 0', ['-e', '0']],
  ['dist: perpsim --version', [join(ROOT, 'dist/cli/cli.js'), '--version']],
  ['bin (checkout): perpsim --version', [join(ROOT, 'bin/perpsim.js'), '--version']],
  ['src+tsx: perpsim --version', [join(ROOT, 'src/cli/bin.js'), '--version']],
  ['dist: perpsim scenarios', [join(ROOT, 'dist/cli/cli.js'), 'scenarios']],
  ['src+tsx: perpsim scenarios', [join(ROOT, 'src/cli/bin.js'), 'scenarios']],
];

const dir = mkdtempSync(join(tmpdir(), 'perpsim-startup-'));
const timesFile = join(dir, 'time');
const samples = new Map<string, { wall: number[]; cpu: number[] }>(cases.map(([name]) => [name, { wall: [], cpu: [] }]));
try {
  for (let i = 0; i < REPEAT; i++) {
    for (const [name, args] of cases) {
      // GNU time: elapsed, user and system seconds of the child.
      const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', '-o', timesFile, process.execPath, ...args], { stdio: 'ignore' });
      if (r.status !== 0) throw new Error(`${name} exited with ${r.status}`);
      const [wall, user, sys] = readFileSync(timesFile, 'utf8').trim().split(/\s+/).map(Number) as [number, number, number];
      samples.get(name)!.wall.push(wall);
      samples.get(name)!.cpu.push(user + sys);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const floor = samples.get(cases[0]![0])!;
console.log(`${REPEAT} runs each, alternating; seconds (min … max, median); ratio = median / floor median`);
for (const [name] of cases) {
  const s = samples.get(name)!;
  const fmt = (xs: number[], f: number[]) =>
    `${Math.min(...xs).toFixed(2)} … ${Math.max(...xs).toFixed(2)} (median ${median(xs).toFixed(2)}, ×${(median(xs) / Math.max(median(f), 0.01)).toFixed(1)})`;
  console.log(`${name.padEnd(34)} wall ${fmt(s.wall, floor.wall)}   cpu ${fmt(s.cpu, floor.cpu)}`);
}
