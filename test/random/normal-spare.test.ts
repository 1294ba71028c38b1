import fc from 'fast-check';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { RandomStream } from '../../src/random/random-stream.ts';

/** `RandomStream.normal` and `next` as they were (round 13): the spare normal as `number | undefined`. The oracle. */
class SpareAsUndefined {
  private readonly prng: () => number;
  private spareNormal: number | undefined;

  constructor(seed: string) {
    this.prng = seedrandom.alea(seed);
  }

  next(): number {
    return this.prng();
  }

  normal(mu = 0, sigma = 1): number {
    if (this.spareNormal !== undefined) {
      const z = this.spareNormal;
      this.spareNormal = undefined;
      return mu + sigma * z;
    }
    let u: number;
    let v: number;
    let s: number;
    do {
      u = 2 * this.prng() - 1;
      v = 2 * this.prng() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const factor = Math.sqrt((-2 * Math.log(s)) / s);
    this.spareNormal = v * factor;
    return mu + sigma * u * factor;
  }
}

describe("a random stream's normals", () => {
  it('are the draws the spare-as-undefined version gave, uniform draws in between included', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.oneof(fc.constant('next' as const), fc.tuple(fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: 0, max: 3, noNaN: true }))), { maxLength: 60 }), (seed, calls) => {
        const stream = new RandomStream(seed);
        const oracle = new SpareAsUndefined(seed);
        for (const c of calls) {
          if (c === 'next') expect(stream.next()).toBe(oracle.next());
          else expect(stream.normal(c[0], c[1])).toBe(oracle.normal(c[0], c[1]));
        }
      }),
      { numRuns: 300 },
    );
  });
});
