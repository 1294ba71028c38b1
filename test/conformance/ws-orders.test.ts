import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BTC,
  expectOrderError,
  expectShape,
  insertOrder,
  ORDER_ID,
  pending,
  placeRequest,
  START_SEC,
  startConformance,
  WS_ORDER,
  type Conformance,
  type FieldType,
  type Msg,
  type TestSocket,
} from './harness.ts';

/**
 * The order websocket ({base_url}/orders): envelopes, the five operations, error codes of
 * decisions.md, and the order feeds each operation leads to, over a raw `ws` client. Replies
 * and feeds are read in arrival order (`next()` takes the oldest non-heartbeat message).
 */

let c: Conformance;
beforeAll(async () => {
  c = await startConformance({ heartbeatMs: 100 });
});
afterAll(() => c.close());
afterEach(async () => {
  for (const user of ['alice', 'bob']) await c.post('/orders/cancel_all', { username: user }, await c.bearer(user));
});

const FEED_COMMON: Record<string, FieldType> = { t: 'string', ts: 'integer', tn: 'integer' };
const ORDER_FEED: Record<string, FieldType> = { ...FEED_COMMON, eid: 'string', o: 'object' };
const FILL_DETAILS: Record<string, FieldType> = { tid: 'string', s: 'string', q: 'integer', p: 'decimal', d: 'string', agg: 'boolean' };

/** Asserts an order feed of type `t` with exactly the document's keys; returns it. */
function expectFeed(msg: Msg, t: string, extra: Record<string, FieldType> = {}): Msg {
  expect(msg.t, JSON.stringify(msg)).toBe(t);
  expectShape(msg, { ...ORDER_FEED, ...extra });
  expectShape(msg.o, WS_ORDER);
  return msg;
}

/** Sends a place request; returns the reply and the order id. */
async function place(s: TestSocket, d: 'B' | 'S', q: number, p: string, extra: Msg = {}): Promise<string> {
  const rid = c.rid();
  s.send(placeRequest(rid, d, q, p, extra));
  const reply = await s.next();
  expect(reply).toEqual({ rid, res: { oid: expect.stringMatching(ORDER_ID) } });
  return reply.res.oid;
}

describe('envelopes and login', () => {
  it('login (a) answers {rid, res: {li, o}} with the open orders in websocket form', async () => {
    const bearer = await c.bearer('alice');
    const res = await c.post('/orders/insert_order', insertOrder({ price: '49500', quantity: 4 }), bearer);
    const { order_id } = await res.json();
    const s = await c.socket('/orders');
    const rid = c.rid();
    const reply = await s.request({ rid, t: 'a', u: 'alice', k: bearer.Authorization!.slice(7) });
    expect(Object.keys(reply).sort()).toEqual(['res', 'rid']);
    expect(reply.rid).toBe(rid);
    expectShape(reply.res, { li: 'string', o: 'array' });
    expect(reply.res.li).toBe('alice');
    expect(reply.res.o).toHaveLength(1);
    expectShape(reply.res.o[0], WS_ORDER);
    expect(reply.res.o[0]).toEqual({
      oid: order_id,
      u: 'alice',
      s: BTC,
      p: '49500',
      q: 4,
      xq: 0,
      rq: 4,
      o: 'NEW',
      d: 'B',
      tif: 'GTC',
      liq: false,
      ts: START_SEC,
      tn: 0,
    });
  });

  it('answers anything before login with a 401 error envelope {rid, err: {code, msg}} and keeps the socket open', async () => {
    const s = await c.socket('/orders');
    for (const req of [placeRequest(c.rid(), 'B', 1, '49000'), { rid: c.rid(), t: 'x', oid: 'O-1' }, { rid: c.rid(), t: 'o' }, { rid: c.rid(), t: 'z' }]) {
      expectOrderError(await s.request(req), req.rid, 401);
    }
    expect(s.isOpen).toBe(true);
    const rid = c.rid();
    const token = (await c.bearer('alice')).Authorization!.slice(7);
    expect((await s.request({ rid, t: 'a', u: 'alice', k: token })).res.li).toBe('alice');
  });

  it('answers a bad or foreign token with 401, a missing u or k with 400, a second login with 409', async () => {
    const s = await c.socket('/orders');
    const bobToken = (await c.bearer('bob')).Authorization!.slice(7);
    let rid = c.rid();
    expectOrderError(await s.request({ rid, t: 'a', u: 'alice', k: 'nope' }), rid, 401);
    rid = c.rid();
    expectOrderError(await s.request({ rid, t: 'a', u: 'alice', k: bobToken }), rid, 401);
    rid = c.rid();
    expectOrderError(await s.request({ rid, t: 'a', k: bobToken }), rid, 400);
    rid = c.rid();
    expectOrderError(await s.request({ rid, t: 'a', u: 'bob' }), rid, 400);
    rid = c.rid();
    expect((await s.request({ rid, t: 'a', u: 'bob', k: bobToken })).res.li).toBe('bob');
    rid = c.rid();
    expectOrderError(await s.request({ rid, t: 'a', u: 'bob', k: bobToken }), rid, 409);
    expect(s.isOpen).toBe(true);
  });

  it('answers an unknown or missing message type with 400, before and after login', async () => {
    const fresh = await c.socket('/orders');
    let rid = c.rid();
    expectOrderError(await fresh.request({ rid, t: 'q' }), rid, 400);
    const s = await c.orderSocket('alice');
    rid = c.rid();
    expectOrderError(await s.request({ rid, t: 'q' }), rid, 400);
    rid = c.rid();
    expectOrderError(await s.request({ rid }), rid, 400);
    expect(s.isOpen && fresh.isOpen).toBe(true);
  });

  it('answers a frame that is not a JSON object with 400 and rid null, and a non-integer rid with 400', async () => {
    const s = await c.orderSocket('alice');
    s.send('not json');
    expectOrderError(await s.next(), null, 400);
    s.send('[1,2]');
    expectOrderError(await s.next(), null, 400);
    s.send({ rid: 'seven', t: 'o' });
    expectOrderError(await s.next(), 'seven' as unknown as number, 400);
    s.send({ t: 'o' });
    expectOrderError(await s.next(), null, 400);
    expect(s.isOpen).toBe(true);
  });

  it('logout (z) answers {rid, res: {lo}}; afterwards requests are 401 and no feeds arrive', async () => {
    const s = await c.orderSocket('alice');
    let rid = c.rid();
    expect(await s.request({ rid, t: 'z' })).toEqual({ rid, res: { lo: 'alice' } });
    rid = c.rid();
    expectOrderError(await s.request(placeRequest(rid, 'B', 1, '49000')), rid, 401);
    // An order placed over REST produces no feed on the logged-out socket.
    await c.post('/orders/insert_order', insertOrder(), await c.bearer('alice'));
    rid = c.rid();
    expectOrderError(await s.request({ rid, t: 'o' }), rid, 401);
    expect(await pending(s, 'rid')).toEqual([]);
  });

  it('sends heartbeats {t: "h", ts, tn} in sim time', async () => {
    const s = await c.socket('/orders');
    const beat = await s.next((m) => m.t === 'h');
    expect(beat).toEqual({ t: 'h', ts: expect.any(Number), tn: expect.any(Number) });
    expectShape(beat, FEED_COMMON);
  });
});

describe('open orders (o)', () => {
  it('answers {rid, o: [...]} with the list beside rid and no res wrapper', async () => {
    const s = await c.orderSocket('alice');
    const oid = await place(s, 'B', 2, '49000');
    expectFeed(await s.next(), 'n');
    const rid = c.rid();
    const reply = await s.request({ rid, t: 'o' });
    expect(Object.keys(reply).sort()).toEqual(['o', 'rid']);
    expect(reply.o).toHaveLength(1);
    expectShape(reply.o[0], WS_ORDER);
    expect(reply.o[0]).toMatchObject({ oid, o: 'NEW', q: 2, rq: 2, xq: 0 });
  });
});

describe('place (p)', () => {
  it('answers {rid, res: {oid}} first, then the New Order feed n {t, ts, tn, eid, o}', async () => {
    const s = await c.orderSocket('alice');
    const oid = await place(s, 'B', 1, '49000');
    const n = expectFeed(await s.next(), 'n');
    expect(n.o).toMatchObject({ oid, o: 'NEW', u: 'alice', s: BTC, p: '49000', q: 1, xq: 0, rq: 1, d: 'B', tif: 'GTC', liq: false });
  });

  it('stamps feeds with simulation time (ts Unix seconds, tn nanoseconds)', async () => {
    await c.advance(1.25);
    const s = await c.orderSocket('alice');
    await place(s, 'B', 1, '49000');
    const n = expectFeed(await s.next(), 'n');
    const now = BigInt((await (await c.get('/admin/clock', { Authorization: 'Bearer conformance-admin' })).json()).now_ns);
    expect(BigInt(n.ts) * 1_000_000_000n + BigInt(n.tn)).toBe(now);
    expect(n.o.ts * 1e9 + n.o.tn).toBe(n.ts * 1e9 + n.tn);
    expect(n.tn).toBeGreaterThan(0);
  });

  it('answers a missing symbol with 400', async () => {
    const s = await c.orderSocket('alice');
    const rid = c.rid();
    const { s: _symbol, ...noSymbol } = placeRequest(rid, 'B', 1, '49000');
    expectOrderError(await s.request(noSymbol), rid, 400);
  });

  it('answers each missing or ill-typed field (s, d, q, p, tif, po) with 400 and creates no order', async () => {
    const s = await c.orderSocket('alice');
    const bad: Msg[] = [
      { s: 'btcusd-perp' },
      { s: 'A'.repeat(21) },
      { d: 'BUY' },
      { d: undefined },
      { q: 1.5 },
      { q: '1' },
      { p: 49000 },
      { p: '4.9e4' },
      { p: '12345678901' },
      { tif: 'FOK' },
      { tif: 'UNDEFINED' },
      { po: 'false' },
      { po: undefined },
    ];
    for (const extra of bad) {
      const rid = c.rid();
      const reply = await s.request(placeRequest(rid, 'B', 1, '49000', extra));
      expectOrderError(reply, rid, 400);
      expect(reply.err.msg.length).toBeGreaterThan(0);
    }
    const rid = c.rid();
    expect((await s.request({ rid, t: 'o' })).o).toEqual([]);
  });

  it('place → fill: n then f for both sides, xs {tid, s, q, p, d, agg} with one trade id', async () => {
    const maker = await c.orderSocket('alice');
    const taker = await c.orderSocket('bob');
    const makerOid = await place(maker, 'S', 2, '50000');
    expectFeed(await maker.next(), 'n');
    const takerOid = await place(taker, 'B', 2, '50000.5');
    expect(expectFeed(await taker.next(), 'n').o.oid).toBe(takerOid);

    const takerFill = expectFeed(await taker.next(), 'f', { xs: 'object' });
    const makerFill = expectFeed(await maker.next(), 'f', { xs: 'object' });
    expectShape(takerFill.xs, FILL_DETAILS);
    expectShape(makerFill.xs, FILL_DETAILS);
    expect(makerFill.xs).toEqual({ tid: takerFill.xs.tid, s: BTC, q: 2, p: '50000', d: 'S', agg: false });
    expect(takerFill.xs).toEqual({ tid: makerFill.xs.tid, s: BTC, q: 2, p: '50000', d: 'B', agg: true });
    expect(makerFill.o).toMatchObject({ oid: makerOid, o: 'FILLED', xq: 2, rq: 0 });
    expect(takerFill.o).toMatchObject({ oid: takerOid, o: 'FILLED', xq: 2, rq: 0 });
    expect(makerFill.eid).not.toBe(takerFill.eid);
  });

  it('place → partial fill: the resting order gets p with o PARTIALLY_FILLED and stays open', async () => {
    const maker = await c.orderSocket('alice');
    const taker = await c.orderSocket('bob');
    const oid = await place(maker, 'S', 5, '50000');
    expectFeed(await maker.next(), 'n');
    await place(taker, 'B', 2, '50000');
    const partial = expectFeed(await maker.next(), 'p', { xs: 'object' });
    expect(partial.o).toMatchObject({ oid, o: 'PARTIALLY_FILLED', xq: 2, rq: 3 });
    expect(partial.xs).toMatchObject({ q: 2, p: '50000', d: 'S', agg: false });
  });

  it('IOC → expired: what does not fill gets the Expired Order feed x with o EXPIRED and rq 0', async () => {
    const s = await c.orderSocket('alice');
    const oid = await place(s, 'B', 3, '49000', { tif: 'IOC' });
    expectFeed(await s.next(), 'n');
    const x = expectFeed(await s.next(), 'x');
    expect(x.o).toMatchObject({ oid, o: 'EXPIRED', tif: 'IOC', xq: 0, rq: 0 });
  });

  it('post-only cross → rejected: j {eid, o, r: "UNKNOWN", txt} and no n', async () => {
    const maker = await c.orderSocket('bob');
    await place(maker, 'S', 1, '50000');
    expectFeed(await maker.next(), 'n');
    const s = await c.orderSocket('alice');
    const oid = await place(s, 'B', 1, '50000', { po: true });
    const j = expectFeed(await s.next(), 'j', { r: 'string', txt: 'string' });
    expect(j).toMatchObject({ r: 'UNKNOWN', txt: 'post-only order would cross the book' });
    expect(j.o).toMatchObject({ oid, o: 'REJECTED', rq: 0 });
    expect(await pending(s, 'rid')).toEqual([]);
  });

  it('answers business-rule violations with an oid, then the Rejected Order feed j with its reason (decisions.md)', async () => {
    const s = await c.orderSocket('alice');
    for (const [extra, r] of [
      [{ s: 'XYZUSD-PERP' }, 'UNKNOWN_SYMBOL'],
      [{ q: 0 }, 'INCORRECT_QUANTITY'],
      [{ p: '49000.3' }, 'INVALID_PRICE_INCREMENT'],
      [{ p: '60000' }, 'PRICE_OUT_OF_BOUNDS'],
      [{ q: 1_000_000 }, 'INSUFFICIENT_MARGIN'],
    ] as const) {
      const oid = await place(s, 'B', 1, '49000', extra);
      const j = expectFeed(await s.next(), 'j', { r: 'string', txt: 'string' });
      expect(j.r).toBe(r);
      expect(j.o).toMatchObject({ oid, o: 'REJECTED' });
    }
  });
});

describe('cancel (x)', () => {
  it('place → cancel: {rid, res: {cxl_rx: true}}, then the Cancel Order feed c {eid, o, xr: USER_REQUESTED, txt}', async () => {
    const s = await c.orderSocket('alice');
    const oid = await place(s, 'B', 1, '49000');
    expectFeed(await s.next(), 'n');
    const rid = c.rid();
    s.send({ rid, t: 'x', oid });
    expect(await s.next()).toEqual({ rid, res: { cxl_rx: true } });
    const cancel = expectFeed(await s.next(), 'c', { xr: 'string', txt: 'string' });
    expect(cancel.xr).toBe('USER_REQUESTED');
    expect(cancel.o).toMatchObject({ oid, o: 'CANCELED', rq: 0 });
  });

  it('cancel of an unknown order: cxl_rx, then the Cancel Reject feed e {oid, r: UNKNOWN_ORDER, txt} with no eid and no o', async () => {
    const s = await c.orderSocket('alice');
    const rid = c.rid();
    s.send({ rid, t: 'x', oid: 'O-NOSUCHORDER' });
    expect(await s.next()).toEqual({ rid, res: { cxl_rx: true } });
    const e = await s.next();
    expectShape(e, { ...FEED_COMMON, oid: 'string', r: 'string', txt: 'string' });
    expect(e).toMatchObject({ t: 'e', oid: 'O-NOSUCHORDER', r: 'UNKNOWN_ORDER' });
  });

  it('cancel of another user\'s order is a Cancel Reject e for the requester, and the order stays open', async () => {
    const bob = await c.orderSocket('bob');
    const oid = await place(bob, 'S', 1, '51000');
    expectFeed(await bob.next(), 'n');
    const s = await c.orderSocket('alice');
    const rid = c.rid();
    s.send({ rid, t: 'x', oid });
    expect(await s.next()).toEqual({ rid, res: { cxl_rx: true } });
    expect(await s.next()).toMatchObject({ t: 'e', oid, r: 'UNKNOWN_ORDER' });
    expect(await pending(bob, 'rid')).toEqual([]);
  });

  it('answers a cancel without oid with 400 (early validation, no cxl_rx)', async () => {
    const s = await c.orderSocket('alice');
    let rid = c.rid();
    expectOrderError(await s.request({ rid, t: 'x' }), rid, 400);
    rid = c.rid();
    expectOrderError(await s.request({ rid, t: 'x', oid: 7 }), rid, 400);
  });
});

describe('feed routing', () => {
  it('pushes a user\'s feeds to every socket logged in as that user and to no one else', async () => {
    const a1 = await c.orderSocket('alice');
    const a2 = await c.orderSocket('alice');
    const b = await c.orderSocket('bob');
    // An order placed over REST is pushed on the order sockets too.
    const res = await c.post('/orders/insert_order', insertOrder({ price: '48000' }), await c.bearer('alice'));
    const { order_id } = await res.json();
    expect(expectFeed(await a1.next(), 'n').o.oid).toBe(order_id);
    expect(expectFeed(await a2.next(), 'n').o.oid).toBe(order_id);
    expect(await pending(b, 'rid')).toEqual([]);
  });
});
