import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { BIN } from '../cli/cli-helpers.ts';

/** The 12-run sweep of the tests: momentum on `default`, 2 × 3 params sets × 2 seeds, 1 min each. */
export const STRATEGY = join(import.meta.dirname, '../../examples/momentum.ts');
export const SWEEP_ARGS = [STRATEGY, '--grid', '{"lookbackSec":[30,60],"entryBps":[3,4,6]}', '--seeds', '1..2', '--duration', '1m'];

/** A running `perpsim` process with its output so far. */
export interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node src/cli/bin.js ...args` and collects its output. */
export function start(args: string[], cwd: string): Running {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Polls `check` every 50 ms until it is true; fails after `limitMs` (a bound so a broken run cannot hang the suite). */
export async function until(check: () => boolean, what: string, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
