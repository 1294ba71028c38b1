import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Calibration } from '../../src/facts/calibrate.ts';
import type { SymbolFactsReport } from '../../src/facts/market-facts.ts';
import { loadScenario } from '../../src/scenario/load.ts';
import { perpsim, tempDir, type CliResult } from './cli-helpers.ts';

const CAPTURE = join(import.meta.dirname, '../../../shared/data/hftbacktest-binance-futures-raw/usdm/btcusdt_20240808.gz');

describe('perpsim calibrate', () => {
  const tmp = tempDir('perpsim-calibrate-');
  let result: CliResult;
  let out: { symbol: string; calibration: Calibration; recorded: SymbolFactsReport; simulated: SymbolFactsReport[] };

  beforeAll(async () => {
    result = await perpsim(tmp.dir, 'calibrate', CAPTURE, '--tick-size', '0.1', '--lot-size', '0.001', '--out', 'fitted.json', '--compare', '3m', '--json');
    expect(result.code, result.stderr).toBe(0);
    out = JSON.parse(result.stdout);
  }, 120_000);
  afterAll(() => tmp.remove());

  it('writes a scenario that loads: the recorded symbol quoted per lot, at the recorded price', () => {
    expect(existsSync(CAPTURE)).toBe(true);
    const scenario = loadScenario(join(tmp.dir, 'fitted.json'));
    expect(scenario.instruments[0]).toMatchObject({ symbol: 'BTCUSDT-PERP', tickSize: '0.0001' });
    expect(Number(scenario.instruments[0]!.indexPrice)).toBeCloseTo(out.recorded.last_mid_ticks * 0.0001, 3);
    expect(out.calibration.halfSpreadTicks).toBe(0); // the capture sits at one tick: large-tick regime
    expect(out.calibration.volAnnual).toBeGreaterThan(0.05);
    expect(out.calibration.volAnnual).toBeLessThan(5);
  });

  it('runs the fitted scenario and lands its facts near the recording on the fitted quantities', () => {
    const [sim] = out.simulated;
    const rec = out.recorded;
    const within2 = (a: number, b: number) => expect(a / b, `${a} vs ${b}`).toSatisfy((r: number) => r >= 0.5 && r <= 2);
    within2(sim!.trades.size_median_lots, rec.trades.size_median_lots);
    within2(sim!.trades.size_p95_lots, rec.trades.size_p95_lots);
    within2(sim!.trades.interarrival_median_ms, rec.trades.interarrival_median_ms);
    within2(sim!.depth.touch_lots, rec.depth.touch_lots);
    expect(sim!.spread.share_1_tick).toBeGreaterThan(0.8);
  });
});
