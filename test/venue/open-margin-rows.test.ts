import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Account } from '../../src/venue/account.ts';
import type { Venue } from '../../src/venue/venue.ts';
import { applyBothPathsCmd, bothPathsCmds, venueWithBothPaths } from './both-margin-paths.ts';
import { btcConfig, makeVenue, money, place } from './fixtures.ts';
import { modelAtRate } from './money-model.ts';

/**
 * The open orders' initial margin is kept as numbers (Σ price × lots per account and market,
 * times the market's whole Money factor when read) and as Money only for orders whose market
 * has no whole factor or whose sum would pass 2^53. The oracle: Σ over the open orders of the
 * exact per-order margin (`modelAtRate`, bigint, not the venue's `marginOf`), recomputed from
 * the order views after every command; and each open order's `reservedIm` equals its own exact
 * margin.
 */

function exactOpenMargin(venue: Venue, a: Account): bigint {
  let total = 0n;
  for (const o of venue.openOrders(a)) {
    const inst = o.market!.instrument;
    const own = modelAtRate(inst, o.priceTicks, o.qtyLots - o.filledLots, inst.initialMarginPct);
    expect(o.reservedIm).toBe(own);
    total += own;
  }
  return total;
}

const cmdArb = bothPathsCmds(4, 1, false);

describe('open orders margin as numbers', () => {
  it('equals the sum of exact per-order margins after every place, fill and cancel, on both paths and across 2^53 (100 runs)', () => {
    let sawBig = false;
    let sawMicro = false;
    fc.assert(
      fc.property(fc.array(cmdArb, { minLength: 5, maxLength: 40 }), (cmds) => {
        const { venue, users } = venueWithBothPaths({ takerFee: '0.0004', makerFee: '-0.0001' });
        const [btc, micro] = venue.markets as [(typeof venue.markets)[0], (typeof venue.markets)[0]];
        expect(btc.imFactor).toBeDefined();
        expect(micro.imFactor).toBeUndefined();
        for (const c of cmds) {
          applyBothPathsCmd(venue, users, c);
          for (const a of users) {
            expect(a.openOrdersIm).toBe(exactOpenMargin(venue, a));
            for (const o of venue.openOrders(a)) {
              if (o.market === micro) sawMicro = true;
              else if (o.priceTicks * (o.qtyLots - o.filledLots) > 2 ** 53) sawBig = true;
            }
          }
        }
      }),
      { numRuns: 100, seed: 11 },
    );
    expect(sawBig).toBe(true);
    expect(sawMicro).toBe(true);
  });

  it('keeps its margin pre-check in doubles agreeing with the exact check when open orders hold most of the equity', () => {
    const { venue, user } = makeVenue({ instruments: [btcConfig({ initialMarginPct: '10' })] });
    const m = venue.markets[0]!;
    const alice = user('alice', '10000');
    // 10 % of one lot at 50000 is 5000: one resting order uses half of the cash.
    expect(place(venue, alice, 'B', '50000', 1).state).toBe('NEW');
    expect(alice.openOrdersIm).toBe(money('5000'));
    const im = (lots: number) => m.markTicks * lots * m.imPerTickLotApprox;
    expect(alice.initialMarginFits(im(1) / 2)).toBe(1);
    expect(alice.initialMarginFits(im(2))).toBe(-1);
    // Exactly what is left: too close to call in doubles, or fits.
    expect(alice.initialMarginFits(im(1))).toBeGreaterThanOrEqual(0);
    expect(place(venue, alice, 'B', '50000', 1).state).toBe('NEW');
    expect(place(venue, alice, 'B', '1', 1).state).toBe('REJECTED');
  });
});
