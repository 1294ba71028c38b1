import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Account } from '../../src/venue/account.ts';
import type { Venue } from '../../src/venue/venue.ts';
import { applyBothPathsCmd, bothPathsCmds, venueWithBothPaths } from './both-margin-paths.ts';
import { outcomeFailingAt } from './fault-outcome.ts';

/**
 * A resting order's margin and counts are taken back by their inverse when its command fails
 * (order-close.ts: `U_UNREST`, `U_REOPEN`), on both margin paths: Σ price × lots in the account's
 * market row, and Money kept with the order (`B_IM_BIG`: a market without a whole Money factor,
 * or a sum past 2^53). The oracle: a twin venue that never saw the failed command; the streams
 * cancel one order, all of an account's (several inverses of one account in one command) and
 * let self-trade prevention cancel resting orders.
 */

function make() {
  return venueWithBothPaths({ selfTradePrevention: true });
}

function fingerprint(venue: Venue, users: Account[]): unknown {
  return {
    hash: venue.stateHash(),
    totals: venue.moneyTotals(),
    books: venue.markets.map((m) => m.book.l3()),
    accounts: users.map((a) => ({
      im: a.openOrdersIm,
      open: venue.openOrders(a).map((o) => [o.id, o.state, o.filledLots, o.reservedIm]),
      rows: venue.markets.map((m) => [a.openCountIn(m), a.openLotsIn(m)]),
      risk: venue.riskSnapshot(a),
    })),
  };
}

const cmdArb = bothPathsCmds(3, 2, true);
const apply = applyBothPathsCmd;

describe('a resting order taken back by its inverse', () => {
  it('leaves margin, counts and books as a twin that never saw the failed command, on both margin paths (120 runs)', () => {
    const failedAt = new Set<string>();
    let bigVictims = 0;
    fc.assert(
      fc.property(fc.array(cmdArb, { minLength: 8, maxLength: 30 }), fc.nat(), fc.nat(12), (cmds, pick, step) => {
        const failing = make();
        const twin = make();
        const victim = cmds.length - 1 - (pick % Math.ceil(cmds.length / 2));
        for (const [i, c] of cmds.entries()) {
          if (i !== victim) {
            apply(failing.venue, failing.users, c);
            apply(twin.venue, twin.users, c);
            continue;
          }
          const bigBefore = failing.users.some((a) => a.openOrdersIm > 0n && failing.venue.openOrders(a).some((o) => o.market!.imFactor === undefined || o.priceTicks * (o.qtyLots - o.filledLots) > 2 ** 53));
          const { steps, failed } = outcomeFailingAt(step, () => apply(failing.venue, failing.users, c));
          if (!failed) apply(twin.venue, twin.users, c);
          else {
            failedAt.add(steps[step]!);
            if (bigBefore) bigVictims++;
          }
        }
        expect(fingerprint(failing.venue, failing.users)).toEqual(fingerprint(twin.venue, twin.users));
      }),
      { numRuns: 120, seed: 12 },
    );
    // Failures came after an order rested and after orders were closed (their inverses ran), with Money-margin orders around.
    for (const step of ['place.rested', 'cancel.close', 'place.done']) expect(failedAt).toContain(step);
    expect(bigVictims).toBeGreaterThan(10);
  });
});
