import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.ts';
import { buildSimulation } from '../../src/sim/build.ts';
import { attachFactsCollector } from '../../src/sim/stylized-facts.ts';

describe('the funding-squeeze scenario', () => {
  it('holds the perp at a premium, so hourly funding is large and positive', { timeout: 60_000 }, () => {
    const sim = buildSimulation(loadScenario('funding-squeeze'), { durationNs: 2n * 3_600_000_000_000n });
    const facts = attachFactsCollector(sim);
    sim.runToEnd();
    const market = sim.venue.market('BTCUSD-PERP')!;
    expect(market.fundingHistory).toHaveLength(2);
    const f = facts.facts('BTCUSD-PERP');
    expect(f.basis_mean_bps).toBeGreaterThan(10);
    // 10 bps an hour is several hundred percent a year: a squeeze, not a normal market.
    expect(f.funding_rate_mean).toBeGreaterThan(0.001);
    expect(f.spread_mean_ticks).toBeLessThan(6);
  });
});
