import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.ts';
import { buildSimulation } from '../../src/sim/build.ts';
import { attachFactsCollector, StylizedFacts, TYPICAL_PERP_FACTS } from '../../src/sim/stylized-facts.ts';

const HOUR = 3_600_000_000_000n;

/**
 * One simulated hour of `default` gives only ~59 one-minute returns per instrument, so the
 * return statistics are pooled over the first three seeds (6 series, ~350 returns): with fewer,
 * sampling noise alone (standard error ≈ 0.1) decides whether |autocorrelation| < 0.1.
 * Spreads, depth and basis are checked per run.
 */
describe('the default market over one simulated hour', () => {
  it('shows the stylized facts of a real perpetual market', { timeout: 120_000 }, () => {
    const scenario = loadScenario('default');
    const pooled = new StylizedFacts();
    for (const seed of [1, 2, 3]) {
      const sim = buildSimulation(scenario, { seed, durationNs: HOUR });
      attachFactsCollector(sim, pooled, `seed-${seed}/`);
      sim.runToEnd();
      for (const symbol of ['BTCUSD-PERP', 'ETHUSD-PERP']) {
        const f = pooled.facts(`seed-${seed}/${symbol}`);
        const where = `seed ${seed} ${symbol}`;
        expect(f.spread_mean_ticks, where).toBeGreaterThanOrEqual(1);
        expect(f.spread_mean_ticks, where).toBeLessThan(TYPICAL_PERP_FACTS.spread_mean_ticks.high);
        expect(f.spread_p95_ticks, where).toBeLessThanOrEqual(10);
        expect(f.depth_top5, where).toBeGreaterThan(10);
        expect(Math.abs(f.basis_mean_bps), where).toBeLessThan(2);
      }
    }
    expect(pooled.returnCount()).toBeGreaterThan(340);
    const f = pooled.facts();
    expect(f.return_kurtosis_1m).toBeGreaterThan(3); // fat tails
    expect(Math.abs(f.return_autocorr_1m)).toBeLessThan(0.1); // no linear predictability
    expect(f.abs_return_autocorr_1m).toBeGreaterThan(0.05); // volatility clusters
  });
});
