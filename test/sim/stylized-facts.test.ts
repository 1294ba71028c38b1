import { describe, expect, it } from 'vitest';
import { RandomStream } from '../../src/random/random-stream.ts';
import { StylizedFacts, TYPICAL_PERP_FACTS } from '../../src/sim/stylized-facts.ts';

const S = 1_000_000_000n;
const MIN = 60n * S;

/** Feeds one trade per minute at the given prices (ticks), starting at minute 0. */
function minutePrices(facts: StylizedFacts, symbol: string, prices: number[], startMinute = 0n): void {
  prices.forEach((p, i) => facts.observeTrade((startMinute + BigInt(i)) * MIN + 30n * S, symbol, p, 1));
  facts.observeTrade((startMinute + BigInt(prices.length)) * MIN + 30n * S, symbol, prices[prices.length - 1]!, 1); // closes the last minute
}

describe('StylizedFacts', () => {
  it('weights spreads and depth by the time they were shown', () => {
    const f = new StylizedFacts();
    f.observeTop(0n, 'X', 100, 102, 10); // spread 2 for 9 s
    f.observeTop(9n * S, 'X', 100, 110, 30); // spread 10 for 1 s
    f.observeTop(10n * S, 'X', 100, 101, 0);
    const facts = f.facts('X');
    expect(facts.spread_mean_ticks).toBeCloseTo(2 * 0.9 + 10 * 0.1, 12);
    expect(facts.spread_p95_ticks).toBe(10);
    expect(facts.depth_top5).toBeCloseTo(10 * 0.9 + 30 * 0.1, 12);
  });

  it('leaves one-sided books out of the spread but not out of the depth', () => {
    const f = new StylizedFacts();
    f.observeTop(0n, 'X', 100, 104, 10);
    f.observeTop(1n * S, 'X', undefined, 104, 4);
    f.observeTop(3n * S, 'X', 100, 104, 10);
    expect(f.facts('X').spread_mean_ticks).toBe(4);
    expect(f.facts('X').depth_top5).toBeCloseTo((10 + 2 * 4) / 3, 12);
  });

  it('computes 1-minute returns from the last trade of each minute', () => {
    const f = new StylizedFacts();
    minutePrices(f, 'X', [100, 110, 99, 108.9, 98.01]);
    // Alternating +10 % / −10 %: perfectly negatively autocorrelated.
    expect(f.returnCount('X')).toBe(4);
    expect(f.facts('X').return_autocorr_1m).toBeLessThan(-0.7);
  });

  it('falls back to the mid when a minute had no trade, and never bridges an empty minute', () => {
    const f = new StylizedFacts();
    f.observeTop(10n * S, 'X', 99, 101, 5); // minute 0: mid 100
    f.observeTop(MIN + 10n * S, 'X', 101, 103, 5); // minute 1: mid 102
    // minute 2: nothing at all
    f.observeTop(3n * MIN + 10n * S, 'X', 103, 105, 5); // minute 3: mid 104
    f.observeTop(4n * MIN + 10n * S, 'X', 105, 107, 5); // minute 4 (closes minute 3)
    expect(f.returnCount('X')).toBe(1); // only minute 0 → 1
  });

  it('gives a kurtosis near 3 for normal returns and well above 3 for fat tails', () => {
    const rng = new RandomStream('kurtosis');
    const normal = new StylizedFacts();
    const fat = new StylizedFacts();
    let a = 1e6;
    let b = 1e6;
    const pa: number[] = [];
    const pb: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      a *= Math.exp(rng.normal(0, 0.001));
      b *= Math.exp(rng.normal(0, rng.chance(0.05) ? 0.004 : 0.001));
      pa.push(Math.round(a));
      pb.push(Math.round(b));
    }
    minutePrices(normal, 'N', pa);
    minutePrices(fat, 'F', pb);
    expect(normal.facts().return_kurtosis_1m).toBeGreaterThan(2.8);
    expect(normal.facts().return_kurtosis_1m).toBeLessThan(3.2);
    expect(Math.abs(normal.facts().return_autocorr_1m)).toBeLessThan(0.03);
    expect(Math.abs(normal.facts().abs_return_autocorr_1m)).toBeLessThan(0.03);
    expect(fat.facts().return_kurtosis_1m).toBeGreaterThan(6);
  });

  it('sees volatility clustering in absolute returns', () => {
    const rng = new RandomStream('clusters');
    const f = new StylizedFacts();
    let p = 1e6;
    const prices: number[] = [];
    for (let block = 0; block < 200; block++) {
      const sigma = block % 2 === 0 ? 0.0005 : 0.003;
      for (let i = 0; i < 30; i++) prices.push(Math.round((p *= Math.exp(rng.normal(0, sigma)))));
    }
    minutePrices(f, 'X', prices);
    expect(f.facts().abs_return_autocorr_1m).toBeGreaterThan(0.3);
  });

  it('pools symbols after standardizing each, so different volatilities do not fake fat tails', () => {
    const rng = new RandomStream('pool');
    const f = new StylizedFacts();
    let a = 1e6;
    let b = 1e6;
    const pa: number[] = [];
    const pb: number[] = [];
    for (let i = 0; i < 5000; i++) {
      pa.push(Math.round((a *= Math.exp(rng.normal(0, 0.0005)))));
      pb.push(Math.round((b *= Math.exp(rng.normal(0, 0.005)))));
    }
    minutePrices(f, 'A', pa);
    minutePrices(f, 'B', pb);
    expect(f.facts().return_kurtosis_1m).toBeLessThan(3.3);
    expect(f.symbols).toEqual(['A', 'B']);
  });

  it('averages the mark–index basis in bps and the funding rates', () => {
    const f = new StylizedFacts();
    f.observeMark(0n, 'X', 10_010, 10_000); // +10 bps
    f.observeMark(MIN, 'X', 9_990, 10_000); // −10 bps
    f.observeMark(2n * MIN, 'X', 10_003, 10_000); // +3 bps
    f.observeFunding('X', 0.0001);
    f.observeFunding('X', -0.0003);
    expect(f.facts('X').basis_mean_bps).toBeCloseTo(1, 9);
    expect(f.facts('X').funding_rate_mean).toBeCloseTo(-0.0001, 12);
  });

  it('reports NaN rather than inventing a number without data', () => {
    const facts = new StylizedFacts().facts();
    expect(Object.values(facts).every(Number.isNaN)).toBe(true);
  });

  it('documents a typical range and a source for every fact', () => {
    const keys = Object.keys(new StylizedFacts().facts()).sort();
    expect(Object.keys(TYPICAL_PERP_FACTS).sort()).toEqual(keys);
    for (const t of Object.values(TYPICAL_PERP_FACTS)) {
      expect(t.low).toBeLessThanOrEqual(t.typical);
      expect(t.typical).toBeLessThanOrEqual(t.high);
      expect(t.source.length).toBeGreaterThan(20);
    }
  });
});
