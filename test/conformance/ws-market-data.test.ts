import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BTC,
  ETH,
  expectMdError,
  expectShape,
  insertOrder,
  pending,
  START_SEC,
  startConformance,
  type Conformance,
  type FieldType,
  type Msg,
  type TestSocket,
} from './harness.ts';

/**
 * The market-data websocket ({ws_base_url}/md/ws): envelopes, login / logout, subscribe at
 * LEVEL_1, 2 and 3 (stats and the current book right after), unsubscribe, updates and stats on
 * trades, error codes of decisions.md. Books are built with REST orders; each test leaves them
 * empty again.
 */

let c: Conformance;
let alice: Record<string, string>;
let bob: Record<string, string>;
beforeAll(async () => {
  c = await startConformance({ heartbeatMs: 100 });
  alice = await c.bearer('alice');
  bob = await c.bearer('bob');
});
afterAll(() => c.close());
afterEach(async () => {
  await c.post('/orders/cancel_all', { username: 'alice' }, alice);
  await c.post('/orders/cancel_all', { username: 'bob' }, bob);
});

const STATS: Record<string, FieldType> = { t: 'string', ts: 'integer', tn: 'integer', s: 'string', p: 'decimal', q: 'integer', o: 'decimal', l: 'decimal', h: 'decimal', v: 'integer' };
const UPDATE: Record<string, FieldType> = { t: 'string', ts: 'integer', tn: 'integer', s: 'string', b: 'array', a: 'array' };
const LEVEL: Record<string, FieldType> = { p: 'decimal', q: 'integer' };
const LEVEL_3: Record<string, FieldType> = { ...LEVEL, o: 'array' };

async function order(user: 'alice' | 'bob', overrides: Record<string, unknown>): Promise<void> {
  const res = await c.post('/orders/insert_order', insertOrder({ username: user, ...overrides }), user === 'alice' ? alice : bob);
  expect(res.status).toBe(200);
}

/** Bids 49000 × (2, 3) and 48500 × 1, ask 51000 × 4 on `symbol` (ETH at 6 % of those prices, its index being 3000). */
async function seedBook(symbol = BTC): Promise<void> {
  const px = (p: number) => String(symbol === BTC ? p : (p * 6) / 100);
  await order('alice', { symbol, side: 'B', price: px(49000), quantity: 2 });
  await order('alice', { symbol, side: 'B', price: px(49000), quantity: 3 });
  await order('alice', { symbol, side: 'B', price: px(48500), quantity: 1 });
  await order('bob', { symbol, side: 'S', price: px(51000), quantity: 4 });
}

async function subscribe(s: TestSocket, symbol: string, level: string): Promise<{ stats: Msg; book: Msg }> {
  const request_id = c.rid();
  s.send({ request_id, type: 'subscribe', symbol, level });
  expect(await s.next()).toEqual({ request_id, result: { subscribed: symbol } });
  const stats = await s.next();
  const book = await s.next();
  return { stats, book };
}

function expectUpdate(msg: Msg, t: '1' | '2' | '3'): Msg {
  expect(msg.t, JSON.stringify(msg)).toBe(t);
  expectShape(msg, UPDATE);
  for (const level of [...msg.b, ...msg.a]) expectShape(level, t === '3' ? LEVEL_3 : LEVEL);
  return msg;
}

describe('envelopes and login', () => {
  it('login answers {request_id, result: {logged_in}}', async () => {
    const s = await c.socket('/md/ws');
    const request_id = c.rid();
    const reply = await s.request({ request_id, type: 'login', username: 'bob', token: bob.Authorization!.slice(7) }, 'request_id');
    expect(reply).toEqual({ request_id, result: { logged_in: 'bob' } });
  });

  it('answers anything before login with a 401 error envelope {request_id, error: {code, message}} and keeps the socket open', async () => {
    const s = await c.socket('/md/ws');
    for (const req of [
      { request_id: c.rid(), type: 'subscribe', symbol: BTC, level: 'LEVEL_1' },
      { request_id: c.rid(), type: 'unsubscribe', symbol: BTC },
      { request_id: c.rid(), type: 'logout' },
    ]) {
      expectMdError(await s.request(req, 'request_id'), req.request_id, 401);
    }
    expect(s.isOpen).toBe(true);
    const request_id = c.rid();
    expect((await s.request({ request_id, type: 'login', username: 'alice', token: alice.Authorization!.slice(7) }, 'request_id')).result).toEqual({ logged_in: 'alice' });
  });

  it('answers a bad token with 401, a missing username or token with 400, a second login with 409', async () => {
    const s = await c.socket('/md/ws');
    const token = alice.Authorization!.slice(7);
    for (const [req, code] of [
      [{ username: 'alice', token: 'nope' }, 401],
      [{ username: 'bob', token }, 401],
      [{ token }, 400],
      [{ username: 'alice' }, 400],
    ] as const) {
      const request_id = c.rid();
      expectMdError(await s.request({ request_id, type: 'login', ...req }, 'request_id'), request_id, code);
    }
    let request_id = c.rid();
    expect((await s.request({ request_id, type: 'login', username: 'alice', token }, 'request_id')).result).toEqual({ logged_in: 'alice' });
    request_id = c.rid();
    expectMdError(await s.request({ request_id, type: 'login', username: 'alice', token }, 'request_id'), request_id, 409);
  });

  it('answers an unknown or missing type with 400 and a non-JSON frame with 400 and request_id null', async () => {
    const s = await c.mdSocket();
    let request_id = c.rid();
    expectMdError(await s.request({ request_id, type: 'subscribe_all' }, 'request_id'), request_id, 400);
    request_id = c.rid();
    expectMdError(await s.request({ request_id }, 'request_id'), request_id, 400);
    s.send('{oops');
    expectMdError(await s.next(), null, 400);
    s.send({ type: 'logout' });
    expectMdError(await s.next(), null, 400);
    expect(s.isOpen).toBe(true);
  });

  it('logout answers {request_id, result: {logged_out}} and ends the subscriptions', async () => {
    const s = await c.mdSocket();
    await subscribe(s, BTC, 'LEVEL_2');
    let request_id = c.rid();
    expect(await s.request({ request_id, type: 'logout' }, 'request_id')).toEqual({ request_id, result: { logged_out: 'alice' } });
    await order('alice', { price: '49000' });
    expect(await pending(s, 'request_id')).toEqual([]);
    request_id = c.rid();
    expectMdError(await s.request({ request_id, type: 'subscribe', symbol: BTC, level: 'LEVEL_1' }, 'request_id'), request_id, 401);
  });

  it('sends heartbeats {t: "h", ts, tn} in sim time', async () => {
    const s = await c.socket('/md/ws');
    const beat = await s.next((m) => m.t === 'h');
    expectShape(beat, { t: 'string', ts: 'integer', tn: 'integer' });
    expect(beat.ts).toBe(START_SEC);
  });
});

describe('subscribe', () => {
  it('LEVEL_1: answers {subscribed}, then stats (t s) and the current top of book (t 1)', async () => {
    await seedBook();
    const s = await c.mdSocket();
    const { stats, book } = await subscribe(s, BTC, 'LEVEL_1');
    expectShape(stats, STATS);
    expect(stats).toMatchObject({ t: 's', s: BTC, ts: START_SEC, tn: 0 });
    expectUpdate(book, '1');
    expect(book).toMatchObject({ s: BTC, ts: START_SEC, tn: 0, b: [{ p: '49000', q: 5 }], a: [{ p: '51000', q: 4 }] });
  });

  it('LEVEL_2: the current book is every level with price and quantity, bids descending, asks ascending', async () => {
    await seedBook();
    await order('bob', { side: 'S', price: '50500', quantity: 1 });
    const s = await c.mdSocket();
    const { stats, book } = await subscribe(s, BTC, 'LEVEL_2');
    expectShape(stats, STATS);
    expectUpdate(book, '2');
    expect(book.b).toEqual([
      { p: '49000', q: 5 },
      { p: '48500', q: 1 },
    ]);
    expect(book.a).toEqual([
      { p: '50500', q: 1 },
      { p: '51000', q: 4 },
    ]);
  });

  it('LEVEL_3: each level also carries o, the order quantities in queue order', async () => {
    await seedBook(ETH);
    const s = await c.mdSocket();
    const { stats, book } = await subscribe(s, ETH, 'LEVEL_3');
    expectShape(stats, STATS);
    expectUpdate(book, '3');
    expect(book.b).toEqual([
      { p: '2940', q: 5, o: [2, 3] },
      { p: '2910', q: 1, o: [1] },
    ]);
    expect(book.a).toEqual([{ p: '3060', q: 4, o: [4] }]);
  });

  it('answers a missing symbol with 400', async () => {
    const s = await c.mdSocket();
    const request_id = c.rid();
    expectMdError(await s.request({ request_id, type: 'subscribe', level: 'LEVEL_1' }, 'request_id'), request_id, 400);
  });

  it('answers an unknown symbol with 404, a missing or unknown level with 400, a second subscribe with 409', async () => {
    const s = await c.mdSocket();
    for (const [req, code] of [
      [{ symbol: 'XYZUSD-PERP', level: 'LEVEL_1' }, 404],
      [{ symbol: BTC }, 400],
      [{ symbol: BTC, level: 'LEVEL_4' }, 400],
      [{ symbol: 5, level: 'LEVEL_1' }, 400],
    ] as const) {
      const request_id = c.rid();
      expectMdError(await s.request({ request_id, type: 'subscribe', ...req }, 'request_id'), request_id, code);
    }
    await subscribe(s, BTC, 'LEVEL_1');
    const request_id = c.rid();
    expectMdError(await s.request({ request_id, type: 'subscribe', symbol: BTC, level: 'LEVEL_2' }, 'request_id'), request_id, 409);
  });
});

describe('updates', () => {
  it('sends a full snapshot at each subscribed level when the book changes, stamped with sim time', async () => {
    const l1 = await c.mdSocket();
    const l2 = await c.mdSocket();
    const l3 = await c.mdSocket();
    await subscribe(l1, BTC, 'LEVEL_1');
    await subscribe(l2, BTC, 'LEVEL_2');
    await subscribe(l3, BTC, 'LEVEL_3');
    await c.advance(2.5);
    await order('alice', { side: 'B', price: '49500', quantity: 2 });
    await order('alice', { side: 'B', price: '49000', quantity: 1 });

    const [u1, u2, u3] = [await l1.next(), await l2.next(), await l3.next()];
    expectUpdate(u1, '1');
    expect(u1).toMatchObject({ s: BTC, ts: START_SEC + 2, tn: 500_000_000, b: [{ p: '49500', q: 2 }], a: [] });
    expectUpdate(u2, '2');
    expect(u2.b).toEqual([{ p: '49500', q: 2 }]);
    expectUpdate(u3, '3');
    expect(u3.b).toEqual([{ p: '49500', q: 2, o: [2] }]);

    // The second order changes level 2 and 3 only; LEVEL_1's top is unchanged.
    expect(expectUpdate(await l2.next(), '2').b).toEqual([
      { p: '49500', q: 2 },
      { p: '49000', q: 1 },
    ]);
    expect(expectUpdate(await l3.next(), '3').b[1]).toEqual({ p: '49000', q: 1, o: [1] });
    expect(await pending(l1, 'request_id')).toEqual([]);
  });

  it('sends stats (t s) with last price, quantity, open, high, low and volume on each trade', async () => {
    const s = await c.mdSocket('bob');
    await subscribe(s, ETH, 'LEVEL_1');
    await order('alice', { symbol: ETH, side: 'S', price: '3000', quantity: 5 });
    await order('bob', { symbol: ETH, side: 'B', price: '3000', quantity: 2, time_in_force: 'IOC' });
    await order('bob', { symbol: ETH, side: 'B', price: '3000.5', quantity: 3, time_in_force: 'IOC' });
    const messages = await pending(s, 'request_id');
    const stats = messages.filter((m) => m.t === 's');
    expect(stats).toHaveLength(2);
    for (const m of stats) expectShape(m, STATS);
    expect(stats[0]).toMatchObject({ s: ETH, p: '3000', q: 2, o: '3000', h: '3000', l: '3000', v: 2 });
    expect(stats[1]).toMatchObject({ s: ETH, p: '3000', q: 3, v: 5 });
    // Book updates follow the trades: the ask rested, shrank, and is gone.
    const books = messages.filter((m) => m.t === '1');
    expect(books.at(-1)).toMatchObject({ b: [], a: [] });
  });
});

describe('unsubscribe', () => {
  it('answers {request_id, result: {unsubscribed}} and stops the updates for that symbol', async () => {
    const s = await c.mdSocket();
    await subscribe(s, BTC, 'LEVEL_2');
    const request_id = c.rid();
    expect(await s.request({ request_id, type: 'unsubscribe', symbol: BTC }, 'request_id')).toEqual({ request_id, result: { unsubscribed: BTC } });
    await order('alice', { price: '49000' });
    expect(await pending(s, 'request_id')).toEqual([]);
  });

  it('answers a missing symbol with 400 and a symbol not subscribed with 404', async () => {
    const s = await c.mdSocket();
    let request_id = c.rid();
    expectMdError(await s.request({ request_id, type: 'unsubscribe' }, 'request_id'), request_id, 400);
    request_id = c.rid();
    expectMdError(await s.request({ request_id, type: 'unsubscribe', symbol: ETH }, 'request_id'), request_id, 404);
  });
});
