import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveInstrument } from '../../src/venue/instrument.ts';
import { Market, floorDiv, lowestTerms } from '../../src/venue/market.ts';
import { T0_SEC } from './fixtures.ts';

describe('the price band in numbers', () => {
  it('floorDiv is the exact floor of the quotient of safe integers', () => {
    fc.assert(
      fc.property(fc.oneof(fc.nat(), fc.integer({ min: 2 ** 52, max: Number.MAX_SAFE_INTEGER - 2 ** 20 })), fc.integer({ min: 1, max: 2 ** 20 }), (a, d) => {
        expect(floorDiv(a, d)).toBe(Number(BigInt(a) / BigInt(d)));
      }),
      { numRuns: 2000 },
    );
  });

  it('lowestTerms reduces a ratio, or gives NaNs when it does not fit in safe integers', () => {
    expect(lowestTerms({ num: 10n * 10n ** 18n, den: 100n * 10n ** 18n })).toEqual([1, 10]);
    expect(lowestTerms({ num: 0n, den: 7n })).toEqual([0, 1]);
    expect(lowestTerms({ num: 2n ** 60n + 1n, den: 3n })).toEqual([NaN, NaN]);
  });

  it('the band of a market at any mark is floor(mark × band) as the bigint formula gives it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 15 }), fc.constantFrom('10', '0.5', '3.3333', '99.999999999999999999', '0.000000000000000001'), (markTicks, band) => {
        const inst = resolveInstrument({ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: String(markTicks / 2), priceBandPct: band });
        const m = new Market(0, inst, T0_SEC, 0);
        const expected = Number((BigInt(markTicks) * inst.priceBandPct.num) / inst.priceBandPct.den);
        expect(m.markTicks).toBe(markTicks);
        expect(m.bandEdgeTicks('B')).toBe(markTicks + expected);
        expect(m.isWithinBand(markTicks + expected)).toBe(true);
        expect(m.isWithinBand(markTicks + expected + 1)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
