import fc from 'fast-check';
import type { Side } from '../../src/core/types.ts';
import type { Account } from '../../src/venue/account.ts';
import type { Venue } from '../../src/venue/venue.ts';
import { btcConfig, ethConfig, makeVenue, place } from './fixtures.ts';

/**
 * A venue with both margin paths of open orders and command streams over it, for the property
 * tests of open-order margin (open-margin-rows, close-undo): BTC at ~2^39 ticks, so order
 * notionals of up to 2^14 lots cross 2^53 (Money kept with the order), and a micro-tick market
 * whose 12.3456 % margin per tick·lot is no whole Money unit; three users with 10^33 of cash.
 */
export function venueWithBothPaths(extra: { takerFee?: string; makerFee?: string; selfTradePrevention?: boolean }) {
  const t = makeVenue({
    instruments: [
      btcConfig({ indexPrice: '500000000000', initialMarginPct: '10', ...extra }),
      ethConfig({
        symbol: 'MICROUSD-PERP',
        tickSize: '0.000000000000001',
        indexPrice: '0.000000001',
        initialMarginPct: '12.3456',
        ...(extra.selfTradePrevention === undefined ? {} : { selfTradePrevention: extra.selfTradePrevention }),
      }),
    ],
  });
  return { ...t, users: ['a', 'b', 'c'].map((n) => t.user(n, '1' + '0'.repeat(33))) };
}

/** A place near the mark (GTC or IOC, either market) or a cancel of one open order (`all`: every one of the account's). */
export type BothPathsCmd =
  | { user: number; micro: boolean; side: Side; offset: number; lots: number; ioc: boolean }
  | { cancel: number; which: number; all?: boolean };

/** Places and cancels weighted `placeWeight` : `cancelWeight`; cancels of all an account's orders only when `cancelAll`. */
export function bothPathsCmds(placeWeight: number, cancelWeight: number, cancelAll: boolean): fc.Arbitrary<BothPathsCmd> {
  const cancel = cancelAll ? fc.record({ cancel: fc.nat(2), which: fc.nat(20), all: fc.boolean() }) : fc.record({ cancel: fc.nat(2), which: fc.nat(20) });
  return fc.oneof(
    {
      arbitrary: fc.record({
        user: fc.nat(2),
        micro: fc.boolean(),
        side: fc.constantFrom<Side>('B', 'S'),
        offset: fc.integer({ min: -3, max: 3 }),
        lots: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 2 ** 14 })),
        ioc: fc.boolean(),
      }),
      weight: placeWeight,
    },
    { arbitrary: cancel, weight: cancelWeight },
  );
}

/** Runs one command of `bothPathsCmds` (the market's price `offset` ticks from its mark). */
export function applyBothPathsCmd(venue: Venue, users: Account[], c: BothPathsCmd): void {
  if ('cancel' in c) {
    const a = users[c.cancel]!;
    if (c.all === true) venue.cancelAll(a);
    else {
      const open = venue.openOrders(a);
      if (open.length > 0) venue.cancelOrder(a, open[c.which % open.length]!.id);
    }
    return;
  }
  const m = venue.markets[c.micro ? 1 : 0]!;
  place(venue, users[c.user]!, c.side, m.instrument.tick.toPrice(m.markTicks + c.offset), c.lots, { symbol: m.symbol, tif: c.ioc ? 'IOC' : 'GTC' });
}
