import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseServeArgs } from '../../src/cli/commands/serve.ts';
import { startServing } from '../../src/cli/serve-command.ts';
import { BIN, tempDir } from './cli-helpers.ts';

const ROOT = join(import.meta.dirname, '../..');

/** Resolves with the exit code; kills the child if it has not exited within `ms` (the test then fails). */
function exitOf(child: ChildProcess, ms: number): Promise<number | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** True when nothing accepts TCP connections on 127.0.0.1:port. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('GET /health', () => {
  it('answers without auth with status, scenario and sim time, on both ports, and follows the clock', async () => {
    const serving = await startServing(parseServeArgs(['--scenario', 'empty', '--port', '0', '--app-port', '0', '--manual', '--admin-token', 'T'], {}), { scryptCost: 1024 });
    try {
      const res = await fetch(`${serving.server.url}/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        status: 'ok',
        scenario: 'empty',
        sim_time: '2026-01-01T00:00:00.000000000Z',
        sim_time_ns: '1767225600000000000',
        clock: { speed: 1, paused: true },
      });
      const advanced = await fetch(`${serving.server.url}/admin/clock/advance`, { method: 'POST', headers: { authorization: 'Bearer T', 'content-type': 'application/json' }, body: '{"seconds":90}' });
      expect(advanced.status).toBe(200);
      const later = (await (await fetch(`${serving.server.appUrl}/health`)).json()) as { sim_time: string };
      expect(later.sim_time).toBe('2026-01-01T00:01:30.000000000Z');
    } finally {
      await serving.close();
    }
  });
});

describe('perpsim serve for test suites', () => {
  const tmp = tempDir('perpsim-serve-ci-');
  afterAll(() => tmp.remove());

  it('with --json prints one JSON line with the URLs and admin token, writes --port-file, removes it at the end', { timeout: 60_000 }, async () => {
    const portFile = join(tmp.dir, 'port');
    const child = spawn(process.execPath, [BIN, 'serve', '--scenario', 'empty', '--manual', '--port', '0', '--port-file', portFile, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = exitOf(child, 50_000);
    try {
      await vi.waitFor(() => expect(stdout).toContain('\n'), { timeout: 40_000, interval: 50 });
      const info = JSON.parse(stdout.split('\n')[0]!) as { rest: string; ws: string; app: string; port: number; admin_token: string; scenario: string; users: { username: string }[] };
      expect(info.rest).toBe(`http://127.0.0.1:${info.port}`);
      expect(info.ws).toBe(`ws://127.0.0.1:${info.port}`);
      expect(info.app).toBe(info.rest);
      expect(info.scenario).toBe('empty');
      expect(info.users.map((u) => u.username)).toEqual(['alice', 'bob']);
      expect(readFileSync(portFile, 'utf8')).toBe(`${info.port}\n`);
      const clock = await fetch(`${info.rest}/admin/clock`, { headers: { authorization: `Bearer ${info.admin_token}` } });
      expect(clock.status).toBe(200);
      expect((await fetch(`${info.rest}/health`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stdout.trimEnd().split('\n')).toHaveLength(1); // the human messages went to stderr
    expect(existsSync(portFile)).toBe(false);
  });

  it('npm start passes a signal to the server: killing the npm process frees the port', { timeout: 90_000 }, async () => {
    const portFile = join(tmp.dir, 'npm-port');
    const npm = spawn('npm', ['start', '--silent', '--', '--scenario', 'empty', '--manual', '--port', '0', '--port-file', portFile], { cwd: ROOT, stdio: 'ignore' });
    const exited = exitOf(npm, 80_000);
    let port = 0;
    try {
      await vi.waitFor(() => expect(existsSync(portFile)).toBe(true), { timeout: 60_000, interval: 100 });
      port = Number(readFileSync(portFile, 'utf8'));
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    } finally {
      npm.kill('SIGTERM'); // the npm process, not the server
    }
    await exited;
    await vi.waitFor(async () => expect(await portIsFree(port)).toBe(true), { timeout: 10_000, interval: 100 });
  });
});
