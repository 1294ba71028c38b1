import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { executeRun } from '../../src/cli/run-command.ts';
import { multiplyDecimals } from '../../src/replay/l2/replay-scenario.ts';
import { loadScenario, parseScenario, ScenarioError } from '../../src/scenario/load.ts';
import { buildSimulation } from '../../src/sim/build.ts';
import { perpsim } from '../cli/cli-helpers.ts';
import { sharedFolder } from './shared-data.ts';

const tmp = mkdtempSync(join(tmpdir(), 'perpsim-l2-scenario-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const base = {
  name: 'r',
  instruments: [{ symbol: 'BTCUSDT-PERP', tickSize: '0.0001', indexPrice: '60' }],
};
const replay = (r: Record<string, unknown>) => ({ ...base, market: { replay: { format: 'binance', files: ['btcusdt_20240808.gz'], symbolMap: { BTCUSDT: 'BTCUSDT-PERP' }, ...r } } });
const errorOf = (raw: unknown) => {
  try {
    parseScenario(raw, 'bad.json');
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

describe('a recorded market as a scenario market source', () => {
  it('accepts files, a symbol map, a queue model and a market-data latency, with defaults', () => {
    const s = parseScenario(replay({ queueModel: { kind: 'prob', weight: 'power', n: 3 } }));
    expect(s.market!.replay.queueModel).toEqual({ kind: 'prob', weight: 'power', n: 3 });
    expect(s.market!.replay.latency).toEqual({ marketData: 'recorded' });
    expect(parseScenario(replay({})).market!.replay.queueModel).toBe('risk-averse');
  });

  it('rejects bad replay specs with a message naming the field', () => {
    expect(errorOf(replay({ format: 'csv' }))).toMatch(/^bad\.json: market\.replay\.format: /);
    expect(errorOf(replay({ symbolMap: { BTCUSDT: 'ETHUSDT-PERP' } }))).toBe('bad.json: market.replay.symbolMap.BTCUSDT: unknown symbol ETHUSDT-PERP (instruments: BTCUSDT-PERP)');
    expect(errorOf(replay({ files: ['a.gz'], symbolMap: { BTCUSDT: 'BTCUSDT-PERP', ETHUSDT: 'BTCUSDT-PERP' } }))).toMatch(/^bad\.json: market\.replay\.files\[0\]: cannot tell the recorded symbol of a\.gz/);
    expect(errorOf(replay({ files: [{ path: 'a.gz', symbol: 'XRPUSDT' }] }))).toMatch(/market\.replay\.files\[0\]: symbol XRPUSDT is not in symbolMap/);
    expect(errorOf(replay({ queueModel: 'optimistic' }))).toMatch(/market\.replay\.queueModel/);
    expect(errorOf(replay({ files: [] }))).toMatch(/market\.replay\.files/);
    expect(errorOf(replay({ symbolMap: { BTCUSDT: { symbol: 'BTCUSDT-PERP', lotSize: '-1' } } }))).toMatch(/market\.replay\.symbolMap\.BTCUSDT/);
  });

  it('resolves recorded files relative to the scenario file', () => {
    const file = join(tmp, 'replay.json');
    writeFileSync(file, JSON.stringify(replay({ files: ['data/btcusdt_20240808.gz'] })));
    expect(loadScenario(file).market!.replay.files).toEqual([join(tmp, 'data/btcusdt_20240808.gz')]);
  });

  it('is never silently dropped: the synchronous builder refuses a replay scenario', () => {
    expect(() => buildSimulation(parseScenario(replay({})))).toThrow(/buildReplaySimulation/);
  });

  it('multiplies decimal steps exactly for per-lot quoting', () => {
    expect(multiplyDecimals('0.1', '0.001')).toBe('0.0001');
    expect(multiplyDecimals('0.01', '1')).toBe('0.01');
    expect(multiplyDecimals('5', '10')).toBe('50');
    expect(multiplyDecimals('0.25', '0.4')).toBe('0.1');
  });

  it('perpsim run --replay fails in one line on a bad option or a missing file', async () => {
    const [noFiles, badModel, missing] = await Promise.all([
      perpsim(tmp, 'run', '--replay', '--seed', '1'),
      perpsim(tmp, 'run', '--replay', 'x.csv', '--queue-model', 'fifo'),
      perpsim(tmp, 'run', '--replay', join(tmp, 'nope', 'binance-futures_trades_BTCUSDT.csv')),
    ]);
    expect(noFiles.code).toBe(2);
    expect(noFiles.stderr.trim()).toBe('perpsim: --replay needs at least one file');
    expect(badModel.code).toBe(2);
    expect(badModel.stderr.trim()).toBe('perpsim: --queue-model must be risk-averse or prob, got "fifo"');
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/nope/);
  }, 60_000);
});

const tardis = sharedFolder('tardis-nautilus-samples', 'perpsim run --replay on real tardis quotes and trades');

describe.skipIf(tardis.missing)(tardis.title, () => {
  it('runs the recording headless like a synthetic scenario, deterministically', async () => {
    const dir = join(tardis.dir, '2020-02-22_binance-futures_BTCUSDT');
    const run = (out: string) =>
      executeRun(
        { scenario: 'default', outDir: join(tmp, out), replay: { files: [join(dir, 'quotes.csv'), join(dir, 'trades.csv')], tickSize: '0.01', lotSize: '0.001' } },
        { write: () => true },
      );
    const a = await run('a');
    const b = await run('b');
    expect(a.summary.scenario).toBe('replay-quotes');
    expect(a.summary.sim_start).toBe('2020-02-22T00:00:01.000000000Z');
    expect(a.summary.trades).toBe(9999); // every recorded trade printed
    expect(a.summary.volume_by_symbol).toHaveProperty('BTCUSDT-PERP');
    expect(b.summary.state_hash).toBe(a.summary.state_hash);
  }, 60_000);

  it('perpsim run --scenario FILE replays the recordings the scenario names', async () => {
    const dir = join(tardis.dir, '2020-02-22_binance-futures_BTCUSDT');
    const file = join(tmp, 'tardis-replay.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'tardis-replay',
        start: '2020-02-22T00:00:00Z',
        duration: '2m',
        instruments: [{ symbol: 'BTCUSDT-PERP', tickSize: '0.00001', indexPrice: '9.68' }],
        market: { replay: { format: 'tardis', files: [join(dir, 'trades.csv')], symbolMap: { BTCUSDT: { symbol: 'BTCUSDT-PERP', lotSize: '0.001', tickSize: '0.01' } } } },
      }),
    );
    const { summary } = await executeRun({ scenario: file, outDir: join(tmp, 'scenario-run') }, { write: () => true });
    expect(summary.scenario).toBe('tardis-replay');
    expect(summary.trades).toBeGreaterThan(100); // the trades of the first two minutes
    expect(summary.trades).toBeLessThan(9999);
  }, 60_000);

  it('a scenario error names the file', () => {
    expect(() => parseScenario({ ...base, market: { replay: { format: 'tardis', files: [1], symbolMap: {} } } }, 'x.json')).toThrow(ScenarioError);
  });
});
