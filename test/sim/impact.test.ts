import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.ts';
import { impactExponent, measureImpact, type ImpactPoint } from '../../src/sim/impact.ts';

const point = (qtyLots: number, impactBps: number): ImpactPoint => ({ qtyLots, durationSec: qtyLots, impactBps, shortfallBps: impactBps, filledLots: qtyLots });

describe('perpsim impact', () => {
  it('fits the log-log slope: 0.5 for a square-root curve, 1 for a straight line', () => {
    expect(impactExponent([1, 4, 16, 64].map((q) => point(q, 0.3 * Math.sqrt(q))))).toBeCloseTo(0.5, 12);
    expect(impactExponent([1, 4, 16, 64].map((q) => point(q, 2 * q)))).toBeCloseTo(1, 12);
    expect(impactExponent([point(1, 0), point(4, 1)])).toBeNaN(); // one positive point: no slope
  });

  it('buys metaorders on a seeded default market: the cost curve is concave and the price rises', { timeout: 60_000 }, () => {
    const points = measureImpact(loadScenario('default'), { sizesLots: [4, 16, 64, 256], childLots: 2, childEverySec: 1, warmupSec: 120, repeats: 2, spacingSec: 600 });
    expect(points.map((p) => p.filledLots)).toEqual([4, 16, 64, 256]);
    const cost = points.map((p) => p.shortfallBps);
    for (let i = 1; i < cost.length; i++) {
      expect(cost[i]!).toBeGreaterThan(cost[i - 1]!); // more size costs more…
      expect(cost[i]! / cost[i - 1]!).toBeLessThan(4); // …but less than in proportion (sizes grow 4×)
    }
    expect(impactExponent(points.map((p) => ({ ...p, impactBps: p.shortfallBps })))).toBeLessThan(0.8);
    expect(points[3]!.impactBps).toBeGreaterThan(0); // the mid ends above the no-metaorder run
  });
});
