/**
 * Start-up samples of the `perpsim` command against the floor `node -e 0`, shared by
 * `bench/cli-startup.ts` (every way of starting it) and the `cli.version` case of
 * `npm run bench`. Each run is a whole child process timed by GNU time (elapsed, and the
 * child's own user + system seconds), the cases alternated run by run so every case sees the
 * same machine.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './harness.ts';

export const ROOT = join(import.meta.dirname, '..');
/** The built CLI, what the installed package runs (`npm run build` makes it). */
export const BUILT_CLI = join(ROOT, 'dist/cli/cli.js');

/** A case: its label and node's arguments. */
export type StartupCase = readonly [name: string, args: readonly string[]];

export const NODE_FLOOR: StartupCase = ['floor: node -e 0', ['-e', '0']];

/** Seconds of each run of one case. */
export interface StartupSamples {
  wall: number[];
  cpu: number[];
}

/** `repeat` runs of every case, alternating; throws when a child exits non-zero. */
export function startupSamples(cases: readonly StartupCase[], repeat: number): Map<string, StartupSamples> {
  const dir = mkdtempSync(join(tmpdir(), 'perpsim-startup-'));
  const timesFile = join(dir, 'time');
  const samples = new Map<string, StartupSamples>(cases.map(([name]) => [name, { wall: [], cpu: [] }]));
  try {
    for (let i = 0; i < repeat; i++) {
      for (const [name, args] of cases) {
        const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', '-o', timesFile, process.execPath, ...args], { stdio: 'ignore' });
        if (r.error !== undefined) throw new Error(`${name}: cannot run /usr/bin/time (GNU time): ${r.error.message}`);
        if (r.status !== 0) throw new Error(`${name} exited with ${r.status}`);
        const [wall, user, sys] = readFileSync(timesFile, 'utf8').trim().split(/\s+/).map(Number) as [number, number, number];
        samples.get(name)!.wall.push(wall);
        samples.get(name)!.cpu.push(user + sys);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return samples;
}

/** `min … max (median m, ×ratio to the floor's median)`; GNU time's 10 ms resolution bounds the floor below. */
export function describeSeconds(xs: readonly number[], floor: readonly number[]): string {
  return `${Math.min(...xs).toFixed(2)} … ${Math.max(...xs).toFixed(2)} (median ${median(xs).toFixed(2)}, ×${(median(xs) / Math.max(median(floor), 0.01)).toFixed(1)})`;
}

