import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keys, place, startFixture, START_SEC, WS_ORDER_KEYS, type Fixture } from './helpers.ts';

let fx: Fixture;
beforeEach(async () => {
  fx = await startFixture();
});
afterEach(async () => {
  await fx.close();
});

describe('order websocket: login and logout', () => {
  it('logs in with a token of the token endpoints and answers li with the open orders', async () => {
    const ws = await fx.open('/orders');
    const reply = await ws.request({ rid: 1, t: 'a', u: 'alice', k: fx.tokens.alice });
    expect(reply).toEqual({ rid: 1, res: { li: 'alice', o: [] } });
  });

  it('lists orders already open at login in websocket form', async () => {
    const first = await fx.orderSocket('alice');
    const placed = await first.request(place(1, 'B', 3, '49000'));
    const ws = await fx.open('/orders');
    const reply = await ws.request({ rid: 2, t: 'a', u: 'alice', k: fx.tokens.alice });
    expect(reply.res.o).toHaveLength(1);
    expect(keys(reply.res.o[0])).toEqual(WS_ORDER_KEYS);
    expect(reply.res.o[0]).toMatchObject({ oid: placed.res.oid, u: 'alice', s: 'BTCUSD-PERP', p: '49000', q: 3, rq: 3, o: 'NEW', d: 'B' });
  });

  it('refuses a second login on the same socket with 409', async () => {
    const ws = await fx.orderSocket('alice');
    const reply = await ws.request({ rid: 7, t: 'a', u: 'alice', k: fx.tokens.alice });
    expect(reply).toEqual({ rid: 7, err: { code: 409, msg: expect.any(String) } });
  });

  it('refuses a wrong token, another user\'s token and an expired token with 401', async () => {
    const ws = await fx.open('/orders');
    expect((await ws.request({ rid: 1, t: 'a', u: 'alice', k: 'nonsense' })).err.code).toBe(401);
    expect((await ws.request({ rid: 2, t: 'a', u: 'alice', k: fx.tokens.bob })).err.code).toBe(401);
    expect((await ws.request({ rid: 3, t: 'a', u: 'mallory', k: fx.tokens.alice })).err.code).toBe(401);
    expect(ws.isOpen).toBe(true);
  });

  it('refuses a token that expired on the wall clock', async () => {
    const wall = { ms: 1_800_000_000_000 };
    const local = await startFixture({ exchange: { wallNow: () => wall.ms } });
    try {
      const token = (await local.exchange.users.tokenForPassword('bob', 'bob-password', 1))!;
      const ws = await local.open('/orders');
      wall.ms += 1500;
      const reply = await ws.request({ rid: 1, t: 'a', u: 'bob', k: token });
      expect(reply.err).toEqual({ code: 401, msg: expect.any(String) });
    } finally {
      await local.close();
    }
  });

  it('answers every request before login with 401 "not logged in" and keeps the socket open', async () => {
    const ws = await fx.open('/orders');
    for (const [rid, req] of [[1, place(1, 'B', 1, '49000')], [2, { rid: 2, t: 'x', oid: 'O-1' }], [3, { rid: 3, t: 'o' }], [4, { rid: 4, t: 'z' }]] as const) {
      expect(await ws.request({ ...req, rid })).toEqual({ rid, err: { code: 401, msg: 'not logged in' } });
    }
    expect((await ws.request({ rid: 5, t: 'a', u: 'alice', k: fx.tokens.alice })).res.li).toBe('alice');
  });

  it('logs out with lo, then treats the socket as not logged in and sends it no more feeds', async () => {
    const ws = await fx.orderSocket('alice');
    expect(await ws.request({ rid: 1, t: 'z' })).toEqual({ rid: 1, res: { lo: 'alice' } });
    expect((await ws.request(place(2, 'B', 1, '49000'))).err.code).toBe(401);
    const other = await fx.orderSocket('alice');
    await other.request(place(3, 'B', 1, '49000'));
    expect(await other.next()).toMatchObject({ t: 'n' });
    expect(await ws.drain()).toEqual([]);
    expect((await ws.request({ rid: 4, t: 'a', u: 'alice', k: fx.tokens.alice })).res.li).toBe('alice');
  });
});

describe('order websocket: request errors', () => {
  it('answers a frame that is not JSON, or not an object, with rid null and 400, and stays open', async () => {
    const ws = await fx.open('/orders');
    ws.send('{not json');
    expect(await ws.next()).toEqual({ rid: null, err: { code: 400, msg: expect.any(String) } });
    ws.send('[1,2]');
    expect(await ws.next()).toEqual({ rid: null, err: { code: 400, msg: expect.any(String) } });
    ws.send('42');
    expect((await ws.next()).err.code).toBe(400);
    expect((await ws.request({ rid: 9, t: 'a', u: 'alice', k: fx.tokens.alice })).res.li).toBe('alice');
  });

  it('answers an unknown or missing t, and a missing or non-integer rid, with 400', async () => {
    const ws = await fx.orderSocket('alice');
    expect(await ws.request({ rid: 1, t: 'q' })).toEqual({ rid: 1, err: { code: 400, msg: expect.stringContaining('unknown request type') } });
    expect((await ws.request({ rid: 2 })).err).toEqual({ code: 400, msg: 't is required' });
    ws.send({ t: 'o' });
    expect(await ws.next()).toEqual({ rid: null, err: { code: 400, msg: 'rid is required' } });
    ws.send({ rid: 'r-1', t: 'o' });
    expect(await ws.next()).toEqual({ rid: 'r-1', err: { code: 400, msg: 'rid must be an integer' } });
  });

  it('answers a place without a field with 400 naming that field (a missing symbol too)', async () => {
    const ws = await fx.orderSocket('alice');
    let rid = 10;
    for (const field of ['s', 'd', 'q', 'p', 'tif', 'po']) {
      const req = place(++rid, 'B', 1, '49000');
      delete req[field];
      expect(await ws.request(req)).toEqual({ rid, err: { code: 400, msg: `${field} is required` } });
    }
    expect(await ws.drain()).toEqual([]); // no order, no feed
  });

  it('answers a place with a field of the wrong type or value with 400', async () => {
    const ws = await fx.orderSocket('alice');
    const bad: [string, unknown][] = [
      ['q', 1.5],
      ['q', '1'],
      ['p', 49000],
      ['p', '4.9e4'],
      ['p', '49000.00000'],
      ['d', 'BUY'],
      ['tif', 'FOK'],
      ['po', 'false'],
      ['s', 'btcusd-perp'],
      ['s', 7],
    ];
    let rid = 20;
    for (const [field, value] of bad) {
      const reply = await ws.request(place(++rid, 'B', 1, '49000', { [field]: value }));
      expect(reply.err?.code, `${field}=${JSON.stringify(value)}`).toBe(400);
      expect(reply.err.msg.startsWith(field)).toBe(true);
    }
  });

  it('answers a cancel without oid with 400', async () => {
    const ws = await fx.orderSocket('alice');
    expect(await ws.request({ rid: 1, t: 'x' })).toEqual({ rid: 1, err: { code: 400, msg: 'oid is required' } });
  });
});

describe('order websocket: orders and feeds', () => {
  it('answers a place with the order id, then pushes a New Order feed with the documented keys', async () => {
    const ws = await fx.orderSocket('alice');
    ws.send(place(1, 'B', 2, '49500.5'));
    const reply = await ws.next();
    expect(reply).toEqual({ rid: 1, res: { oid: expect.stringMatching(/^O-[0-9A-Z]{26}$/) } });
    const feed = await ws.next();
    expect(keys(feed)).toEqual(['eid', 'o', 't', 'tn', 'ts']);
    expect(feed).toMatchObject({ t: 'n', ts: START_SEC, tn: 0, eid: expect.any(String) });
    expect(keys(feed.o)).toEqual(WS_ORDER_KEYS);
    expect(feed.o).toEqual({ oid: reply.res.oid, u: 'alice', s: 'BTCUSD-PERP', p: '49500.5', q: 2, xq: 0, rq: 2, o: 'NEW', d: 'B', tif: 'GTC', liq: false, ts: START_SEC, tn: 0 });
  });

  it('pushes Partial Fill to the maker and New Order then Fill to the taker, with matching xs', async () => {
    const alice = await fx.orderSocket('alice');
    const bob = await fx.orderSocket('bob');
    const sell = await alice.request(place(1, 'S', 3, '50000'));
    expect(await alice.next()).toMatchObject({ t: 'n' });
    const buy = await bob.request(place(2, 'B', 1, '50000'));
    expect(await bob.next()).toMatchObject({ t: 'n', o: { oid: buy.res.oid } });
    const taker = await bob.next();
    const maker = await alice.next();
    expect(keys(maker)).toEqual(['eid', 'o', 't', 'tn', 'ts', 'xs']);
    expect(keys(maker.xs)).toEqual(['agg', 'd', 'p', 'q', 's', 'tid']);
    expect(maker).toMatchObject({ t: 'p', o: { oid: sell.res.oid, xq: 1, rq: 2, o: 'PARTIALLY_FILLED' }, xs: { s: 'BTCUSD-PERP', q: 1, p: '50000', d: 'S', agg: false } });
    expect(keys(taker)).toEqual(['eid', 'o', 't', 'tn', 'ts', 'xs']);
    expect(taker).toMatchObject({ t: 'f', o: { oid: buy.res.oid, xq: 1, rq: 0, o: 'FILLED' }, xs: { s: 'BTCUSD-PERP', q: 1, p: '50000', d: 'B', agg: true } });
    expect(taker.xs.tid).toBe(maker.xs.tid);
    expect(taker.eid).not.toBe(maker.eid);
  });

  it('acknowledges a cancel with cxl_rx, then pushes the Cancel Order feed', async () => {
    const ws = await fx.orderSocket('alice');
    const { res } = await ws.request(place(1, 'S', 1, '51000'));
    expect(await ws.next()).toMatchObject({ t: 'n' });
    ws.send({ rid: 2, t: 'x', oid: res.oid });
    expect(await ws.next()).toEqual({ rid: 2, res: { cxl_rx: true } });
    const feed = await ws.next();
    expect(keys(feed)).toEqual(['eid', 'o', 't', 'tn', 'ts', 'txt', 'xr']);
    expect(feed).toMatchObject({ t: 'c', xr: 'USER_REQUESTED', o: { oid: res.oid, o: 'CANCELED', rq: 0 } });
  });

  it('acknowledges a cancel of an unknown order with cxl_rx, then pushes Cancel Reject UNKNOWN_ORDER', async () => {
    const ws = await fx.orderSocket('alice');
    ws.send({ rid: 3, t: 'x', oid: 'O-NOSUCHORDER' });
    expect(await ws.next()).toEqual({ rid: 3, res: { cxl_rx: true } });
    const feed = await ws.next();
    expect(keys(feed)).toEqual(['oid', 'r', 't', 'tn', 'ts', 'txt']);
    expect(feed).toMatchObject({ t: 'e', oid: 'O-NOSUCHORDER', r: 'UNKNOWN_ORDER' });
  });

  it("rejects a cancel of another user's order with a Cancel Reject, leaving the order open", async () => {
    const alice = await fx.orderSocket('alice');
    const bob = await fx.orderSocket('bob');
    const { res } = await alice.request(place(1, 'S', 1, '51000'));
    await bob.request({ rid: 2, t: 'x', oid: res.oid });
    expect(await bob.next()).toMatchObject({ t: 'e', oid: res.oid, r: 'UNKNOWN_ORDER' });
    expect((await alice.request({ rid: 3, t: 'o' })).o).toHaveLength(1);
  });

  it('pushes New Order then Expired Order for an IOC that finds no liquidity', async () => {
    const ws = await fx.orderSocket('alice');
    const { res } = await ws.request(place(1, 'B', 2, '50000', { tif: 'IOC' }));
    expect(await ws.next()).toMatchObject({ t: 'n', o: { oid: res.oid, tif: 'IOC' } });
    expect(await ws.next()).toMatchObject({ t: 'x', o: { oid: res.oid, o: 'EXPIRED', rq: 0 } });
  });

  it('pushes a Rejected Order feed for a post-only order that would cross', async () => {
    const alice = await fx.orderSocket('alice');
    const bob = await fx.orderSocket('bob');
    await alice.request(place(1, 'S', 1, '50000'));
    const { res } = await bob.request(place(2, 'B', 1, '50000', { po: true }));
    const feed = await bob.next();
    expect(keys(feed)).toEqual(['eid', 'o', 'r', 't', 'tn', 'ts', 'txt']);
    expect(feed).toMatchObject({ t: 'j', r: 'UNKNOWN', txt: 'post-only order would cross the book', o: { oid: res.oid, o: 'REJECTED' } });
  });

  it('answers business-rule failures with an order id and a Rejected Order feed, not an error', async () => {
    const ws = await fx.orderSocket('alice');
    const unknown = await ws.request(place(1, 'B', 1, '100', { s: 'DOGEUSD-PERP' }));
    expect(unknown.res.oid).toMatch(/^O-/);
    expect(await ws.next()).toMatchObject({ t: 'j', r: 'UNKNOWN_SYMBOL', o: { oid: unknown.res.oid, s: 'DOGEUSD-PERP' } });
    await ws.request(place(2, 'B', 1, '49000.25'));
    expect(await ws.next()).toMatchObject({ t: 'j', r: 'INVALID_PRICE_INCREMENT' });
    await ws.request(place(3, 'B', 0, '49000'));
    expect(await ws.next()).toMatchObject({ t: 'j', r: 'INCORRECT_QUANTITY' });
  });

  it('answers open orders with o directly beside rid, without a res wrapper', async () => {
    const ws = await fx.orderSocket('alice');
    const a = await ws.request(place(1, 'B', 1, '49000'));
    const b = await ws.request(place(2, 'S', 2, '51000'));
    const reply = await ws.request({ rid: 3, t: 'o' });
    expect(keys(reply)).toEqual(['o', 'rid']);
    expect(reply.o.map((o: { oid: string }) => o.oid)).toEqual([a.res.oid, b.res.oid]);
    expect(keys(reply.o[1])).toEqual(WS_ORDER_KEYS);
  });

  it("sends a user's feeds to every socket logged in as that user and to no one else", async () => {
    const a1 = await fx.orderSocket('alice');
    const a2 = await fx.orderSocket('alice');
    const bob = await fx.orderSocket('bob');
    const { res } = await a1.request(place(1, 'B', 1, '49000'));
    expect(await a2.next()).toMatchObject({ t: 'n', o: { oid: res.oid } });
    expect(await a1.next()).toMatchObject({ t: 'n', o: { oid: res.oid } });
    expect(await bob.drain()).toEqual([]);
  });

  it('pushes feeds of orders entered outside the socket (in the venue directly) as they happen', async () => {
    const ws = await fx.orderSocket('bob');
    const account = fx.exchange.venue.account('bob')!;
    fx.exchange.venue.placeOrder(account, { symbol: 'ETHUSD-PERP', price: '2990', quantity: 4, side: 'B', timeInForce: 'GTC', postOnly: false });
    expect(await ws.next()).toMatchObject({ t: 'n', o: { s: 'ETHUSD-PERP', p: '2990', q: 4 } });
  });

  it('answers every request of a pipelined burst, in order, and keeps the socket open', async () => {
    const ws = await fx.orderSocket('alice');
    const n = 4000;
    for (let rid = 1; rid <= n; rid++) ws.send(place(rid, rid % 2 ? 'B' : 'S', 1, rid % 2 ? '49000' : '51000'));
    const rids: number[] = [];
    while (rids.length < n) rids.push((await ws.next((m) => m.rid !== undefined, 10_000)).rid);
    expect(rids).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(ws.isOpen).toBe(true);
  });
});
