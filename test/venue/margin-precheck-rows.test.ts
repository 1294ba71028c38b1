import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Account } from '../../src/venue/account.ts';
import { applyBothPathsCmd, bothPathsCmds } from './both-margin-paths.ts';
import { btcConfig, ethConfig, makeVenue } from './fixtures.ts';

/**
 * The margin pre-check in doubles (`Account.initialMarginFits`: the market rows read as
 * literals, the open orders' Money kept off the rows as a double set with it) against the
 * exact check in bigints, on accounts with every kind of term: open orders counted in the rows
 * and kept as Money (`B_IM_BIG`: notionals past 2^53, a market without a whole margin factor),
 * positions long and short, fees and PnL pending as counters. Whenever it answers, it answers
 * the exact sign; it answers for most orders well away from the edge.
 */

/** equity − open orders' margin − positions' margin, exactly: what a new order's margin must not exceed. */
function exactSlack(a: Account): bigint {
  return a.equity() - a.openOrdersIm - a.positionsMargin('initial');
}

const cmdArb = bothPathsCmds(4, 1, true);

/**
 * BTC (a whole margin factor: open orders in the rows) and a market at a price of 1 with a tick
 * of 10^-15, whose 12.3456 % margin per tick·lot is no whole Money unit (open orders kept as
 * Money), for users with little enough cash that either kind of open margin is a large part of
 * what is left.
 */
function thinVenue() {
  const t = makeVenue({
    instruments: [
      btcConfig({ initialMarginPct: '10', takerFee: '0.0004', makerFee: '-0.0001' }),
      ethConfig({ symbol: 'MICROUSD-PERP', tickSize: '0.000000000000001', indexPrice: '1', initialMarginPct: '12.3456' }),
    ],
  });
  return { ...t, users: ['a', 'b', 'c'].map((n) => t.user(n, '30000')) };
}

describe('the margin pre-check read straight from the rows', () => {
  it('never contradicts the exact check after places, fills and cancels in both margin paths (100 runs)', () => {
    let answered = 0;
    let sawBigMoney = false;
    fc.assert(
      fc.property(fc.array(cmdArb, { minLength: 5, maxLength: 30 }), (cmds) => {
        const { venue, users } = thinVenue();
        for (const c of cmds) {
          applyBothPathsCmd(venue, users, c);
          for (const a of users) {
            const slack = exactSlack(a);
            // Open margin kept as Money worth at least a thousandth of what is left.
            if (venue.openOrders(a).reduce((sum, o) => sum + o.reservedIm, 0n) * 1000n > slack && slack > 0n) sawBigMoney = true;
            // New orders' margins around the slack (as doubles, whole Money units at this size) and far from it.
            const s = Number(slack);
            for (const im of [s * 0.5, s * (1 - 1e-9), s * (1 + 1e-9), s * 2, Math.abs(s) * 1e-3]) {
              const fits = a.initialMarginFits(im);
              if (fits === 0) continue;
              answered++;
              expect(fits > 0).toBe(BigInt(Math.round(im)) <= slack);
            }
          }
        }
      }),
      { numRuns: 100 },
    );
    expect(sawBigMoney).toBe(true);
    expect(answered).toBeGreaterThan(1000);
  });
});
