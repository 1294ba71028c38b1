import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { tempDir } from '../cli/cli-helpers.ts';
import { sharedFolder } from '../replay/shared-data.ts';

const EXAMPLES = join(import.meta.dirname, '../../examples');
const MM = join(EXAMPLES, 'market-maker.ts');

/** Runs the CLI in process; returns the exit code and what it wrote. */
async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string[] }> {
  const stderr: string[] = [];
  let stdout = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((text) => stderr.push(String(text)) > 0);
  vi.spyOn(process.stdout, 'write').mockImplementation((text) => ((stdout += String(text)), true));
  const code = await main(['backtest', ...args]);
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

describe('perpsim backtest', () => {
  const tmp = tempDir('perpsim-backtest-');
  beforeAll(() => {
    writeFileSync(join(tmp.dir, 'no-default.ts'), 'export const x = 1;\n');
    writeFileSync(join(tmp.dir, 'broken.ts'), 'export default function (: number {\n');
    writeFileSync(join(tmp.dir, 'not-a-strategy.ts'), 'export default () => ({ hello: 1 });\n');
    writeFileSync(join(tmp.dir, 'picky.ts'), 'export default class { constructor(p: { size?: number }) { if (!((p.size ?? 0) > 0)) throw new RangeError("size must be positive"); } onStart() {} }\n');
  });
  afterAll(() => tmp.remove());
  afterEach(() => vi.restoreAllMocks());

  const cases: [string, string[], RegExp][] = [
    ['no strategy file', [], /^missing required argument 'strategy'$/],
    ['a missing strategy file', [join(tmp.dir, 'nope.ts')], /^strategy file .*nope\.ts not found$/],
    ['a file that does not parse', [join(tmp.dir, 'broken.ts')], /^cannot load strategy file .*broken\.ts: /],
    ['a file without a default export', [join(tmp.dir, 'no-default.ts')], /^no-default\.ts: no default export of a strategy factory or class/],
    ['a default export that is not a strategy', [join(tmp.dir, 'not-a-strategy.ts')], /^not-a-strategy\.ts: the default export did not make a Strategy/],
    ['params that are not JSON', [MM, '--params', '{size:1}'], /^--params is not valid JSON: /],
    ['params the schema rejects', [MM, '--params', '{"sizeLots":-1}'], /^market-maker\.ts: bad params: sizeLots: /],
    ['params the schema does not know', [MM, '--params', '{"spread":1}'], /^market-maker\.ts: bad params: /],
    ['params the constructor rejects', [join(tmp.dir, 'picky.ts'), '--params', '{"size":0}'], /^picky\.ts: params rejected: size must be positive$/],
    ['an unknown scenario', [MM, '--scenario', 'no-such-scenario'], /no-such-scenario/],
    ['a bad --cash', [MM, '--cash', 'lots'], /^--cash must be a positive decimal amount/],
    ['a bad --sample-interval', [MM, '--sample-interval', 'often'], /^--sample-interval must be a positive duration/],
  ];
  for (const [what, args, message] of cases) {
    it(`rejects ${what} with exit code 2 and one line naming the problem`, async () => {
      const { code, stdout, stderr } = await run(...args, '--duration', '1s', '--out', join(tmp.dir, 'out'));
      expect(code).toBe(2);
      expect(stderr).toHaveLength(1);
      expect(stderr[0]!.trimEnd().includes('\n')).toBe(false);
      expect(stderr[0]!.trimEnd().replace(/^perpsim: /, '')).toMatch(message);
      expect(stdout).toBe('');
    });
  }

  it('writes report.json, report.html, fills (CSV and Arrow) and equity.csv, and prints the metrics', async () => {
    const out = join(tmp.dir, 'mm');
    const { code, stdout } = await run(MM, '--scenario', 'default', '--seed', '3', '--duration', '2m', '--params', '{"halfSpreadTicks":2}', '--out', out);
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ strategy: 'market-maker.ts', scenario: 'default', seed: 3, duration: '2m', params: { halfSpreadTicks: 2, sizeLots: 1 } });
    expect(stdout).toContain(`state_hash: ${report.state_hash}`);
    expect(stdout).toMatch(/Net PnL\s+-?\d/);
    const csvRows = readFileSync(join(out, 'fills.csv'), 'utf8').trimEnd().split('\n');
    expect(csvRows.length - 1).toBe(report.metrics.fills);
    expect(report.metrics.fills).toBeGreaterThan(0);
    const arrow = tableFromIPC(readFileSync(join(out, 'fills.arrow')));
    expect(arrow.numRows).toBe(report.metrics.fills);
    expect(String(arrow.getChild('price')!.get(0))).toBe(csvRows[1]!.split(',')[5]);
    const equity = readFileSync(join(out, 'equity.csv'), 'utf8').trimEnd().split('\n');
    expect(equity[0]).toBe('time,equity,cash,unrealized,gross_notional,position_BTCUSD-PERP,position_ETHUSD-PERP,mark_BTCUSD-PERP,mark_ETHUSD-PERP');
    // The default sampling adapts to the run: every second of a 2-minute run (0 … 119 s and the end).
    expect(report.sample_interval).toBe('1s');
    expect(equity).toHaveLength(1 + 121);
    expect(equity[121]!.split(',')[1]).toBe(report.metrics.ending_equity);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/i);
  });
});

const capture = sharedFolder('hftbacktest-binance-futures-raw', 'perpsim backtest --replay on a real Binance capture');

describe.skipIf(capture.missing)(capture.title, () => {
  const tmp = tempDir('perpsim-backtest-replay-');
  afterAll(() => tmp.remove());
  afterEach(() => vi.restoreAllMocks());

  it('runs a strategy against the replayed book and writes its report', async () => {
    const out = join(tmp.dir, 'replay');
    const file = join(capture.dir, 'usdm/btcusdt_20240808.gz');
    const { code } = await run(MM, '--replay', file, '--params', '{"symbol":"BTCUSDT-PERP"}', '--duration', '1m', '--out', out);
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.scenario).toBe('replay-btcusdt_20240808');
    expect(report.symbols).toContain('BTCUSDT-PERP');
    expect(report.metrics.orders).toBeGreaterThan(0);
  });

  it('samples equity at the interval --sample-interval asks for', async () => {
    const out = join(tmp.dir, 'replay-15s');
    const file = join(capture.dir, 'usdm/btcusdt_20240808.gz');
    const { code } = await run(MM, '--replay', file, '--params', '{"symbol":"BTCUSDT-PERP"}', '--duration', '1m', '--sample-interval', '15s', '--out', out);
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.sample_interval).toBe('15s');
    expect(readFileSync(join(out, 'equity.csv'), 'utf8').trimEnd().split('\n')).toHaveLength(1 + 5); // 0, 15, 30, 45 s and the end
  });

  it('names a missing replay file in one line', async () => {
    const { code, stderr } = await run(MM, '--replay', join(tmp.dir, 'missing.gz'), '--duration', '1m');
    expect(code).toBe(2);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(/missing\.gz/);
  });
});
