import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { endQuietlyWhenStdoutCloses, EXIT_BROKEN_PIPE } from '../../src/cli/closed-stdout.ts';
import { BIN } from './cli-helpers.ts';

/** Runs perpsim with its stdout pipe closed before it writes anything; resolves with its end. */
function withClosedStdout(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Closed at once: the command takes ~0.3 s to load, so its first write finds the pipe gone.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

describe('a reader that closes perpsim’s stdout early', () => {
  it('ends the command with status 141 and nothing on stderr, not an EPIPE stack trace', async () => {
    for (const args of [['scenarios'], ['--version']]) {
      const r = await withClosedStdout(args);
      expect({ args, code: r.code, signal: r.signal, stderr: r.stderr }).toEqual({ args, code: EXIT_BROKEN_PIPE, signal: null, stderr: '' });
    }
  });

  it('exits only on EPIPE and lets any other stdout error through', () => {
    const stdout = new EventEmitter();
    const exits: number[] = [];
    endQuietlyWhenStdoutCloses(stdout, (code) => exits.push(code));
    stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(exits).toEqual([EXIT_BROKEN_PIPE]);
    const other = Object.assign(new Error('write EIO'), { code: 'EIO' });
    expect(() => stdout.emit('error', other)).toThrow(other);
    expect(exits).toEqual([EXIT_BROKEN_PIPE]);
  });
});
