import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireExchangePort } from '../../../src/api/client/wire-exchange-port.ts';
import { parseMoney } from '../../../src/core/money.ts';
import type { OrderFeed } from '../../../src/wire/order.ts';
import { ADMIN_TOKEN, feedOf, recordFeeds, startClientFixture, type ClientFixture, type Recorder } from './fixture.ts';

const BTC = 'BTCUSD-PERP';
const START_NS = 1_767_225_600_000_000_000n; // 2026-01-01T00:00:00Z, the empty scenario's start
const FUNDING_INTERVAL_S = 8 * 3600;

/**
 * Two users trade against each other through a served exchange, only over the wire client;
 * every outcome is checked against the venue's own state.
 */
describe('a full round trip through the server', () => {
  let fx: ClientFixture;
  let alice: WireExchangePort;
  let bob: WireExchangePort;
  let aliceFeeds: Recorder<OrderFeed>;
  let bobFeeds: Recorder<OrderFeed>;

  beforeAll(async () => {
    fx = await startClientFixture();
    alice = await fx.connect('alice', { adminToken: ADMIN_TOKEN });
    bob = await fx.connect('bob');
    aliceFeeds = recordFeeds(alice);
    bobFeeds = recordFeeds(bob);
  });
  afterAll(() => fx.close());

  /** The venue's own risk snapshot of a user, as the server holds it. */
  const venueSnapshot = (username: string) => fx.exchange.venue.riskSnapshot(fx.exchange.venue.account(username)!);

  it('rests an order, fills it partly, then fully, with feeds to both users', async () => {
    const ask = await alice.insertOrder({ symbol: BTC, side: 'S', price: '50010', quantity: 5, timeInForce: 'GTC' });
    await aliceFeeds.waitFor(feedOf('n', ask), 'New Order feed');

    const bid1 = await bob.insertOrder({ symbol: BTC, side: 'B', price: '50010', quantity: 2, timeInForce: 'GTC' });
    const partial = await aliceFeeds.waitFor(feedOf('p', ask), 'Partial Fill feed');
    expect(partial.o).toMatchObject({ xq: 2, rq: 3, o: 'PARTIALLY_FILLED' });
    expect(partial.xs).toMatchObject({ s: BTC, q: 2, p: '50010', d: 'S', agg: false });
    const bobFill1 = await bobFeeds.waitFor(feedOf('f', bid1), 'Fill feed of the taker');
    expect(bobFill1.xs).toMatchObject({ tid: partial.xs!.tid, q: 2, p: '50010', d: 'B', agg: true });

    const bid2 = await bob.insertOrder({ symbol: BTC, side: 'B', price: '50010', quantity: 3, timeInForce: 'GTC' });
    const fill = await aliceFeeds.waitFor(feedOf('f', ask), 'Fill feed of the maker');
    expect(fill.o).toMatchObject({ xq: 5, rq: 0, o: 'FILLED' });
    await bobFeeds.waitFor(feedOf('f', bid2), 'second Fill feed of the taker');
    expect(await alice.openOrders()).toEqual([]);
  });

  it('cancels a resting order with a Cancel Order feed', async () => {
    const bid = await alice.insertOrder({ symbol: BTC, side: 'B', price: '49000', quantity: 1, timeInForce: 'GTC' });
    expect((await alice.openOrders()).map((o) => o.order_id)).toEqual([bid]);
    await alice.cancelOrder(bid);
    const canceled = await aliceFeeds.waitFor(feedOf('c', bid), 'Cancel Order feed');
    expect(canceled.xr).toBe('USER_REQUESTED');
    expect(canceled.o).toMatchObject({ o: 'CANCELED', rq: 0 });
    expect(await alice.openOrders()).toEqual([]);
  });

  it('expires the unfilled rest of an IOC order', async () => {
    const ask = await alice.insertOrder({ symbol: BTC, side: 'S', price: '50020', quantity: 1, timeInForce: 'GTC' });
    const ioc = await bob.insertOrder({ symbol: BTC, side: 'B', price: '50020', quantity: 3, timeInForce: 'IOC' });
    await aliceFeeds.waitFor(feedOf('f', ask), 'Fill feed of the resting order');
    const expired = await bobFeeds.waitFor(feedOf('x', ioc), 'Expired Order feed');
    expect(expired.o).toMatchObject({ xq: 1, rq: 0, o: 'EXPIRED', tif: 'IOC' });
    expect(bobFeeds.seen.filter((f) => f.o?.oid === ioc).map((f) => f.t)).toEqual(['n', 'p', 'x']);
  });

  it('reports positions and cash exactly as the venue holds them', async () => {
    const [a, b] = [await alice.riskSnapshot(), await bob.riskSnapshot()];
    expect(a).toEqual(venueSnapshot('alice'));
    expect(b).toEqual(venueSnapshot('bob'));
    expect(a.positions.find((p) => p.symbol === BTC)?.net_quantity).toBe('-6');
    expect(b.positions.find((p) => p.symbol === BTC)?.net_quantity).toBe('6');
    // Taker fees (0.0002 of notional) were charged to bob only: 5 @ 50010 and 1 @ 50020.
    expect(parseMoney(b.cash_balance)).toBe(parseMoney('1000000') - parseMoney('60.014'));
    expect(a.cash_balance).toBe('1000000');
    expect(await alice.admin!.stateHash()).toBe(fx.exchange.venue.stateHash());
  });

  it('pays funding from longs to shorts after one funding interval of admin clock', async () => {
    // A book of 50090 / 50110 around the index of 50000 puts the mark at 50090 for the interval.
    await alice.insertOrder({ symbol: BTC, side: 'B', price: '50090', quantity: 1, timeInForce: 'GTC' });
    await bob.insertOrder({ symbol: BTC, side: 'S', price: '50110', quantity: 1, timeInForce: 'GTC' });
    const before = { alice: parseMoney((await alice.riskSnapshot()).cash_balance), bob: parseMoney((await bob.riskSnapshot()).cash_balance) };

    const status = await alice.admin!.advance(FUNDING_INTERVAL_S);
    expect(status.nowNs).toBe(START_NS + BigInt(FUNDING_INTERVAL_S) * 1_000_000_000n);
    expect(alice.now()).toBe(status.nowNs);

    const records = await bob.fundingRates(BTC, START_NS, status.nowNs);
    expect(records).toEqual([
      { timestamp: '2026-01-01T08:00:00.000000000Z', symbol: BTC, benchmark_price: '50000', settlement_price: '50090', funding_amount: '90', funding_rate: '0.0018' },
    ]);
    const after = { alice: await alice.riskSnapshot(), bob: await bob.riskSnapshot() };
    // Bob is long 6 and pays 90 × 6 to alice, short 6.
    expect(parseMoney(after.alice.cash_balance) - before.alice).toBe(parseMoney('540'));
    expect(parseMoney(after.bob.cash_balance) - before.bob).toBe(-parseMoney('540'));
    expect(after.alice).toEqual(venueSnapshot('alice'));
    expect(after.bob).toEqual(venueSnapshot('bob'));
    expect(await alice.admin!.stateHash()).toBe(fx.exchange.venue.stateHash());
  });
});
