import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The `perpsim` entry point, run with plain `node` as a user would. */
export const BIN = join(import.meta.dirname, '../../src/cli/bin.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `node src/cli/bin.js ...args` in `cwd`; resolves with exit code and output. */
export function perpsim(cwd: string, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A fresh temporary directory and the function that removes it. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
