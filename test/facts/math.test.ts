import { describe, expect, it } from 'vitest';
import { autocorrelation, correlation, hillTailIndex, kurtosis, mean, quantile, weightedQuantile } from '../../src/facts/math.ts';

describe('facts math on hand-computed series', () => {
  it('takes quantiles by linear interpolation between order statistics', () => {
    expect(quantile([4, 1, 3, 2], 0.5)).toBe(2.5);
    expect(quantile([4, 1, 3, 2], 0.95)).toBeCloseTo(3.85, 12); // position 2.85: 3 + 0.85 × (4 − 3)
    expect(quantile([7], 0.95)).toBe(7);
    expect(quantile([], 0.5)).toBeNaN();
    expect(mean([1, 2, 6])).toBe(3);
  });

  it('takes a weighted quantile as the smallest value whose cumulative weight reaches q', () => {
    const w = new Map([[1, 9], [3, 1]]);
    expect(weightedQuantile(w, 0.5)).toBe(1);
    expect(weightedQuantile(w, 0.9)).toBe(1);
    expect(weightedQuantile(w, 0.95)).toBe(3);
    expect(weightedQuantile(new Map(), 0.5)).toBeNaN();
  });

  it('computes the autocorrelation about the pooled mean, never across a gap between segments', () => {
    // 1 2 3 4: deviations −1.5 −0.5 0.5 1.5, Σd² = 5, lag-1 products 0.75 − 0.25 + 0.75 = 1.25.
    expect(autocorrelation([[1, 2, 3, 4]], 1)).toBeCloseTo(0.25, 12);
    // Split after 2: the pair (2, 3) is gone: (0.75 + 0.75) / 5.
    expect(autocorrelation([[1, 2], [3, 4]], 1)).toBeCloseTo(0.3, 12);
    expect(autocorrelation([[1, -1, 1, -1]], 1)).toBeCloseTo(-0.75, 12);
    expect(autocorrelation([[1, -1, 1, -1]], 2)).toBeCloseTo(0.5, 12);
    expect(autocorrelation([[2, 2, 2]], 1)).toBeNaN();
  });

  it('computes the Pearson correlation', () => {
    expect(correlation([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(correlation([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
    // x = 1 2 3 4, y = 1 3 2 4: Σdxdy = 2.25 + 0.25·(−1)… = 4, Σdx² = Σdy² = 5 → 0.8.
    expect(correlation([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(0.8, 12);
    expect(correlation([1, 2, 3], [1, 1, 1])).toBeNaN();
  });

  it('computes the non-excess kurtosis', () => {
    expect(kurtosis([1, -1, 1, -1])).toBeCloseTo(1, 12);
    // 0 0 0 0 10: mean 2, m2 = 80/5 = 16, m4 = (4·16 + 4096)/5 = 832 → 832/256.
    expect(kurtosis([0, 0, 0, 0, 10])).toBeCloseTo(3.25, 12);
  });

  it('estimates the Hill tail index from the largest 5 % against the next order statistic', () => {
    // n = 100 → k = 5; the top five |x| are e¹…e⁵ over X₍₆₎ = 1: α = 5 / (1+2+3+4+5) = 1/3.
    const xs = [...Array.from({ length: 95 }, (_, i) => (i % 2 === 0 ? 1 : -1)), Math.E, -(Math.E ** 2), Math.E ** 3, Math.E ** 4, -(Math.E ** 5)];
    expect(hillTailIndex(xs)).toBeCloseTo(1 / 3, 12);
    // An exact Pareto sample of index 3 (its quantiles): the estimate lands on 3.
    const n = 20_000;
    const pareto = Array.from({ length: n }, (_, i) => (n / (i + 1)) ** (1 / 3));
    expect(hillTailIndex(pareto)).toBeGreaterThan(2.9);
    expect(hillTailIndex(pareto)).toBeLessThan(3.1);
    // Fewer than 5 tail points: no estimate.
    expect(hillTailIndex(Array.from({ length: 99 }, (_, i) => i + 1))).toBeNaN();
  });
});
