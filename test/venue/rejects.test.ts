import { describe, it, expect } from 'vitest';
import type { InstrumentState } from '../../src/core/types.ts';
import type { Account } from '../../src/venue/account.ts';
import type { OrderFeed } from '../../src/wire/order.ts';
import type { Order } from '../../src/venue/order.ts';
import { btcConfig, ethConfig, lastFeed, makeVenue, place, type FeedLog, type TestVenue } from './fixtures.ts';

/** Asserts that `order` was rejected with `reason` by a lone `j` feed, and returns that feed. */
function expectRejected(feeds: FeedLog, account: Account, order: Order, reason: string): OrderFeed {
  const mine = feeds.forOrder(order.id);
  expect(mine.map((f) => f.t), `feeds of ${order.id}`).toEqual(['j']);
  const j = lastFeed(feeds, account);
  expect(j.r).toBe(reason);
  expect(j.o).toMatchObject({ oid: order.id, o: 'REJECTED', rq: 0, xq: 0 });
  expect(order.state).toBe('REJECTED');
  return j;
}

/** Book content and the account's open orders before and after, to show a reject changed nothing. */
function snapshotOf(t: TestVenue, account: Account): string {
  return JSON.stringify({
    books: t.venue.markets.map((m) => m.book.stateHash()),
    open: t.venue.openOrders(account).map((o) => o.id),
    im: String(account.openOrdersIm),
    cash: String(account.cash),
  });
}

describe('order rejections', () => {
  it('rejects an order for a symbol that is not listed with UNKNOWN_SYMBOL', () => {
    const { venue, feeds, user } = makeVenue();
    const alice = user('alice');
    const order = place(venue, alice, 'B', '3000.50', 1, { symbol: 'ETHUSD-PERP' });
    const j = expectRejected(feeds, alice, order, 'UNKNOWN_SYMBOL');
    expect(j.o).toMatchObject({ s: 'ETHUSD-PERP', p: '3000.5' });
  });

  it.each<InstrumentState>(['HALTED', 'CLOSED', 'PRE_OPEN', 'CLOSED_FROZEN', 'DELISTED'])(
    'rejects orders with EXCHANGE_CLOSED while the instrument is %s, and accepts them again once OPEN',
    (state) => {
      const { venue, feeds, btc, user } = makeVenue();
      const alice = user('alice');
      venue.setInstrumentState(btc, state);
      const order = place(venue, alice, 'B', '49000', 1);
      expect(expectRejected(feeds, alice, order, 'EXCHANGE_CLOSED').txt).toContain(state);
      venue.setInstrumentState(btc, 'OPEN');
      expect(place(venue, alice, 'B', '49000', 1).state).toBe('NEW');
    },
  );

  it('rejects a zero, negative or fractional quantity and one that is not a multiple of the minimum with INCORRECT_QUANTITY', () => {
    const { venue, feeds, user } = makeVenue({ instruments: [btcConfig(), ethConfig({ minimumTradeQuantity: 5 })] });
    const alice = user('alice');
    for (const qty of [0, -1, 1.5]) expectRejected(feeds, alice, place(venue, alice, 'B', '49000', qty), 'INCORRECT_QUANTITY');
    expectRejected(feeds, alice, place(venue, alice, 'B', '99', 7, { symbol: 'ETHUSD-PERP' }), 'INCORRECT_QUANTITY');
    expect(lastFeed(feeds, alice).txt).toContain('5');
    expect(place(venue, alice, 'B', '99', 10, { symbol: 'ETHUSD-PERP' }).state).toBe('NEW');
  });

  it('rejects a price that is not a multiple of the tick size with INVALID_PRICE_INCREMENT', () => {
    const { venue, feeds, user } = makeVenue();
    const alice = user('alice');
    expectRejected(feeds, alice, place(venue, alice, 'B', '50000.3', 1), 'INVALID_PRICE_INCREMENT');
    expectRejected(feeds, alice, place(venue, alice, 'B', '0', 1), 'INVALID_PRICE_INCREMENT');
    expect(place(venue, alice, 'B', '50000.50', 1).state).toBe('NEW');
  });

  it('rejects prices more than 10% away from the mark with PRICE_OUT_OF_BOUNDS and accepts the band edges', () => {
    const { venue, feeds, user } = makeVenue();
    const alice = user('alice');
    // Mark = index = 50000: the band is [45000, 55000].
    expectRejected(feeds, alice, place(venue, alice, 'S', '55000.5', 1), 'PRICE_OUT_OF_BOUNDS');
    expectRejected(feeds, alice, place(venue, alice, 'B', '44999.5', 1), 'PRICE_OUT_OF_BOUNDS');
    expect(lastFeed(feeds, alice).txt).toContain('50000');
    expect(place(venue, alice, 'S', '55000', 1).state).toBe('NEW');
    expect(place(venue, alice, 'B', '45000', 1).state).toBe('NEW');
  });

  it('rejects a post-only order that would cross with r UNKNOWN and the documented text, leaving the book as it was', () => {
    const t = makeVenue();
    const { venue, feeds, user } = t;
    const maker = user('maker');
    const alice = user('alice');
    place(venue, maker, 'S', '50010', 1);
    const before = snapshotOf(t, alice);

    const j = expectRejected(feeds, alice, place(venue, alice, 'B', '50010', 1, { postOnly: true }), 'UNKNOWN');
    expect(j.txt).toBe('post-only order would cross the book');
    expect(snapshotOf(t, alice)).toBe(before);
    expect(feeds.trades).toEqual([]);
    expect(place(venue, alice, 'B', '50009.5', 1, { postOnly: true }).state).toBe('NEW');
  });

  it('rejects an order whose initial margin with the open orders and positions would exceed equity with INSUFFICIENT_MARGIN', () => {
    const t = makeVenue();
    const { venue, feeds, user } = t;
    // IM of 1 @ 50000 = 1 × 50000 × 1 × 15% = 7500: exactly the cash.
    const alice = user('alice', '7500');
    const first = place(venue, alice, 'B', '50000', 1);
    expect(first.state).toBe('NEW');
    expect(alice.openOrdersIm).toBe(7_500n * 10n ** 18n);
    const before = snapshotOf(t, alice);

    expectRejected(feeds, alice, place(venue, alice, 'B', '45000', 1), 'INSUFFICIENT_MARGIN');
    expect(snapshotOf(t, alice)).toBe(before);

    venue.cancelOrder(alice, first.id);
    expect(place(venue, alice, 'B', '45000', 1).state).toBe('NEW');
    const poor = user('poor', '7499.99');
    expectRejected(feeds, poor, place(venue, poor, 'B', '50000', 1), 'INSUFFICIENT_MARGIN');
  });

  it('rejects an order beyond the per-instrument open order limit with MAX_OPEN_ORDERS_EXCEEDED', () => {
    const t = makeVenue({ instruments: [btcConfig({ maxOpenOrders: 2 }), ethConfig()] });
    const { venue, feeds, user } = t;
    const alice = user('alice');
    const first = place(venue, alice, 'B', '49000', 1);
    place(venue, alice, 'B', '49001', 1);
    const before = snapshotOf(t, alice);

    expectRejected(feeds, alice, place(venue, alice, 'B', '49002', 1), 'MAX_OPEN_ORDERS_EXCEEDED');
    expect(snapshotOf(t, alice)).toBe(before);
    expect(place(venue, alice, 'B', '99', 1, { symbol: 'ETHUSD-PERP' }).state).toBe('NEW'); // the limit is per instrument
    expect(place(venue, user('bob'), 'B', '49002', 1).state).toBe('NEW'); // and per user

    venue.cancelOrder(alice, first.id);
    expect(place(venue, alice, 'B', '49002', 1).state).toBe('NEW');
  });

  it('never lets a rejected order reach the book, whatever the reason', () => {
    const t = makeVenue({ instruments: [btcConfig({ maxOpenOrders: 1 })] });
    const { venue, feeds, user, btc } = t;
    const alice = user('alice', '20000');
    const maker = user('maker');
    place(venue, maker, 'S', '50010', 1);
    place(venue, alice, 'B', '49000', 1);
    const before = snapshotOf(t, alice);
    feeds.clear();

    place(venue, alice, 'B', '49000', 1, { symbol: 'XYZUSD-PERP' });
    place(venue, alice, 'B', '49000', 0);
    place(venue, alice, 'B', '49000.25', 1);
    place(venue, alice, 'B', '60000', 1);
    place(venue, alice, 'B', '49500', 1); // over the open-order limit
    place(venue, user('carol'), 'S', '49000', 1, { postOnly: true }); // would cross alice's bid
    place(venue, user('poor', '1'), 'B', '49000', 1);
    venue.setInstrumentState(btc, 'HALTED');
    place(venue, alice, 'B', '49000', 1);

    expect(feeds.all.map((e) => `${e.feed.t}:${e.feed.r}`)).toEqual([
      'j:UNKNOWN_SYMBOL',
      'j:INCORRECT_QUANTITY',
      'j:INVALID_PRICE_INCREMENT',
      'j:PRICE_OUT_OF_BOUNDS',
      'j:MAX_OPEN_ORDERS_EXCEEDED',
      'j:UNKNOWN',
      'j:INSUFFICIENT_MARGIN',
      'j:EXCHANGE_CLOSED',
    ]);
    expect(snapshotOf(t, alice)).toBe(before);
    expect(btc.book.orderCount).toBe(2);
    expect(feeds.trades).toEqual([]);
  });
});
