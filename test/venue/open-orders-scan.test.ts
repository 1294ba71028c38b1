import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../src/clock/sim-clock.ts';
import type { Side, TimeInForce } from '../../src/core/types.ts';
import type { Order } from '../../src/venue/order.ts';
import { Venue } from '../../src/venue/venue.ts';
import { btcConfig, ethConfig, money, T0_NS } from './fixtures.ts';

/** One step: place on one of two markets, cancel the n-th order a user placed, or cancel all of a user's. */
type Step =
  | { kind: 'place'; user: number; eth: boolean; side: Side; offset: number; lots: number; tif: TimeInForce }
  | { kind: 'cancel'; user: number; pick: number }
  | { kind: 'cancelAll'; user: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('place' as const), user: fc.integer({ min: 0, max: 2 }), eth: fc.boolean(), side: fc.constantFrom<Side>('B', 'S'), offset: fc.integer({ min: -4, max: 4 }), lots: fc.integer({ min: 1, max: 5 }), tif: fc.constantFrom<TimeInForce>('GTC', 'GTC', 'IOC') }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cancel' as const), user: fc.integer({ min: 0, max: 2 }), pick: fc.integer({ min: 0, max: 40 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelAll' as const), user: fc.integer({ min: 0, max: 2 }) }) },
);

describe("an account's open orders found by a scan of the records (no chain through them)", () => {
  it('lists exactly the orders still open, oldest first, across markets and reused slots, as the order objects say', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 120 }), (steps) => {
        const venue = new Venue(new SimClock(T0_NS), { instruments: [btcConfig({ selfTradePrevention: true }), ethConfig()] });
        const users = ['a', 'b', 'c'].map((u) => venue.addUser(u, money('1000000')));
        const [btc, eth] = venue.markets;
        // The oracle: every order a user placed, in placement order, read through its own object.
        const placed: Order[][] = users.map(() => []);
        for (const step of steps) {
          const user = users[step.user]!;
          if (step.kind === 'place') {
            const market = step.eth ? eth! : btc!;
            const mid = step.eth ? 10_000 : 100_000;
            placed[step.user]!.push(venue.placeOrderTicks(user, market, step.side, mid + step.offset, step.lots, step.tif));
          } else if (step.kind === 'cancel') {
            const mine = placed[step.user]!;
            if (mine.length > 0) venue.cancelOrder(user, mine[step.pick % mine.length]!.id);
          } else {
            const expected = placed[step.user]!.filter(isOpen).map((o) => o.id);
            expect(venue.cancelAll(user).successful).toEqual(expected);
          }
          users.forEach((u, i) => expect(venue.openOrders(u).map((o) => o.id)).toEqual(placed[i]!.filter(isOpen).map((o) => o.id)));
        }
      }),
      { numRuns: 150, seed: 9 },
    );
  });
});

function isOpen(o: Order): boolean {
  return o.state === 'NEW' || o.state === 'PARTIALLY_FILLED';
}
