import { describe, it, expect } from 'vitest';
import { RandomStream, RandomStreams } from '../../src/random/random-stream.ts';

function draws(stream: RandomStream, n = 100): number[] {
  return Array.from({ length: n }, () => stream.next());
}

function meanAndStdev(values: number[]): { mean: number; stdev: number } {
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / values.length;
  let squares = 0;
  for (const v of values) squares += (v - mean) ** 2;
  return { mean, stdev: Math.sqrt(squares / (values.length - 1)) };
}

describe('RandomStream', () => {
  it('gives the same draws for the same seed', () => {
    const a = new RandomStream('seed-1');
    const b = new RandomStream('seed-1');
    expect(draws(a)).toEqual(draws(b));
    expect([a.int(0, 1_000_000), a.normal(), a.exponential(3), a.pareto(1, 2)]).toEqual([
      b.int(0, 1_000_000), b.normal(), b.exponential(3), b.pareto(1, 2),
    ]);
  });

  it('gives different draws for different seeds', () => {
    expect(draws(new RandomStream('seed-1'))).not.toEqual(draws(new RandomStream('seed-2')));
  });

  it('draws uniformly in [0, 1)', () => {
    const values = draws(new RandomStream('unit'), 100_000);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(meanAndStdev(values).mean).toBeCloseTo(0.5, 2);
  });

  it('draws integers within inclusive bounds, reaching both ends', () => {
    const rng = new RandomStream('dice');
    const counts = new Map<number, number>();
    for (let i = 0; i < 60_000; i++) {
      const v = rng.int(-2, 3);
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual([-2, -1, 0, 1, 2, 3]);
    for (const count of counts.values()) expect(Math.abs(count - 10_000)).toBeLessThan(600);
    expect(rng.int(7, 7)).toBe(7);
  });

  it('throws for integer bounds that are not integers or are reversed', () => {
    const rng = new RandomStream('bad');
    expect(() => rng.int(5, 4)).toThrow(RangeError);
    expect(() => rng.int(0.5, 4)).toThrow(RangeError);
    expect(() => rng.int(0, 4.5)).toThrow(RangeError);
    expect(() => rng.int(0, Number.NaN)).toThrow(RangeError);
    expect(() => rng.int(0, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('draws normals with roughly the requested mean and standard deviation', () => {
    const rng = new RandomStream('normal');
    const { mean, stdev } = meanAndStdev(Array.from({ length: 100_000 }, () => rng.normal(10, 2)));
    expect(Math.abs(mean - 10)).toBeLessThan(0.05);
    expect(Math.abs(stdev - 2)).toBeLessThan(0.05);
  });

  it('draws exponentials with roughly the requested mean, never negative', () => {
    const rng = new RandomStream('exp');
    const values = Array.from({ length: 100_000 }, () => rng.exponential(4));
    expect(values.every((v) => v >= 0 && Number.isFinite(v))).toBe(true);
    expect(Math.abs(meanAndStdev(values).mean - 4)).toBeLessThan(0.1);
  });

  it('picks only from the given items and throws on an empty array', () => {
    const rng = new RandomStream('pick');
    const picked = new Set(Array.from({ length: 1_000 }, () => rng.pick(['a', 'b', 'c'])));
    expect([...picked].sort()).toEqual(['a', 'b', 'c']);
    expect(() => rng.pick([])).toThrow(RangeError);
  });

  it('returns true from chance with roughly the given probability', () => {
    const rng = new RandomStream('chance');
    let hits = 0;
    for (let i = 0; i < 100_000; i++) if (rng.chance(0.3)) hits++;
    expect(Math.abs(hits / 100_000 - 0.3)).toBeLessThan(0.01);
  });
});

describe('RandomStreams', () => {
  it('gives the same draws for the same run seed and name', () => {
    expect(draws(new RandomStreams(42).get('maker'))).toEqual(draws(new RandomStreams(42).get('maker')));
  });

  it('returns the same stream object for a name on every call', () => {
    const streams = new RandomStreams('run');
    const first = streams.get('maker');
    first.next();
    expect(streams.get('maker')).toBe(first);
  });

  it('gives different names different draws', () => {
    const streams = new RandomStreams('run');
    expect(draws(streams.get('maker'))).not.toEqual(draws(streams.get('taker')));
  });

  it('gives different run seeds different draws for one name', () => {
    expect(draws(new RandomStreams('run-a').get('maker'))).not.toEqual(draws(new RandomStreams('run-b').get('maker')));
  });

  it('does not change the draws of a name when another name is used first', () => {
    const alone = new RandomStreams('run');
    const crowded = new RandomStreams('run');
    draws(crowded.get('newcomer'), 37);
    crowded.get('another');
    const a = alone.get('maker');
    const b = crowded.get('maker');
    const interleaved: number[] = [];
    for (let i = 0; i < 100; i++) {
      interleaved.push(b.next());
      crowded.get('newcomer').next();
    }
    expect(interleaved).toEqual(draws(a));
  });
});
