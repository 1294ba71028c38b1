import { describe, it, expect } from 'vitest';
import { isTerminalState } from '../../src/core/types.ts';
import { ORDER_ID, at, btcConfig, lastFeed, makeVenue, place } from './fixtures.ts';

const WS_ORDER_KEYS = ['d', 'liq', 'o', 'oid', 'p', 'q', 'rq', 's', 'tif', 'tn', 'ts', 'u', 'xq'];

describe('order feeds', () => {
  it('announces an accepted order with a New Order feed carrying the websocket form of the order', () => {
    const { venue, clock, feeds, user } = makeVenue();
    clock.runUntil(at(1) + 250_000_000n);
    const alice = user('alice');
    const order = place(venue, alice, 'B', '49990.50', 2);

    expect(feeds.typesOf(alice)).toBe('n');
    const n = lastFeed(feeds, alice);
    expect(Object.keys(n).sort()).toEqual(['eid', 'o', 't', 'tn', 'ts']);
    expect(typeof n.eid).toBe('string');
    expect(n.ts).toBe(clock.nowSec);
    expect(n.tn).toBe(250_000_000);
    expect(Object.keys(n.o!).sort()).toEqual(WS_ORDER_KEYS);
    expect(n.o).toEqual({
      oid: order.id,
      u: 'alice',
      s: 'BTCUSD-PERP',
      p: '49990.5',
      q: 2,
      xq: 0,
      rq: 2,
      o: 'NEW',
      d: 'B',
      tif: 'GTC',
      liq: false,
      ts: clock.nowSec,
      tn: 250_000_000,
    });
  });

  it('gives orders ids of O- and 26 Crockford characters, increasing in creation order', () => {
    const { venue, clock, user } = makeVenue();
    const alice = user('alice');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(place(venue, alice, 'B', '49000', 1).id);
      clock.runUntil(clock.nowNs + 1_000_000n);
    }
    for (const id of ids) expect(id).toMatch(ORDER_ID);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(5);
  });

  it('rejects a bad order with a Rejected Order feed carrying r and txt and nothing else', () => {
    const { venue, feeds, user } = makeVenue();
    const alice = user('alice');
    const order = place(venue, alice, 'B', '50000.3', 1);

    expect(feeds.typesOf(alice)).toBe('j');
    const j = lastFeed(feeds, alice);
    expect(Object.keys(j).sort()).toEqual(['eid', 'o', 'r', 't', 'tn', 'ts', 'txt']);
    expect(j.r).toBe('INVALID_PRICE_INCREMENT');
    expect(j.txt).toMatch(/tick size 0\.5/);
    expect(j.o).toMatchObject({ oid: order.id, p: '50000.3', o: 'REJECTED', rq: 0, xq: 0 });
    expect(order.state).toBe('REJECTED');
  });

  it('sends the maker a Partial Fill and the taker a Fill for one trade, sharing the trade id at the maker price', () => {
    const { venue, feeds, user } = makeVenue();
    const maker = user('maker');
    const taker = user('taker');
    const ask = place(venue, maker, 'S', '50010', 5);
    const bid = place(venue, taker, 'B', '50020', 2);

    expect(feeds.typesOf(maker)).toBe('n,p');
    expect(feeds.typesOf(taker)).toBe('n,f');
    const p = lastFeed(feeds, maker);
    const f = lastFeed(feeds, taker);
    expect(Object.keys(p).sort()).toEqual(['eid', 'o', 't', 'tn', 'ts', 'xs']);
    expect(Object.keys(f).sort()).toEqual(['eid', 'o', 't', 'tn', 'ts', 'xs']);
    expect(Object.keys(p.xs!).sort()).toEqual(['agg', 'd', 'p', 'q', 's', 'tid']);
    expect(p.xs).toEqual({ tid: f.xs!.tid, s: 'BTCUSD-PERP', q: 2, p: '50010', d: 'S', agg: false });
    expect(f.xs).toEqual({ tid: p.xs!.tid, s: 'BTCUSD-PERP', q: 2, p: '50010', d: 'B', agg: true });
    expect(typeof p.xs!.tid).toBe('string');
    expect(p.eid).not.toBe(f.eid);
    expect(p.o).toMatchObject({ oid: ask.id, o: 'PARTIALLY_FILLED', xq: 2, rq: 3, p: '50010' });
    expect(f.o).toMatchObject({ oid: bid.id, o: 'FILLED', xq: 2, rq: 0, p: '50020' });
    expect(feeds.trades).toHaveLength(1);
    expect(feeds.trades[0]).toMatchObject({ tid: p.xs!.tid, makerOrderId: ask.id, takerOrderId: bid.id, takerSide: 'B' });
  });

  it('sends feeds of an aggressive IOC order in the order n, fills, then x for the unfilled remainder', () => {
    const { venue, feeds, user } = makeVenue();
    const maker = user('maker');
    const taker = user('taker');
    const ask = place(venue, maker, 'S', '50010', 3);
    feeds.clear();
    const ioc = place(venue, taker, 'B', '50010', 5, { tif: 'IOC' });

    const sequence = feeds.all.map((e) => `${e.userId === maker.id ? 'maker' : 'taker'}:${e.feed.t}`);
    expect(sequence).toEqual(['taker:n', 'maker:f', 'taker:p', 'taker:x']);
    const x = lastFeed(feeds, taker);
    expect(Object.keys(x).sort()).toEqual(['eid', 'o', 't', 'tn', 'ts']);
    expect(x.o).toMatchObject({ oid: ioc.id, o: 'EXPIRED', q: 5, xq: 3, rq: 0, tif: 'IOC' });
    expect(feeds.forOrder(ask.id).at(-1)!.o).toMatchObject({ o: 'FILLED', rq: 0 });
    expect(venue.openOrders(taker)).toEqual([]);
    expect(venue.openOrders(maker)).toEqual([]);
  });

  it('expires an IOC order that finds nothing to trade with right after its New Order feed', () => {
    const { venue, feeds, user } = makeVenue();
    const alice = user('alice');
    const order = place(venue, alice, 'S', '50000', 4, { tif: 'IOC' });
    expect(feeds.typesOf(alice)).toBe('n,x');
    expect(lastFeed(feeds, alice).o).toMatchObject({ oid: order.id, o: 'EXPIRED', xq: 0, rq: 0 });
    expect(venue.market('BTCUSD-PERP')!.book.orderCount).toBe(0);
  });

  it('confirms a user cancel with a Cancel Order feed with xr USER_REQUESTED and frees the order', () => {
    const { venue, feeds, user } = makeVenue();
    const alice = user('alice');
    const order = place(venue, alice, 'B', '49000', 3);

    expect(venue.cancelOrder(alice, order.id)).toBe(true);
    expect(feeds.typesOf(alice)).toBe('n,c');
    const c = lastFeed(feeds, alice);
    expect(Object.keys(c).sort()).toEqual(['eid', 'o', 't', 'tn', 'ts', 'txt', 'xr']);
    expect(c.xr).toBe('USER_REQUESTED');
    expect(c.txt).toBe('canceled by user');
    expect(c.o).toMatchObject({ oid: order.id, o: 'CANCELED', xq: 0, rq: 0 });
    expect(venue.openOrders(alice)).toEqual([]);
    expect(alice.openOrdersIm).toBe(0n);
  });

  it('reports an administrator cancel to the owner with xr EXCHANGE_OPTION', () => {
    const { venue, feeds, user } = makeVenue();
    const alice = user('alice');
    const order = place(venue, alice, 'S', '51000', 1);

    expect(venue.adminCancelOrder(order.id)).toBe(true);
    const c = lastFeed(feeds, alice);
    expect(c).toMatchObject({ t: 'c', xr: 'EXCHANGE_OPTION', o: { oid: order.id, o: 'CANCELED', rq: 0 } });
    expect(venue.adminCancelOrder(order.id)).toBe(false);
  });

  it('answers a cancel of an unknown order id with a Cancel Reject feed without eid or order', () => {
    const { venue, feeds, user } = makeVenue();
    const alice = user('alice');

    expect(venue.cancelOrder(alice, 'O-NOSUCHORDER')).toBe(false);
    const e = lastFeed(feeds, alice);
    expect(Object.keys(e).sort()).toEqual(['oid', 'r', 't', 'tn', 'ts', 'txt']);
    expect(e).toMatchObject({ t: 'e', oid: 'O-NOSUCHORDER', r: 'UNKNOWN_ORDER', txt: 'no open order with this id' });
  });

  it('rejects a cancel of another user’s order and leaves that order resting untouched', () => {
    const { venue, feeds, user } = makeVenue();
    const alice = user('alice');
    const mallory = user('mallory');
    const order = place(venue, alice, 'B', '49500', 2);
    feeds.clear();

    expect(venue.cancelOrder(mallory, order.id)).toBe(false);
    expect(feeds.typesOf(mallory)).toBe('e');
    expect(lastFeed(feeds, mallory)).toMatchObject({ t: 'e', oid: order.id, r: 'UNKNOWN_ORDER' });
    expect(feeds.of(alice)).toEqual([]);
    expect(venue.openOrders(alice).map((o) => o.id)).toEqual([order.id]);
    expect(venue.findOpenOrder(mallory, order.id)).toBeUndefined();
    expect(venue.cancelAll(mallory)).toEqual({ successful: [], failed: [] });
    expect(venue.openOrders(alice)).toHaveLength(1);
  });

  it('rejects a cancel of an order that has already filled', () => {
    const { venue, feeds, user } = makeVenue();
    const alice = user('alice');
    const bob = user('bob');
    const ask = place(venue, alice, 'S', '50000', 1);
    place(venue, bob, 'B', '50000', 1);

    expect(venue.cancelOrder(alice, ask.id)).toBe(false);
    expect(lastFeed(feeds, alice)).toMatchObject({ t: 'e', oid: ask.id, r: 'UNKNOWN_ORDER' });
  });

  it('lets a user trade with their own order by default', () => {
    const { venue, feeds, user } = makeVenue();
    const alice = user('alice');
    place(venue, alice, 'S', '50000', 1);
    place(venue, alice, 'B', '50000', 1);
    expect(feeds.typesOf(alice)).toBe('n,n,f,f');
    expect(feeds.trades).toHaveLength(1);
    expect(alice.findPosition(venue.markets[0]!)!.position.netLots).toBe(0);
  });

  it('cancels the user’s own resting order with xr SELF_TRADE when self-trade prevention is on', () => {
    const { venue, feeds, btc, user } = makeVenue({ instruments: [btcConfig({ selfTradePrevention: true })] });
    const alice = user('alice');
    const bob = user('bob');
    const own = place(venue, alice, 'S', '50000', 2);
    place(venue, bob, 'S', '50005', 1);
    feeds.clear();

    const buy = place(venue, alice, 'B', '50005', 3);

    expect(feeds.typesOf(alice)).toBe('n,c,p');
    const [, cancel, fill] = feeds.of(alice);
    expect(cancel).toMatchObject({ xr: 'SELF_TRADE', o: { oid: own.id, o: 'CANCELED', rq: 0 } });
    expect(fill!.xs).toMatchObject({ q: 1, p: '50005', agg: true });
    expect(feeds.typesOf(bob)).toBe('f');
    expect(venue.openOrders(alice).map((o) => [o.id, o.state, o.qtyLots - o.filledLots])).toEqual([[buy.id, 'PARTIALLY_FILLED', 2]]);
    expect(btc.book.bestAskTicks()).toBeUndefined();
    expect(btc.book.bestBidTicks()).toBe(100_010);
  });

  it('ends resting orders with Done for Day when trading hours close, and reopens the next morning', () => {
    // Monday 2024-01-01, session 08:00–16:00 UTC; start at 09:00.
    const { venue, clock, feeds, btc, user } = makeVenue({
      instruments: [btcConfig({ tradingHours: { open: '08:00', close: '16:00' } })],
      startNs: at(9 * 3600),
    });
    venue.start();
    expect(btc.state).toBe('OPEN');
    const alice = user('alice');
    const order = place(venue, alice, 'B', '49000', 2);

    clock.runUntil(at(16 * 3600) - 1n);
    expect(feeds.typesOf(alice)).toBe('n');
    clock.runUntil(at(16 * 3600));
    expect(btc.state).toBe('CLOSED');
    expect(feeds.typesOf(alice)).toBe('n,d');
    const d = lastFeed(feeds, alice);
    expect(Object.keys(d).sort()).toEqual(['eid', 'o', 't', 'tn', 'ts']);
    expect(d.ts).toBe(clock.nowSec);
    expect(d.o).toMatchObject({ oid: order.id, o: 'DONE_FOR_DAY', xq: 0, rq: 0 });
    expect(venue.openOrders(alice)).toEqual([]);
    expect(btc.book.orderCount).toBe(0);

    expect(place(venue, alice, 'B', '49000', 1).state).toBe('REJECTED');
    expect(lastFeed(feeds, alice).r).toBe('EXCHANGE_CLOSED');

    clock.runUntil(at(24 * 3600 + 8 * 3600));
    expect(btc.state).toBe('OPEN');
    expect(place(venue, alice, 'B', '49000', 1).state).toBe('NEW');
  });

  it('shows rq 0 in every terminal state a session of mixed orders reaches', () => {
    const { venue, feeds, user } = makeVenue();
    const alice = user('alice');
    const bob = user('bob');
    const a1 = place(venue, alice, 'S', '50010', 2);
    place(venue, alice, 'S', '50020', 2);
    place(venue, bob, 'B', '50020', 3); // fills a1, partially fills the second ask
    place(venue, bob, 'B', '50030', 5, { tif: 'IOC' }); // fills the rest, expires
    place(venue, bob, 'B', '1', 1); // rejected: out of the price band
    const resting = place(venue, bob, 'B', '49000', 1);
    venue.cancelOrder(bob, resting.id);
    venue.cancelOrder(bob, a1.id); // cancel reject

    const states = new Set<string>();
    for (const { feed } of feeds.all) {
      if (feed.o === undefined) continue;
      if (isTerminalState(feed.o.o)) {
        states.add(feed.o.o);
        expect(feed.o.rq, `${feed.t} ${feed.o.o}`).toBe(0);
        expect(feed.o.xq).toBeLessThanOrEqual(feed.o.q);
      } else {
        expect(feed.o.rq + feed.o.xq).toBe(feed.o.q);
      }
    }
    expect([...states].sort()).toEqual(['CANCELED', 'EXPIRED', 'FILLED', 'REJECTED']);
  });
});
