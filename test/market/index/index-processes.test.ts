import { describe, expect, it } from 'vitest';
import { createIndexProcess } from '../../../src/market/index/create.ts';
import { GbmIndex } from '../../../src/market/index/gbm.ts';
import { FlatIndex, SECONDS_PER_YEAR, type IndexProcess } from '../../../src/market/index/index-process.ts';
import { JumpDiffusionIndex } from '../../../src/market/index/jump-diffusion.ts';
import { OuLogIndex } from '../../../src/market/index/ou.ts';
import { RecordedIndex } from '../../../src/market/index/recorded.ts';
import { RegimeSwitchingIndex } from '../../../src/market/index/regime-switching.ts';
import { RandomStream } from '../../../src/random/random-stream.ts';

/** Log returns of `n` steps of `dtSec`. */
function logReturns(p: IndexProcess, n: number, dtSec: number): number[] {
  const out: number[] = [];
  let last = p.level;
  for (let i = 0; i < n; i++) {
    const x = p.next(dtSec);
    out.push(Math.log(x / last));
    last = x;
  }
  return out;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const variance = (xs: number[]) => {
  const m = mean(xs);
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length;
};
const kurtosis = (xs: number[]) => {
  const m = mean(xs);
  const v = variance(xs);
  return xs.reduce((a, b) => a + (b - m) ** 4, 0) / xs.length / (v * v);
};
function autocorr(xs: number[], lag: number): number {
  const m = mean(xs);
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    den += (xs[i]! - m) ** 2;
    if (i + lag < xs.length) num += (xs[i]! - m) * (xs[i + lag]! - m);
  }
  return num / den;
}

describe('index processes', () => {
  it('are reproducible from their seed and differ between seeds', () => {
    const path = (seed: string) => logReturns(new RegimeSwitchingIndex(new RandomStream(seed), { start: 100, regimes: [{ volAnnual: 0.3, meanDurationSec: 600 }, { volAnnual: 1, meanDurationSec: 300 }], jumps: { perDay: 10, logStd: 0.01 } }), 500, 1);
    expect(path('a')).toEqual(path('a'));
    expect(path('a')).not.toEqual(path('b'));
  });

  it('a flat index never moves', () => {
    const flat = new FlatIndex(3000);
    expect([flat.next(1), flat.next(60), flat.level]).toEqual([3000, 3000, 3000]);
  });

  it('geometric Brownian motion has log-return variance σ²·dt and stays positive', () => {
    const sigma = 0.8;
    const dtSec = 60;
    const returns = logReturns(new GbmIndex(new RandomStream('gbm'), { start: 50_000, volAnnual: sigma }), 20_000, dtSec);
    const expected = (sigma * sigma * dtSec) / SECONDS_PER_YEAR;
    expect(variance(returns) / expected).toBeGreaterThan(0.95);
    expect(variance(returns) / expected).toBeLessThan(1.05);
    expect(Math.abs(kurtosis(returns) - 3)).toBeLessThan(0.2);
  });

  it('geometric Brownian motion follows its drift', () => {
    const p = new GbmIndex(new RandomStream('drift'), { start: 100, volAnnual: 0.01, driftAnnual: 0.5 });
    let level = 100;
    for (let d = 0; d < 365; d++) level = p.next(86_400);
    expect(level).toBeGreaterThan(100 * Math.exp(0.45));
    expect(level).toBeLessThan(100 * Math.exp(0.55));
  });

  it('jump diffusion shows jumps: rare returns far beyond the diffusion and fat tails', () => {
    const sigma = 0.3;
    const dtSec = 1;
    const returns = logReturns(new JumpDiffusionIndex(new RandomStream('jumps'), { start: 100, volAnnual: sigma, jumps: { perDay: 50, logStd: 0.01 } }), 86_400, dtSec);
    const sd = sigma * Math.sqrt(dtSec / SECONDS_PER_YEAR);
    const jumps = returns.filter((r) => Math.abs(r) > 8 * sd).length;
    expect(jumps).toBeGreaterThan(25);
    expect(jumps).toBeLessThan(80);
    expect(kurtosis(returns)).toBeGreaterThan(10);
  });

  it('mean-reverting OU pulls the log price back to its mean with the given half-life', () => {
    const halfLifeSec = 3600;
    const p = new OuLogIndex(new RandomStream('ou'), { start: 120, mean: 100, halfLifeSec, volAnnual: 0.05 });
    for (let i = 0; i < 60; i++) p.next(60);
    // After one half-life the deviation of log(120/100) has about halved.
    const deviation = Math.log(p.level / 100) / Math.log(1.2);
    expect(deviation).toBeGreaterThan(0.35);
    expect(deviation).toBeLessThan(0.65);
    for (let i = 0; i < 60 * 24; i++) p.next(60);
    expect(Math.abs(Math.log(p.level / 100))).toBeLessThan(0.02);
  });

  it('OU returns are negatively autocorrelated at horizons near the half-life', () => {
    const p = new OuLogIndex(new RandomStream('ou-ac'), { start: 100, halfLifeSec: 600, volAnnual: 0.5 });
    expect(autocorr(logReturns(p, 5000, 600), 1)).toBeLessThan(-0.15);
  });

  it('regime switching clusters volatility: absolute returns are autocorrelated, returns are not', () => {
    const p = new RegimeSwitchingIndex(new RandomStream('regimes'), {
      start: 100,
      regimes: [
        { name: 'calm', volAnnual: 0.2, meanDurationSec: 3600 },
        { name: 'volatile', volAnnual: 1.2, meanDurationSec: 1800 },
      ],
    });
    const visited = new Set<number>();
    const returns: number[] = [];
    let last = p.level;
    for (let i = 0; i < 14 * 24 * 60; i++) {
      const x = p.next(60);
      visited.add(p.regimeIndex);
      returns.push(Math.log(x / last));
      last = x;
    }
    expect(visited).toEqual(new Set([0, 1]));
    expect(autocorr(returns.map(Math.abs), 1)).toBeGreaterThan(0.2);
    expect(Math.abs(autocorr(returns, 1))).toBeLessThan(0.05);
    expect(kurtosis(returns)).toBeGreaterThan(4);
  });

  it('a recorded series steps through its points without looking ahead', () => {
    const s = 1_000_000_000n;
    const p = new RecordedIndex([{ tNs: 10n * s, price: 101 }, { tNs: 12n * s, price: 102 }, { tNs: 20n * s, price: 99 }], 9n * s);
    expect(p.level).toBe(101); // before the first point: the first price
    expect([p.next(1), p.next(1), p.next(1), p.next(7), p.next(1)]).toEqual([101, 101, 102, 102, 99]);
    expect(() => new RecordedIndex([{ tNs: 2n, price: 1 }, { tNs: 1n, price: 1 }], 0n)).toThrow(/time order/);
  });

  it('the factory builds every kind and names a bad parameter', () => {
    const rng = new RandomStream('factory');
    for (const spec of [
      { kind: 'flat' as const },
      { kind: 'gbm' as const, volAnnual: 0.5 },
      { kind: 'jump-diffusion' as const, volAnnual: 0.5, jumps: { perDay: 1, logStd: 0.01 } },
      { kind: 'ou' as const, volAnnual: 0.5, halfLifeSec: 60 },
      { kind: 'regime-switching' as const, regimes: [{ volAnnual: 0.5, meanDurationSec: 60 }] },
      { kind: 'recorded' as const, points: [{ tNs: 0n, price: 7 }] },
    ]) {
      const p = createIndexProcess(spec, rng, 100, 0n);
      expect(p.next(1)).toBeGreaterThan(0);
    }
    expect(() => createIndexProcess({ kind: 'ou', volAnnual: 0.5, halfLifeSec: 0 }, rng, 100, 0n)).toThrow(/halfLifeSec/);
    expect(() => createIndexProcess({ kind: 'gbm', volAnnual: -1 }, rng, 100, 0n)).toThrow(/volAnnual/);
  });
});
