import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeRun } from '../../src/cli/run-command.ts';
// The log's LZ4 codec for `tableFromIPC`: registered by its module (`perpsim run` itself loads it on the writer thread only).
import '../../src/sim-io/arrow-lz4.ts';
import { loadScenario } from '../../src/scenario/load.ts';
import { buildSimulation } from '../../src/sim/build.ts';
import { perpsim, tempDir, type CliResult } from './cli-helpers.ts';

const FACTS = ['spread_mean_ticks', 'spread_p95_ticks', 'depth_top5', 'return_autocorr_1m', 'return_kurtosis_1m', 'abs_return_autocorr_1m', 'basis_mean_bps', 'funding_rate_mean'];

describe('perpsim run', () => {
  const tmp = tempDir('perpsim-run-');
  let first: CliResult;
  let second: CliResult;
  let otherSeed: CliResult;
  const file = (dir: string, name: string) => readFileSync(join(tmp.dir, dir, name));

  beforeAll(async () => {
    [first, second, otherSeed] = await Promise.all([
      perpsim(tmp.dir, 'run', '--seed', '7', '--duration', '10m'),
      perpsim(tmp.dir, 'run', '--seed', '7', '--duration', '10m', '--out', 'again'),
      perpsim(tmp.dir, 'run', '--seed', '8', '--duration', '10m', '--out', 'other'),
    ]);
  }, 60_000);
  afterAll(() => tmp.remove());

  it('ends with the state hash on stdout and exits 0', () => {
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.trimEnd().split('\n').at(-1)).toMatch(/^state_hash: [0-9a-f]{16}$/);
  });

  it('writes out/run-<scenario>-<seed> by default', () => {
    expect(first.stdout).toContain('out/run-default-7');
    expect(file('out/run-default-7', 'events.arrow').length).toBeGreaterThan(1000);
  });

  it('gives the same hash, a byte-identical event log and the same summary for the same seed', () => {
    expect(second.stdout.split('\n').at(-2)).toBe(first.stdout.split('\n').at(-2));
    expect(file('again', 'events.arrow').equals(file('out/run-default-7', 'events.arrow'))).toBe(true);
    expect(file('again', 'summary.json').equals(file('out/run-default-7', 'summary.json'))).toBe(true);
  });

  it('gives a different market for a different seed', () => {
    expect(otherSeed.code).toBe(0);
    expect(otherSeed.stdout.split('\n').at(-2)).not.toBe(first.stdout.split('\n').at(-2));
    expect(file('other', 'events.arrow').equals(file('out/run-default-7', 'events.arrow'))).toBe(false);
  });

  it('writes a summary with the counts, the hash and the stylized facts', () => {
    const summary = JSON.parse(file('out/run-default-7', 'summary.json').toString());
    expect(summary).toMatchObject({ scenario: 'default', seed: 7, sim_start: '2026-01-01T00:00:00.000000000Z', sim_end: '2026-01-01T00:10:00.000000000Z', duration: '10m' });
    for (const key of ['state_hash', 'events', 'trades', 'volume', 'liquidations', 'stylized_facts']) expect(summary).toHaveProperty(key);
    expect(first.stdout).toContain(`state_hash: ${summary.state_hash}`);
    expect(summary.trades).toBeGreaterThan(100);
    expect(summary.volume).toBeGreaterThanOrEqual(summary.trades);
    expect(Object.keys(summary.stylized_facts.all)).toEqual(FACTS);
    expect(Object.keys(summary.stylized_facts.by_symbol)).toEqual(['BTCUSD-PERP', 'ETHUSD-PERP']);
    expect(summary.stylized_facts.all.spread_mean_ticks).toBeGreaterThan(0);
    expect(JSON.stringify(summary)).not.toMatch(/wall/);
  });

  it('writes an event log whose rows match the summary counts', () => {
    const summary = JSON.parse(file('out/run-default-7', 'summary.json').toString());
    const table = tableFromIPC(file('out/run-default-7', 'events.arrow'));
    expect(table.numRows).toBe(summary.events);
    const kinds = table.getChild('kind')!.toArray() as string[];
    const count = (k: string) => kinds.filter((x) => x === k).length;
    expect(count('trade')).toBe(summary.trades);
    expect(count('feed')).toBe(summary.events_by_kind.feed);
    expect(count('feed')).toBeGreaterThan(2 * summary.trades); // every trade fills two orders
    const qty = table.getChild('qty')!;
    let volume = 0n;
    kinds.forEach((k, i) => k === 'trade' && (volume += qty.get(i) as bigint));
    expect(Number(volume)).toBe(summary.volume);
  });
});

describe('perpsim run, in process', () => {
  it('reaches the same state running in slices as running straight to the end', { timeout: 60_000 }, async () => {
    const tmp = tempDir('perpsim-run-');
    try {
      const scenario = loadScenario('default');
      const { summary } = await executeRun({ scenario: 'default', seed: 3, durationNs: 120_000_000_000n, outDir: tmp.dir }, { write: () => true });
      const straight = buildSimulation(scenario, { seed: 3, durationNs: 120_000_000_000n });
      straight.runToEnd();
      expect(summary.state_hash).toBe(straight.venue.stateHash());
    } finally {
      tmp.remove();
    }
  });
});

describe('perpsim run errors', () => {
  const tmp = tempDir('perpsim-run-');
  const cases: [string, string[], RegExp][] = [
    ['an unknown scenario', ['run', '--scenario', 'no-such-scenario'], /^perpsim: scenario "no-such-scenario" is neither a built-in scenario \(.*default.*\) nor a file$/],
    ['a bad --duration', ['run', '--duration', 'soon'], /^perpsim: --duration must be a positive duration .*"soon"$/],
    ['a bad --seed', ['run', '--seed', '-1'], /^perpsim: --seed must be a non-negative integer, got "-1"$/],
  ];
  let results: CliResult[] = [];
  beforeAll(async () => {
    results = await Promise.all(cases.map(([, args]) => perpsim(tmp.dir, ...args)));
  }, 60_000);
  afterAll(() => tmp.remove());

  cases.forEach(([what, , message], i) => {
    it(`rejects ${what} with one line naming it and exit code 2`, () => {
      const r = results[i]!;
      expect(r.code).toBe(2);
      expect(r.stderr.endsWith('\n')).toBe(true);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr.trimEnd()).toMatch(message);
      expect(r.stdout).toBe('');
    });
  });
});
