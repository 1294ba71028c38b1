import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../src/clock/sim-clock.ts';

const NS = 1_000_000_000n;

describe('SimClock.nowSeconds', () => {
  it('is exactly Number(nowNs) / 1e9, on both sides of the exact-double bound and at its edges', () => {
    const sec = fc.oneof(fc.integer({ min: 0, max: 5_000_000_000 }), fc.integer({ min: 3_999_999_990, max: 4_000_000_010 }), fc.constantFrom(0, 1_767_225_600, 3_999_999_999, 4_611_686_018));
    const nanos = fc.oneof(fc.integer({ min: 0, max: 999_999_999 }), fc.constantFrom(0, 1, 128, 255, 256, 384, 999_999_999));
    fc.assert(
      fc.property(sec, nanos, (s, n) => {
        const clock = new SimClock(BigInt(s) * NS + BigInt(n));
        expect(clock.nowSeconds).toBe(Number(clock.nowNs) / 1e9);
      }),
      { numRuns: 5000, seed: 0x5ec },
    );
  });

  it('follows the clock as it runs', () => {
    const clock = new SimClock(1_767_225_600n * NS);
    const seen: number[] = [];
    clock.scheduleIn(1_500_000_123, () => seen.push(clock.nowSeconds));
    clock.runUntilIdle();
    expect(seen).toEqual([Number(1_767_225_601_500_000_123n) / 1e9]);
  });
});
