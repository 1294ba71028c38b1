import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { perpsim, tempDir } from '../cli/cli-helpers.ts';
import { STRATEGY } from './sweep-helpers.ts';

const tmp = tempDir('perpsim-sweep-errors-');
afterAll(() => tmp.remove());

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('perpsim sweep and perpsim worker on bad input', () => {
  it('answers each bad command line with one line on stderr and exit code 2', async () => {
    const out = join(tmp.dir, 'bad');
    const cases: [string[], RegExp][] = [
      [['sweep', STRATEGY, '--grid', '{"entryBps":[3', '--out', out], /--grid is not valid JSON/],
      [['sweep', STRATEGY, '--grid', '{"entryBps":[1]}', '--out', out], /bad params: exitBps: exitBps must be below entryBps/],
      [['sweep', STRATEGY, '--grid', '{"entryBps":[3]}', '--shard', 'auto/3', '--out', out], /neither JOB_COMPLETION_INDEX nor AWS_BATCH_JOB_ARRAY_INDEX is set/],
      [['sweep', STRATEGY, '--grid', '{"entryBps":[3]}', '--queue', 'http://x', '--out', out], /redis:\/\/ or rediss:\/\/ URL/],
      [['sweep', 'merge', join(tmp.dir, 'nothing')], /is not a sweep directory/],
    ];
    const results = await Promise.all(cases.map(([args]) => perpsim(tmp.dir, ...args)));
    results.forEach((r, i) => {
      expect(r.stderr).toMatch(cases[i]![1]);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.code).toBe(2);
    });
  });

  it('gives up on an unreachable Redis with one line instead of retrying forever', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}`;
    const [sweep, worker] = await Promise.all([
      perpsim(tmp.dir, 'sweep', STRATEGY, '--grid', '{"entryBps":[3]}', '--duration', '1m', '--queue', url, '--out', join(tmp.dir, 'q')),
      perpsim(tmp.dir, 'worker', '--queue', url),
    ]);
    for (const r of [sweep, worker]) {
      expect(r.stderr).toContain(`cannot reach Redis at ${url}`);
      expect(r.code).toBe(2);
    }
  });

  it('lists a local run whose strategy throws as failed (exit 1) and keeps the others', async () => {
    const file = join(tmp.dir, 'throws.ts');
    writeFileSync(file, `export default (p: { fail: boolean }) => ({ onStart: (port: { setTimer(ns: number, fn: () => void): void }) => { if (p.fail) port.setTimer(1_000_000_000, () => { throw new Error('boom'); }); } });\n`);
    const r = await perpsim(tmp.dir, 'sweep', file, '--grid', '{"fail":[false,true]}', '--scenario', 'empty', '--duration', '10s', '--workers', '1', '--out', join(tmp.dir, 'local-fail'));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('ran 1, skipped 0 (done before), failed 1');
    expect(r.stdout).toMatch(/failed \w+: the strategy failed at 2026-01-01T00:00:01\.\d+Z: boom/);
  });
});
