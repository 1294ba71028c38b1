import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../src/clock/sim-clock.ts';
import type { Side, TimeInForce } from '../../src/core/types.ts';
import { setFaultHook } from '../../src/venue/fault-points.ts';
import type { Order } from '../../src/venue/order.ts';
import { Venue } from '../../src/venue/venue.ts';
import { btcConfig, ethConfig, money, T0_NS } from './fixtures.ts';

/** One step: place on one of two markets, or cancel the n-th order a user placed; `failAt` > 0 fails the command at that fault point. */
type Step = { kind: 'place'; user: number; eth: boolean; side: Side; offset: number; lots: number; tif: TimeInForce; failAt: number } | { kind: 'cancel'; user: number; pick: number; failAt: number };

const failAt = fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }) });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('place' as const), user: fc.integer({ min: 0, max: 2 }), eth: fc.boolean(), side: fc.constantFrom<Side>('B', 'S'), offset: fc.integer({ min: -3, max: 3 }), lots: fc.integer({ min: 1, max: 5 }), tif: fc.constantFrom<TimeInForce>('GTC', 'GTC', 'IOC'), failAt }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), user: fc.integer({ min: 0, max: 2 }), pick: fc.integer({ min: 0, max: 40 }), failAt }) },
);

describe("a venue's books find their orders through the venue's one index (VenueBookIndex)", () => {
  it('each book holds exactly its market\'s open orders by engine id, counts them, and takes them off by id — also after commands failed at any step', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 80 }), (steps) => {
        const venue = new Venue(new SimClock(T0_NS), { instruments: [btcConfig({ selfTradePrevention: true }), ethConfig()] });
        const users = ['a', 'b', 'c'].map((u) => venue.addUser(u, money('1000000')));
        const placed: Order[] = [];
        for (const step of steps) {
          let seen = 0;
          setFaultHook(step.failAt === 0 ? undefined : () => {
            if (++seen === step.failAt) throw new Error('injected');
          });
          try {
            const user = users[step.user]!;
            if (step.kind === 'place') {
              const market = venue.markets[step.eth ? 1 : 0]!;
              placed.push(venue.placeOrderTicks(user, market, step.side, (step.eth ? 10_000 : 100_000) + step.offset, step.lots, step.tif));
            } else {
              const mine = placed.filter((o) => o.userId === user.id);
              if (mine.length > 0) venue.cancelOrder(user, mine[step.pick % mine.length]!.id);
            }
          } catch {
            // the command was rolled back
          } finally {
            setFaultHook(undefined);
          }
          for (const market of venue.markets) {
            const open = users.flatMap((u) => venue.openOrders(u)).filter((o) => o.symbol === market.symbol);
            expect(market.book.orderCount).toBe(open.length);
            for (const o of placed) {
              const resting = open.some((x) => x.id === o.id);
              expect(market.book.has(o.seq)).toBe(resting);
              expect(market.book.openLots(o.seq)).toBe(resting ? o.qtyLots - o.filledLots : 0);
            }
          }
        }
      }),
      { numRuns: 120, seed: 91 },
    );
  });
});
