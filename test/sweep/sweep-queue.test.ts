import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { perpsim, tempDir } from '../cli/cli-helpers.ts';
import { start, SWEEP_ARGS, until, type Running } from './sweep-helpers.ts';

/**
 * The BullMQ executor end to end: a real redis-server on a loopback port the test picks, two
 * `perpsim worker` processes, one SIGKILLed in the middle of a run. CI installs redis-server
 * (.ci/run), so there a missing server is a failure; elsewhere the test is skipped, loudly.
 */
const HAVE_REDIS = spawnSync('redis-server', ['--version']).status === 0;
const IN_CI = Boolean(process.env.CI);
if (!HAVE_REDIS && !IN_CI) console.warn('BullMQ sweep test skipped: redis-server not found (apt-get install -y redis-server to run it; CI does)');

const tmp = tempDir('perpsim-sweep-queue-');
let redis: ChildProcess | undefined;
const workers: Running[] = [];
let url = '';

/** A free loopback port: bind port 0, read it, release it. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startRedis(): Promise<void> {
  const port = await freePort();
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  redis.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await until(() => out.includes('Ready to accept connections') || redis!.exitCode !== null, 'redis-server to start', 20_000);
  if (redis.exitCode !== null) throw new Error(`redis-server exited: ${out}`);
  url = `redis://127.0.0.1:${port}`;
}

afterAll(async () => {
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  if (redis !== undefined && redis.exitCode === null) {
    redis.kill('SIGTERM');
    await new Promise((r) => redis!.once('exit', r));
  }
  tmp.remove();
});

describe.skipIf(!HAVE_REDIS && !IN_CI)('perpsim sweep --queue (BullMQ on Redis)', () => {
  beforeAll(startRedis, 30_000);

  it('finishes every run exactly once, equal to the local result, when a worker is SIGKILLed mid-run', async () => {
    const local = await perpsim(tmp.dir, 'sweep', ...SWEEP_ARGS, '--workers', '2', '--out', join(tmp.dir, 'local'));
    expect(local.code).toBe(0);

    // Short locks so the killed worker's run is taken over within seconds.
    const workerArgs = ['worker', '--queue', url, '--queue-name', 'fault-test', '--lock-duration', '2s'];
    const a = start(workerArgs, tmp.dir);
    const b = start(workerArgs, tmp.dir);
    workers.push(a, b);
    await until(() => a.stdout().includes('perpsim worker:') && b.stdout().includes('perpsim worker:'), 'both workers to connect');

    const sweep = start(['sweep', ...SWEEP_ARGS, '--queue', url, '--queue-name', 'fault-test', '--retries', '2', '--out', join(tmp.dir, 'queued')], tmp.dir);
    // Kill worker A while it is in a run (it started one and has not finished it).
    await until(() => /started (\w+)/.test(a.stdout()), 'worker A to start a run');
    const killedRun = /started (\w+)/.exec(a.stdout())![1]!;
    a.child.kill('SIGKILL');
    await a.exited;
    const doneByA = [...a.stdout().matchAll(/^done (\w+)$/gm)].map((m) => m[1]);

    const exit = await sweep.exited;
    expect(sweep.stdout()).toContain('ran 12, skipped 0 (done before), failed 0');
    expect(exit.code).toBe(0);

    // Every run completed exactly once across both workers; the killed run was taken over by B.
    const doneByB = [...b.stdout().matchAll(/^done (\w+)$/gm)].map((m) => m[1]);
    const all = [...doneByA, ...doneByB].sort();
    expect(new Set(all).size).toBe(12);
    expect(all).toHaveLength(12);
    // A's first run loads the strategy and the simulator in a fresh child (seconds): it was killed in it.
    expect(doneByA).not.toContain(killedRun);
    expect(doneByB).toContain(killedRun);
    expect(b.stdout()).toContain(`started ${killedRun}`);

    const queued = readFileSync(join(tmp.dir, 'queued', 'results.arrow'));
    expect(queued.equals(readFileSync(join(tmp.dir, 'local', 'results.arrow')))).toBe(true);
    expect(existsSync(join(tmp.dir, 'queued', 'sweep.html'))).toBe(true);

    b.child.kill('SIGTERM');
    expect((await b.exited).code).toBe(0);
  }, 180_000);

  it('lists a run that fails every attempt as failed instead of dropping it', async () => {
    const bad = join(tmp.dir, 'failing.ts');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(bad, `export default (p: { failOn: number }) => ({ onStart: async (port: { now(): bigint; setTimer(ns: number, fn: () => void): void }) => { if (p.failOn === 1) port.setTimer(1_000_000_000, () => { throw new Error('boom'); }); } });\n`);
    const w = start(['worker', '--queue', url, '--queue-name', 'fail-test', '--lock-duration', '2s'], tmp.dir);
    workers.push(w);
    const r = await perpsim(tmp.dir, 'sweep', bad, '--grid', '{"failOn":[0,1]}', '--scenario', 'empty', '--duration', '10s', '--queue', url, '--queue-name', 'fail-test', '--retries', '1', '--out', join(tmp.dir, 'failing'));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('ran 1, skipped 0 (done before), failed 1');
    expect(r.stdout).toMatch(/failed \w+: .*boom.* \(after 2 attempts\)/);
    expect([...w.stdout().matchAll(/^failed /gm)]).toHaveLength(2);
    w.child.kill('SIGTERM');
    await w.exited;
  }, 120_000);
});
