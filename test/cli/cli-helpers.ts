import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';

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

/**
 * Runs `perpsim ...args` in this process (the program's `main`), capturing what it writes to
 * stdout and stderr: faster than a child process, for tests of parsing and messages.
 */
export async function cliInProcess(...args: string[]): Promise<CliResult> {
  const { main } = await import('../../src/cli/main.ts'); // only the tests that use it load the CLI
  let stderr = '';
  let stdout = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((text) => ((stderr += String(text)), true));
  vi.spyOn(process.stdout, 'write').mockImplementation((text) => ((stdout += String(text)), true));
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}
