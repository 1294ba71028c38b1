import { describe, expect, it } from 'vitest';
import { buildReport, fillsCsv, reportJson } from '../../src/backtest/report.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { instantiateStrategy, type StrategyModule } from '../../src/backtest/strategy-module.ts';
import { loadScenario } from '../../src/scenario/load.ts';
import type { Scenario } from '../../src/scenario/schema.ts';

const MIN = 60_000_000_000n;

const EXAMPLES: Record<string, () => Promise<StrategyModule>> = {
  'market-maker.ts': () => import('../../examples/market-maker.ts'),
  'momentum.ts': () => import('../../examples/momentum.ts'),
  'funding-fade.ts': () => import('../../examples/funding-fade.ts'),
};

async function backtest(file: string, params: unknown, scenario: Scenario, durationNs: bigint, seed = 5) {
  const mod = await EXAMPLES[file]!();
  const { strategy, params: parsed } = await instantiateStrategy(mod, params, file);
  const result = await runBacktest(strategy, { scenario, seed, durationNs });
  return { result, report: buildReport(result, file, parsed) };
}

/** `default` with funding every minute, so a short run sees settlements. */
function minuteFunding(): Scenario {
  const s = loadScenario('default');
  return { ...s, instruments: s.instruments.map((i) => ({ ...i, funding: { intervalSec: 60 } })) };
}

describe('the example strategies', () => {
  it('market maker: quotes both sides post-only, trades as maker, and keeps inventory within its limit', async () => {
    const { report } = await backtest('market-maker.ts', { maxInventoryLots: 3 }, loadScenario('default'), 3n * MIN);
    const m = report.metrics;
    expect(m.fills).toBeGreaterThan(0);
    expect(m.maker_share).toBe(1);
    expect(m.max_position_lots['BTCUSD-PERP']).toBeLessThanOrEqual(3);
    expect(m.orders_rejected).toBeLessThan(m.orders / 10);
  });

  it('momentum taker: crosses the spread on moves and stays within its position limit', async () => {
    const { report } = await backtest('momentum.ts', { lookbackSec: 10, checkSec: 1, entryBps: 1, exitBps: 0.5, maxPositionLots: 2 }, loadScenario('default'), 3n * MIN);
    const m = report.metrics;
    expect(m.fills).toBeGreaterThan(0);
    expect(m.maker_share).toBe(0);
    expect(m.max_position_lots['BTCUSD-PERP']).toBeLessThanOrEqual(2);
  });

  it('funding fade: takes the side that receives after an extreme funding rate', async () => {
    const { result, report } = await backtest('funding-fade.ts', { entryRate: 1e-9, exitRate: 0, checkSec: 5, sizeLots: 1, maxPositionLots: 1 }, minuteFunding(), 4n * MIN);
    expect(report.metrics.fills).toBeGreaterThan(0);
    // Through each settlement it holds the side that received the one a minute before (the
    // rate's sign may flip in between: then it pays).
    const f = result.funding;
    let checked = 0;
    for (let i = 1; i < f.length; i++) {
      if (f[i]!.tNs - f[i - 1]!.tNs !== MIN || Number(f[i - 1]!.rate) === 0) continue;
      expect(f[i]!.positionLots).toBe(Number(f[i - 1]!.rate) > 0 ? -1 : 1);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('the same backtest twice gives a byte-identical report.json and fills', async () => {
    const a = await backtest('market-maker.ts', {}, loadScenario('default'), 2n * MIN, 11);
    const b = await backtest('market-maker.ts', {}, loadScenario('default'), 2n * MIN, 11);
    expect(a.report.metrics.fills).toBeGreaterThan(0);
    expect(reportJson(b.report)).toBe(reportJson(a.report));
    expect(fillsCsv(b.result)).toBe(fillsCsv(a.result));
  });
});
