import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Side } from '../../src/core/types.ts';
import { marginOf, type Account } from '../../src/venue/account.ts';
import type { Venue } from '../../src/venue/venue.ts';
import { btcConfig, ethConfig, makeVenue, money, place } from './fixtures.ts';

/**
 * The open orders' initial margin is kept as numbers (Σ price × lots per account and market,
 * times the market's whole Money factor when read) and as Money only for orders whose market
 * has no whole factor or whose sum would pass 2^53. The oracle: Σ over the open orders of the
 * exact per-order margin (`marginOf`, bigint), recomputed from the order views after every
 * command; and each open order's `reservedIm` equals its own exact margin.
 */

/** BTC at 2^40-ish ticks (order notionals of 2^40 × up to 2^14 lots cross 2^53); a micro-tick market whose 12.3456 % margin per tick·lot (10^3 Money units) is no whole Money unit. */
function venueWithBothPaths() {
  const t = makeVenue({
    instruments: [
      btcConfig({ indexPrice: '500000000000', initialMarginPct: '10', takerFee: '0.0004', makerFee: '-0.0001' }),
      ethConfig({ symbol: 'MICROUSD-PERP', tickSize: '0.000000000000001', indexPrice: '0.000000001', initialMarginPct: '12.3456' }),
    ],
  });
  return { ...t, users: ['a', 'b', 'c'].map((n) => t.user(n, '1' + '0'.repeat(33))) };
}

function exactOpenMargin(venue: Venue, a: Account): bigint {
  let total = 0n;
  for (const o of venue.openOrders(a)) {
    const inst = o.market!.instrument;
    const own = marginOf(inst, o.priceTicks, o.qtyLots - o.filledLots, inst.initialMarginPct);
    expect(o.reservedIm).toBe(own);
    total += own;
  }
  return total;
}

type Cmd = { user: number; micro: boolean; side: Side; offset: number; lots: number; ioc: boolean } | { cancel: number; which: number };

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  {
    arbitrary: fc.record({
      user: fc.nat(2),
      micro: fc.boolean(),
      side: fc.constantFrom<Side>('B', 'S'),
      offset: fc.integer({ min: -3, max: 3 }),
      lots: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 2 ** 14 })),
      ioc: fc.boolean(),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ cancel: fc.nat(2), which: fc.nat(20) }), weight: 1 },
);

describe('open orders margin as numbers', () => {
  it('equals the sum of exact per-order margins after every place, fill and cancel, on both paths and across 2^53 (100 runs)', () => {
    let sawBig = false;
    let sawMicro = false;
    fc.assert(
      fc.property(fc.array(cmdArb, { minLength: 5, maxLength: 40 }), (cmds) => {
        const { venue, users } = venueWithBothPaths();
        const [btc, micro] = venue.markets as [(typeof venue.markets)[0], (typeof venue.markets)[0]];
        expect(btc.imFactor).toBeDefined();
        expect(micro.imFactor).toBeUndefined();
        for (const c of cmds) {
          if ('cancel' in c) {
            const open = venue.openOrders(users[c.cancel]!);
            if (open.length > 0) venue.cancelOrder(users[c.cancel]!, open[c.which % open.length]!.id);
          } else {
            const m = c.micro ? micro : btc;
            const price = m.instrument.tick.toPrice(m.markTicks + c.offset);
            place(venue, users[c.user]!, c.side, price, c.lots, { symbol: m.symbol, tif: c.ioc ? 'IOC' : 'GTC' });
          }
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
