import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SymbolFactsReport } from '../../src/facts/market-facts.ts';
import { perpsim, tempDir, type CliResult } from './cli-helpers.ts';

const CAPTURE = join(import.meta.dirname, '../../../shared/data/hftbacktest-binance-futures-raw/usdm/btcusdt_20240808.gz');

interface FactsJson {
  columns: { heading: string; facts: SymbolFactsReport }[];
  targets?: { heading: string; checks: { target: string; value: string; met: boolean }[] }[];
}

describe('perpsim facts', () => {
  const tmp = tempDir('perpsim-facts-');
  let capture: CliResult;
  let simA: CliResult;
  let simB: CliResult;
  let logFacts: CliResult;
  let run: CliResult;
  let errors: CliResult[];

  beforeAll(async () => {
    writeFileSync(join(tmp.dir, 'not-a-recording.csv'), 'a,b\n1,2\n');
    [capture, simA, simB, run, ...errors] = await Promise.all([
      perpsim(tmp.dir, 'facts', CAPTURE, '--tick-size', '0.1', '--lot-size', '0.001', '--json'),
      perpsim(tmp.dir, 'facts', '--scenario', 'btc-like', '--duration', '2m', '--json', '--targets'),
      perpsim(tmp.dir, 'facts', '--scenario', 'btc-like', '--duration', '2m', '--json', '--targets'),
      perpsim(tmp.dir, 'run', '--scenario', 'btc-like', '--duration', '2m'),
      perpsim(tmp.dir, 'facts', '--bogus'),
      perpsim(tmp.dir, 'facts', 'missing.gz'),
      perpsim(tmp.dir, 'facts', 'not-a-recording.csv', '--tick-size', '0.1', '--lot-size', '1'),
    ]);
    expect(run.code, run.stderr).toBe(0);
    logFacts = await perpsim(tmp.dir, 'facts', 'out/run-btc-like-1/events.arrow', '--json');
  }, 120_000);
  afterAll(() => tmp.remove());

  it('measures the real Binance BTCUSDT capture: every trade of SOURCE.md, the spread from its book tickers', () => {
    expect(existsSync(CAPTURE)).toBe(true);
    expect(capture.code, capture.stderr).toBe(0);
    const { columns } = JSON.parse(capture.stdout) as FactsJson;
    expect(columns.map((c) => c.heading)).toEqual(['btcusdt_20240808.gz: BTCUSDT']);
    const f = columns[0]!.facts;
    expect(f.trades.count).toBe(21_313); // the trade lines SOURCE.md counts
    expect(f.spread.source).toBe('quotes');
    expect(f.spread.share_1_tick).toBeGreaterThan(0.9); // the large-tick regime
    expect(f.depth.within_ticks['10']).toBeGreaterThanOrEqual(f.depth.within_ticks['1']!);
    expect(f.duration_sec).toBeGreaterThan(340);
    expect(f.returns.count).toBeLessThan(10); // 5¾ minutes: too short for 1-minute tails
    expect(f.returns.hill_tail_index).toBeNull();
  });

  it('runs a scenario in-process, seeded: the same JSON byte for byte, with the targets checked', () => {
    expect(simA.code, simA.stderr).toBe(0);
    expect(simA.stdout).toBe(simB.stdout);
    const out = JSON.parse(simA.stdout) as FactsJson;
    expect(out.columns.map((c) => c.heading)).toEqual(['btc-like seed 1: BTCUSDT-PERP']);
    expect(out.columns[0]!.facts.trades.count).toBeGreaterThan(1000);
    expect(out.targets![0]!.checks.map((c) => c.target)).toContain('spread 1 tick ≥ 90 % of the time');
  });

  it('reads an event log with the same code: the trades and the 1-minute returns of the run', () => {
    expect(logFacts.code, logFacts.stderr).toBe(0);
    const fromLog = (JSON.parse(logFacts.stdout) as FactsJson).columns[0]!.facts;
    const inProcess = (JSON.parse(simA.stdout) as FactsJson).columns[0]!.facts;
    expect(fromLog.trades).toEqual(inProcess.trades);
    expect(fromLog.returns.count).toBe(inProcess.returns.count);
    expect(fromLog.spread.share_1_tick).toBeCloseTo(inProcess.spread.share_1_tick, 9);
    // The event log keeps the touch, not every level: depth beyond it is unknown there.
    expect(fromLog.depth.within_ticks['10']).toBeNull();
  });

  it('answers bad input with one line: exit 2 for usage, 1 for an unreadable recording', () => {
    const [bogus, missing, unreadable] = errors;
    expect(bogus!.code).toBe(2);
    expect(bogus!.stderr).toMatch(/^perpsim: unknown option "--bogus"/);
    expect(missing!.code).toBe(2);
    expect(missing!.stderr).toBe('perpsim: missing.gz: no such file\n');
    expect(unreadable!.code).toBe(1);
    for (const e of errors) {
      expect(e.stderr.trim().split('\n')).toHaveLength(1);
      expect(e.stderr).not.toMatch(/\bat \w+ \(/); // no stack trace
    }
  });
});
