import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { perpsim, tempDir } from '../cli/cli-helpers.ts';
import { start, SWEEP_ARGS, until } from './sweep-helpers.ts';

const tmp = tempDir('perpsim-sweep-');
afterAll(() => tmp.remove());
const dir = (name: string) => join(tmp.dir, name);
const bytes = (d: string, file = 'results.arrow') => readFileSync(join(d, file));
const finished = (d: string) => (existsSync(join(d, 'runs')) ? readdirSync(join(d, 'runs')).filter((n) => !n.includes('.')) : []);

describe('perpsim sweep on the local pool', () => {
  let one: Awaited<ReturnType<typeof perpsim>>;
  beforeAll(async () => {
    one = await perpsim(tmp.dir, 'sweep', ...SWEEP_ARGS, '--workers', '1', '--out', dir('w1'));
  }, 120_000);

  it('runs every params set × seed once and writes one row per run, sorted by id', () => {
    expect(one.stderr.replace(/\[[#.]+\][^\n]*\n?/g, '')).toBe('');
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('12 runs, 0 already done, 12 to run on 1 worker');
    const rows = bytes(dir('w1'), 'results.csv').toString().trimEnd().split('\n').slice(1);
    const ids = rows.map((r) => r.split(',')[0]!);
    expect(ids).toHaveLength(12);
    expect([...ids].sort()).toEqual(ids);
    expect(finished(dir('w1')).sort()).toEqual(ids);
  });

  it('gives the same results.arrow and results.csv, byte for byte, with 2 workers', async () => {
    const two = await perpsim(tmp.dir, 'sweep', ...SWEEP_ARGS, '--workers', '2', '--out', dir('w2'));
    expect(two.code).toBe(0);
    expect(bytes(dir('w2')).equals(bytes(dir('w1')))).toBe(true);
    expect(bytes(dir('w2'), 'results.csv').equals(bytes(dir('w1'), 'results.csv'))).toBe(true);
  });

  it('prints a table ranked by the mean over seeds and writes a self-contained sweep.html', () => {
    expect(one.stdout).toMatch(/#\s+params\s+seeds\s+mean net_pnl\s+sd\s+min\s+max/);
    expect(one.stdout).toMatch(/\n1\s+entryBps=\d lookbackSec=\d\d\s+2\s/);
    const html = bytes(dir('w1'), 'sweep.html').toString();
    expect(html).toContain('Ranking by mean net_pnl');
    expect(html).toContain('over entryBps × lookbackSec');
    expect(html).not.toMatch(/<script|https?:\/\//);
  });

  it('3 shards merged give the local result, byte for byte', async () => {
    const shards = await Promise.all([0, 1, 2].map((i) => perpsim(tmp.dir, 'sweep', ...SWEEP_ARGS, '--workers', '1', '--shard', `${i}/3`, '--out', dir(`s${i}`))));
    for (const s of shards) expect(s.code).toBe(0);
    const counts = [0, 1, 2].map((i) => finished(dir(`s${i}`)).length);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(12);
    const merged = await perpsim(tmp.dir, 'sweep', 'merge', dir('s0'), dir('s1'), dir('s2'), '--out', dir('merged'));
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain('12 of 12 runs');
    expect(bytes(dir('merged')).equals(bytes(dir('w1')))).toBe(true);
    expect(bytes(dir('merged'), 'results.csv').equals(bytes(dir('w1'), 'results.csv'))).toBe(true);
  });

  it('resumes an interrupted sweep: only the missing runs execute, finished ones are not touched', async () => {
    const first = start(['sweep', ...SWEEP_ARGS, '--workers', '1', '--out', dir('resume')], tmp.dir);
    await until(() => finished(dir('resume')).length >= 2, 'two finished runs');
    first.child.kill('SIGINT');
    const exit = await first.exited;
    expect(exit.code).toBe(130);
    const done = finished(dir('resume'));
    expect(done.length).toBeGreaterThanOrEqual(2);
    expect(done.length).toBeLessThan(12);
    const mtimes = new Map(done.map((id) => [id, statSync(join(dir('resume'), 'runs', id, 'report.json')).mtimeMs]));

    const again = await perpsim(tmp.dir, 'sweep', ...SWEEP_ARGS, '--workers', '1', '--out', dir('resume'));
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`12 runs, ${done.length} already done, ${12 - done.length} to run`);
    expect(again.stdout).toContain(`ran ${12 - done.length}, skipped ${done.length}`);
    for (const [id, mtime] of mtimes) expect(statSync(join(dir('resume'), 'runs', id, 'report.json')).mtimeMs).toBe(mtime);
    expect(bytes(dir('resume')).equals(bytes(dir('w1')))).toBe(true);
  });
});
