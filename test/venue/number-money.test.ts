import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Side } from '../../src/core/types.ts';
import { Position } from '../../src/risk/position.ts';
import { BigintPosition } from './bigint-position.ts';
import { btcConfig, makeVenue, money, place } from './fixtures.ts';
import { modelAtRate } from './money-model.ts';

describe('tick·lot totals as numbers', () => {
  it('match a bigint FIFO position fill by fill, also across 2^53 (prices up to 2^40, sizes up to 2^20)', () => {
    const fillArb = fc.tuple(fc.constantFrom<Side>('B', 'S'), fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 2 ** 40 })), fc.integer({ min: 1, max: 2 ** 20 }));
    fc.assert(
      fc.property(fc.array(fillArb, { maxLength: 60 }), fc.integer({ min: 1, max: 2 ** 40 }), (fills, mark) => {
        const fast = new Position();
        const oracle = new BigintPosition();
        for (const [side, price, lots] of fills) {
          expect(fast.applyFill(side, price, lots)).toBe(oracle.fill(side, price, lots));
          expect([BigInt(fast.netLots), fast.buyNotionalTicks, fast.sellNotionalTicks, fast.realizedTicks, fast.openCostTicks]).toEqual([oracle.net, oracle.buy, oracle.sell, oracle.realized, oracle.openCost]);
        }
        const unrealized = oracle.net === 0n ? 0n : oracle.net > 0n ? BigInt(mark) * oracle.net - oracle.openCost : oracle.openCost + BigInt(mark) * oracle.net;
        expect(fast.unrealizedTicks(mark)).toBe(unrealized);
        // Two roundings past 2^53 (mark × lots, then the difference), plus the oracle's own
        // conversion to a double: within |mark × lots| × 2^-53 + 2 × |unrealized| × 2^-53.
        const markLots = Math.abs(Number(BigInt(mark) * oracle.net));
        expect(Math.abs(fast.unrealizedTicksApprox(mark) - Number(unrealized))).toBeLessThanOrEqual((markLots + 2 * Math.abs(Number(unrealized))) * 2 ** -53);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps the double estimate within its bound when the open cost cancels most of mark × lots past 2^53 (the case CI found)', () => {
    const fast = new Position();
    const oracle = new BigintPosition();
    fast.applyFill('B', 317_331_070_031, 17_903);
    oracle.fill('B', 317_331_070_031, 17_903);
    const mark = 1_042_170_975_010;
    const unrealized = Number(BigInt(mark) * oracle.net - oracle.openCost);
    const error = Math.abs(fast.unrealizedTicksApprox(mark) - unrealized);
    // More than a unit in 2^53 of the result, within the product's and the result's roundings.
    expect(error).toBeGreaterThan(Math.abs(unrealized) * 2 ** -52);
    expect(error).toBeLessThanOrEqual((mark * 17_903 + 2 * Math.abs(unrealized)) * 2 ** -53);
  });
});

describe('the margin check in doubles', () => {
  it('never contradicts the exact check: it answers its sign or leaves it to the exact check, also at the limit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000, max: 60_000 }),
        fc.array(fc.tuple(fc.constantFrom<Side>('B', 'S'), fc.integer({ min: -40, max: 40 }), fc.integer({ min: 1, max: 3 })), { maxLength: 12 }),
        fc.integer({ min: -400, max: 400 }),
        (cash, trades, offset) => {
          const { venue, user } = makeVenue({ instruments: [btcConfig({ initialMarginPct: '10', takerFee: '0.0004', makerFee: '-0.0001' })] });
          const m = venue.markets[0]!;
          const maker = user('maker', '100000000');
          const thin = user('thin', String(cash));
          for (const [side, off, lots] of trades) {
            const price = String(50_000 + off);
            place(venue, maker, side === 'B' ? 'S' : 'B', price, lots);
            place(venue, thin, side, price, lots, { tif: 'IOC' });
          }
          place(venue, thin, 'B', String(49_000 + offset), 1); // maybe resting, maybe rejected
          venue.setIndexPrice(m, 100_000 + 2 * offset);
          const inst = m.instrument;
          // Orders around what is left: the exact slack crosses zero within this range.
          const slack = thin.equity() - thin.openOrdersIm - thin.positionsMargin('initial');
          const perLot = modelAtRate(inst, m.markTicks, 1, inst.initialMarginPct);
          const around = Number(slack / perLot);
          for (const lots of [around - 1, around, around + 1, around + 2].filter((q) => q >= 1)) {
            const exact = slack - modelAtRate(inst, m.markTicks, lots, inst.initialMarginPct);
            const fits = thin.initialMarginFits(m.markTicks * lots * m.imPerTickLotApprox);
            if (fits !== 0) expect(fits > 0).toBe(exact >= 0n);
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  it('accepts an order that uses the margin to the last Money unit and rejects one more lot', () => {
    // Cash 5000, IM 10%: exactly one lot at 50000 uses it all (tick 0.5, no fees on entry).
    const { venue, user } = makeVenue({ instruments: [btcConfig({ initialMarginPct: '10' })] });
    const alice = user('alice', '5000');
    expect(place(venue, alice, 'B', '50000', 1).state).toBe('NEW');
    expect(alice.openOrdersIm).toBe(money('5000'));
    expect(place(venue, alice, 'B', '1', 1).state).toBe('REJECTED');
  });
});
