import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.ts';
import { buildSimulation } from '../../src/sim/build.ts';
import { attachFactsCollector, type Facts } from '../../src/sim/stylized-facts.ts';

function factsOf(name: string, minutes: bigint): Facts {
  const sim = buildSimulation(loadScenario(name), { durationNs: minutes * 60_000_000_000n });
  const facts = attachFactsCollector(sim);
  sim.runToEnd();
  return facts.facts('ETHUSD-PERP');
}

describe('the thin-book scenario', () => {
  it('has wider spreads and far less depth than default on the same instrument', { timeout: 60_000 }, () => {
    const thin = factsOf('thin-book', 40n);
    const normal = factsOf('default', 40n);
    expect(thin.spread_mean_ticks).toBeGreaterThan(3 * normal.spread_mean_ticks);
    expect(thin.spread_p95_ticks).toBeGreaterThan(2 * normal.spread_p95_ticks);
    expect(thin.depth_top5).toBeLessThan(normal.depth_top5 / 4);
  });
});
