import { describe, it, expect } from 'vitest';
import { markPriceTicks, medianOfThree } from '../../src/market/mark-price.ts';
import { RandomStream } from '../../src/random/random-stream.ts';

describe('markPriceTicks', () => {
  it('takes the index when it lies between the best bid and the best ask', () => {
    expect(markPriceTicks(100, 99, 101)).toBe(100);
  });

  it('takes the best bid when the index is below the bid', () => {
    expect(markPriceTicks(95, 99, 101)).toBe(99);
  });

  it('takes the best ask when the index is above the ask', () => {
    expect(markPriceTicks(105, 99, 101)).toBe(101);
  });

  it('returns the middle value for all six orderings of three distinct prices', () => {
    const permutations: [number, number, number][] = [
      [1, 2, 3],
      [1, 3, 2],
      [2, 1, 3],
      [2, 3, 1],
      [3, 1, 2],
      [3, 2, 1],
    ];
    for (const [a, b, c] of permutations) expect(markPriceTicks(a, b, c)).toBe(2);
  });

  it('handles ties, including the index equal to a touch price', () => {
    expect(markPriceTicks(99, 99, 101)).toBe(99);
    expect(markPriceTicks(101, 99, 101)).toBe(101);
    expect(markPriceTicks(100, 100, 100)).toBe(100);
    expect(markPriceTicks(50, 100, 100)).toBe(100);
  });

  it('falls back to the index when the book has no asks', () => {
    expect(markPriceTicks(100, 120, undefined)).toBe(100);
  });

  it('falls back to the index when the book has no bids', () => {
    expect(markPriceTicks(100, undefined, 80)).toBe(100);
  });

  it('falls back to the index when the book is empty', () => {
    expect(markPriceTicks(100, undefined, undefined)).toBe(100);
  });

  it('still takes the median of a crossed book', () => {
    expect(markPriceTicks(100, 105, 95)).toBe(100);
    expect(markPriceTicks(90, 105, 95)).toBe(95);
  });

  it('rejects prices that are not safe integers', () => {
    expect(() => markPriceTicks(100.5, 99, 101)).toThrow(RangeError);
    expect(() => markPriceTicks(100, Number.NaN, 101)).toThrow(RangeError);
    expect(() => markPriceTicks(100, 99, Infinity)).toThrow(RangeError);
  });

  it('agrees with sorting for seeded random prices', () => {
    const rng = new RandomStream('mark-median');
    for (let i = 0; i < 2_000; i++) {
      const values = [rng.int(-50, 50), rng.int(-50, 50), rng.int(-50, 50)];
      const sorted = [...values].sort((x, y) => x - y);
      expect(medianOfThree(values[0]!, values[1]!, values[2]!)).toBe(sorted[1]);
      expect(markPriceTicks(values[0]!, values[1], values[2])).toBe(sorted[1]);
    }
  });
});
