import { describe, it, expect } from 'vitest';
import { compareFractions, gcd, reduceFraction } from '../../src/market/rational.ts';
import { RandomStream } from '../../src/random/random-stream.ts';

describe('rational helpers', () => {
  it('computes the greatest common divisor of signed values', () => {
    expect(gcd(12n, 18n)).toBe(6n);
    expect(gcd(-12n, 18n)).toBe(6n);
    expect(gcd(0n, -7n)).toBe(7n);
    expect(gcd(0n, 0n)).toBe(0n);
  });

  it('reduces fractions to lowest terms with a positive denominator', () => {
    expect(reduceFraction(6n, -4n)).toEqual({ num: -3n, den: 2n });
    expect(reduceFraction(-6n, -4n)).toEqual({ num: 3n, den: 2n });
    expect(reduceFraction(0n, -9n)).toEqual({ num: 0n, den: 1n });
    expect(() => reduceFraction(1n, 0n)).toThrow(RangeError);
  });

  it('compares fractions exactly, agreeing with scaled integers for seeded random values', () => {
    const rng = new RandomStream('rational-compare');
    for (let i = 0; i < 1_000; i++) {
      const a = { num: BigInt(rng.int(-1000, 1000)), den: BigInt(rng.int(1, 50)) };
      const b = { num: BigInt(rng.int(-1000, 1000)), den: BigInt(rng.int(1, 50)) };
      const reduced = reduceFraction(a.num, a.den);
      expect(reduced.num * a.den).toBe(a.num * reduced.den);
      const scale = 50n * 49n * 48n * 47n * 46n * 45n * 44n * 43n * 42n * 41n; // multiple of every den
      const x = (a.num * scale) / a.den;
      const y = (b.num * scale) / b.den;
      expect(compareFractions(a.num, a.den, b.num, b.den)).toBe(x < y ? -1 : x > y ? 1 : 0);
    }
  });
});
