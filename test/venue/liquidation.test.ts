import { describe, it, expect } from 'vitest';
import { riskTotals } from '../../src/venue/risk-view.ts';
import { LIQUIDATION_ID, NS_PER_S, btcConfig, ethConfig, makeVenue, money, place } from './fixtures.ts';

/**
 * alice (cash 8000) buys 1 BTC @ 50000 from bob and rests a small ETH bid; bob quotes
 * 46000 / 47000 with 2 bids, so mark = median(index, 46000, 47000).
 */
function thinLong() {
  const t = makeVenue({ instruments: [btcConfig(), ethConfig()] });
  const { venue, user } = t;
  const alice = user('alice', '8000');
  const bob = user('bob');
  place(venue, bob, 'S', '50000', 1);
  place(venue, alice, 'B', '50000', 1); // taker fee 10 → cash 7990
  const ethBid = place(venue, alice, 'B', '95', 1, { symbol: 'ETHUSD-PERP' });
  expect(ethBid.state).toBe('NEW');
  const bid = place(venue, bob, 'B', '46000', 2);
  place(venue, bob, 'S', '47000', 1);
  return { ...t, alice, bob, ethBid, bid };
}

describe('liquidation', () => {
  it('cancels the orders of an account below maintenance margin and closes its position with an L- IOC order against resting bids', () => {
    const { venue, btc, feeds, alice, bob, ethBid, bid } = thinLong();
    expect(btc.markTicks).toBe(btc.instrument.tick.toTicks('47000'));

    // At mark 47000: equity 7990 − 3000 = 4990 ≥ maintenance 4700: nothing happens.
    venue.checkLiquidations();
    expect(venue.liquidationCount).toBe(0);
    feeds.clear();

    // The index falls to 46200, and the mark with it: equity 4190 < maintenance 4620.
    venue.setIndexPrice(btc, btc.instrument.tick.toTicks('46200')!);
    expect(btc.markTicks).toBe(btc.instrument.tick.toTicks('46200'));
    const before = riskTotals(alice);
    expect(before.equity).toBe(money('4190'));
    expect(before.maintenance).toBe(money('4620'));
    venue.checkLiquidations();

    expect(venue.liquidationCount).toBe(1);
    expect(feeds.typesOf(alice)).toBe('c,n,f');
    const [cancel, newOrder, fill] = feeds.of(alice);
    expect(cancel).toMatchObject({ xr: 'LIQUIDATION', o: { oid: ethBid.id, o: 'CANCELED', rq: 0 } });
    expect(newOrder!.o!.oid).toMatch(LIQUIDATION_ID);
    expect(newOrder!.o).toMatchObject({ s: 'BTCUSD-PERP', d: 'S', q: 1, tif: 'IOC', liq: true, o: 'NEW' });
    // Priced at the band edge below the mark (46200 − 10% = 41580): it takes bob's best bid.
    expect(newOrder!.o!.p).toBe('41580');
    expect(fill!.xs).toMatchObject({ q: 1, p: '46000', d: 'S', agg: true });
    expect(fill!.o).toMatchObject({ oid: newOrder!.o!.oid, o: 'FILLED', liq: true, rq: 0 });
    expect(feeds.of(bob).map((f) => f.t)).toEqual(['p']);
    expect(feeds.of(bob)[0]!.o!.oid).toBe(bid.id);

    expect(alice.findPosition(btc)!.position.netLots).toBe(0);
    expect(bob.findPosition(btc)!.position.netLots).toBe(0);
    expect(venue.openOrders(alice)).toEqual([]);
    // 8000 − 10 (fee in) − 4000 (loss) − 9.2 (taker fee 0.0002 × 46000 out).
    expect(alice.cash).toBe(money('3980.8'));

    // Flat now: the next check leaves alice alone.
    venue.checkLiquidations();
    expect(venue.liquidationCount).toBe(1);
  });

  it('liquidates on its own one-second cadence once the venue is started', () => {
    const { venue, clock, btc, alice } = thinLong();
    venue.start();
    const t = clock.nowNs;
    venue.setIndexPrice(btc, btc.instrument.tick.toTicks('46200')!);
    clock.runUntil(t + NS_PER_S - 1n);
    expect(venue.liquidationCount).toBe(0);
    clock.runUntil(t + NS_PER_S);
    expect(venue.liquidationCount).toBe(1);
    expect(alice.findPosition(btc)!.position.netLots).toBe(0);
  });

  it('leaves what the band cannot fill open and retries it at the next check', () => {
    const { venue, btc, feeds, alice, bob } = thinLong();
    // alice is long 1; bob's only bid is cancelled, so nothing can take the liquidation order.
    venue.cancelAll(bob);
    venue.setIndexPrice(btc, btc.instrument.tick.toTicks('46200')!);
    feeds.clear();
    venue.checkLiquidations();

    expect(feeds.typesOf(alice)).toBe('c,n,x');
    expect(feeds.of(alice)[2]!.o).toMatchObject({ liq: true, o: 'EXPIRED', rq: 0 });
    expect(alice.findPosition(btc)!.position.netLots).toBe(1);

    place(venue, bob, 'B', '45000', 1);
    venue.checkLiquidations();
    expect(venue.liquidationCount).toBe(2);
    expect(alice.findPosition(btc)!.position.netLots).toBe(0);
  });
});
