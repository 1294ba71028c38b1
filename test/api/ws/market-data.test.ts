import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keys, place, rest, startFixture, START_SEC, type Fixture, type Msg, type TestSocket } from './helpers.ts';

let fx: Fixture;
beforeEach(async () => {
  fx = await startFixture();
});
afterEach(async () => {
  await fx.close();
});

const BTC = 'BTCUSD-PERP';
const NO_STATS = { t: 's', ts: START_SEC, tn: 0, s: BTC, p: '0', q: 0, o: '0', l: '0', h: '0', v: 0 };

async function subscribed(level: string, symbol = BTC): Promise<TestSocket> {
  const ws = await fx.mdSocket();
  const reply = await ws.request({ request_id: 1, type: 'subscribe', symbol, level }, 'request_id');
  expect(reply).toEqual({ request_id: 1, result: { subscribed: symbol } });
  expect((await ws.next()).t).toBe('s');
  expect((await ws.next()).t).toBe(level.slice(-1));
  return ws;
}

describe('market-data websocket: login and requests', () => {
  it('logs in with username and token, and logs out with logged_out', async () => {
    const ws = await fx.open('/md/ws');
    expect(await ws.request({ request_id: 1, type: 'login', username: 'alice', token: fx.tokens.alice }, 'request_id')).toEqual({
      request_id: 1,
      result: { logged_in: 'alice' },
    });
    expect(await ws.request({ request_id: 2, type: 'logout' }, 'request_id')).toEqual({ request_id: 2, result: { logged_out: 'alice' } });
    expect((await ws.request({ request_id: 3, type: 'subscribe', symbol: BTC, level: 'LEVEL_1' }, 'request_id')).error.code).toBe(401);
  });

  it('refuses a bad token with 401 and a second login with 409', async () => {
    const ws = await fx.open('/md/ws');
    const bad = await ws.request({ request_id: 1, type: 'login', username: 'alice', token: fx.tokens.bob }, 'request_id');
    expect(bad).toEqual({ request_id: 1, error: { code: 401, message: expect.any(String) } });
    await ws.request({ request_id: 2, type: 'login', username: 'alice', token: fx.tokens.alice }, 'request_id');
    const again = await ws.request({ request_id: 3, type: 'login', username: 'alice', token: fx.tokens.alice }, 'request_id');
    expect(again).toEqual({ request_id: 3, error: { code: 409, message: expect.any(String) } });
  });

  it('answers requests before login with 401 and keeps the socket open', async () => {
    const ws = await fx.open('/md/ws');
    const reply = await ws.request({ request_id: 5, type: 'subscribe', symbol: BTC, level: 'LEVEL_2' }, 'request_id');
    expect(reply).toEqual({ request_id: 5, error: { code: 401, message: 'not logged in' } });
    expect((await ws.request({ request_id: 6, type: 'logout' }, 'request_id')).error.code).toBe(401);
    expect(ws.isOpen).toBe(true);
  });

  it('answers a malformed frame with request_id null and 400, and stays open', async () => {
    const ws = await fx.mdSocket();
    ws.send('nope');
    expect(await ws.next()).toEqual({ request_id: null, error: { code: 400, message: expect.any(String) } });
    ws.send('null');
    expect((await ws.next()).error.code).toBe(400);
    expect((await ws.request({ request_id: 2, type: 'subscribe', symbol: BTC, level: 'LEVEL_1' }, 'request_id')).result).toEqual({ subscribed: BTC });
  });

  it('answers a missing symbol or level, a bad level and an unknown type with 400', async () => {
    const ws = await fx.mdSocket();
    expect(await ws.request({ request_id: 1, type: 'subscribe', level: 'LEVEL_1' }, 'request_id')).toEqual({
      request_id: 1,
      error: { code: 400, message: 'symbol is required' },
    });
    expect((await ws.request({ request_id: 2, type: 'subscribe', symbol: BTC }, 'request_id')).error).toEqual({ code: 400, message: 'level is required' });
    expect((await ws.request({ request_id: 3, type: 'subscribe', symbol: BTC, level: 'LEVEL_4' }, 'request_id')).error.code).toBe(400);
    expect((await ws.request({ request_id: 4, type: 'unsubscribe' }, 'request_id')).error.code).toBe(400);
    expect((await ws.request({ request_id: 5, type: 'trades' }, 'request_id')).error.code).toBe(400);
    expect(await ws.drain()).toEqual([]);
  });

  it('answers an unknown symbol with 404 and a second subscription to a symbol with 409', async () => {
    const ws = await subscribed('LEVEL_2');
    expect((await ws.request({ request_id: 7, type: 'subscribe', symbol: 'XRPUSD-PERP', level: 'LEVEL_2' }, 'request_id')).error).toEqual({
      code: 404,
      message: expect.stringContaining('XRPUSD-PERP'),
    });
    expect((await ws.request({ request_id: 8, type: 'subscribe', symbol: BTC, level: 'LEVEL_3' }, 'request_id')).error.code).toBe(409);
    expect(await ws.drain()).toEqual([]);
  });

  it('unsubscribes, after which no updates arrive; unsubscribing again is a 404', async () => {
    const ws = await subscribed('LEVEL_2');
    expect(await ws.request({ request_id: 9, type: 'unsubscribe', symbol: BTC }, 'request_id')).toEqual({ request_id: 9, result: { unsubscribed: BTC } });
    rest(fx.exchange, 'bob', 'B', 1, '49000');
    expect(await ws.drain()).toEqual([]);
    expect((await ws.request({ request_id: 10, type: 'unsubscribe', symbol: BTC }, 'request_id')).error.code).toBe(404);
  });
});

describe('market-data websocket: stats and books', () => {
  for (const [level, t] of [['LEVEL_1', '1'], ['LEVEL_2', '2'], ['LEVEL_3', '3']] as const) {
    it(`sends stats and then the current ${level} book right after the subscribe result`, async () => {
      rest(fx.exchange, 'bob', 'B', 2, '49000');
      rest(fx.exchange, 'bob', 'S', 1, '51000');
      const ws = await fx.mdSocket();
      ws.send({ request_id: 1, type: 'subscribe', symbol: BTC, level });
      expect(await ws.next()).toEqual({ request_id: 1, result: { subscribed: BTC } });
      expect(await ws.next()).toEqual(NO_STATS);
      const book = await ws.next();
      const bid = t === '3' ? { p: '49000', q: 2, o: [2] } : { p: '49000', q: 2 };
      const ask = t === '3' ? { p: '51000', q: 1, o: [1] } : { p: '51000', q: 1 };
      expect(book).toEqual({ t, ts: START_SEC, tn: 0, s: BTC, b: [bid], a: [ask] });
    });
  }

  it('sends empty sides for an empty book', async () => {
    const ws = await fx.mdSocket();
    await ws.request({ request_id: 1, type: 'subscribe', symbol: 'ETHUSD-PERP', level: 'LEVEL_1' }, 'request_id');
    await ws.next();
    expect(await ws.next()).toMatchObject({ t: '1', s: 'ETHUSD-PERP', b: [], a: [] });
  });

  it('sends exactly one update for a new order entered on the order websocket', async () => {
    const md = await subscribed('LEVEL_2');
    const orders = await fx.orderSocket('alice');
    await orders.request(place(1, 'B', 3, '49500'));
    expect(await md.next()).toEqual({ t: '2', ts: START_SEC, tn: 0, s: BTC, b: [{ p: '49500', q: 3 }], a: [] });
    expect(await md.drain()).toEqual([]);
  });

  it('sends stats with the trade and then one book update when orders trade', async () => {
    rest(fx.exchange, 'alice', 'S', 2, '50000');
    rest(fx.exchange, 'alice', 'S', 2, '50500');
    const md = await subscribed('LEVEL_2');
    fx.exchange.driver.advance(7);
    rest(fx.exchange, 'bob', 'B', 3, '50500');
    const first = await md.next();
    const second = await md.next();
    expect(keys(first)).toEqual(['h', 'l', 'o', 'p', 'q', 's', 't', 'tn', 'ts', 'v']);
    expect(first).toEqual({ t: 's', ts: START_SEC + 7, tn: 0, s: BTC, p: '50000', q: 2, o: '50000', l: '50000', h: '50000', v: 2 });
    expect(second).toEqual({ t: 's', ts: START_SEC + 7, tn: 0, s: BTC, p: '50500', q: 1, o: '50000', l: '50000', h: '50500', v: 3 });
    expect(await md.next()).toEqual({ t: '2', ts: START_SEC + 7, tn: 0, s: BTC, b: [], a: [{ p: '50500', q: 1 }] });
    expect(await md.drain()).toEqual([]);
  });

  it('sends per-order quantities in queue order at LEVEL_3', async () => {
    const md = await subscribed('LEVEL_3');
    const orders = await fx.orderSocket('alice');
    await orders.request(place(1, 'B', 3, '49000'));
    await md.next();
    await orders.request(place(2, 'B', 5, '49000'));
    await md.next();
    await orders.request(place(3, 'B', 1, '49500'));
    expect(await md.next()).toMatchObject({ t: '3', b: [{ p: '49500', q: 1, o: [1] }, { p: '49000', q: 8, o: [3, 5] }], a: [] });
  });

  it('sends one level per side at LEVEL_1 and skips updates that leave the top unchanged', async () => {
    const md = await subscribed('LEVEL_1');
    rest(fx.exchange, 'alice', 'B', 1, '49500');
    rest(fx.exchange, 'alice', 'B', 2, '49000');
    expect(await md.next()).toEqual({ t: '1', ts: START_SEC, tn: 0, s: BTC, b: [{ p: '49500', q: 1 }], a: [] });
    rest(fx.exchange, 'alice', 'B', 4, '48500'); // deeper level: the top is unchanged
    expect(await md.drain()).toEqual([]);
    rest(fx.exchange, 'alice', 'S', 2, '50500');
    rest(fx.exchange, 'alice', 'S', 2, '51000');
    expect(await md.next()).toMatchObject({ t: '1', b: [{ p: '49500', q: 1 }], a: [{ p: '50500', q: 2 }] });
    expect(await md.drain()).toEqual([]);
  });

  it('delivers the book of every instant within one clock advance (coalesced per instant, not per advance)', async () => {
    const md = await subscribed('LEVEL_2');
    const { clock } = fx.exchange;
    for (const [sec, price] of [[1, '49000'], [2, '49100'], [3, '49200']] as const) {
      clock.scheduleAt(clock.nowNs + BigInt(sec) * 1_000_000_000n, () => rest(fx.exchange, 'bob', 'B', 1, price));
    }
    fx.exchange.driver.advance(10);
    expect(await md.next()).toMatchObject({ t: '2', ts: START_SEC + 1, tn: 0, b: [{ p: '49000' }] });
    expect(await md.next()).toMatchObject({ t: '2', ts: START_SEC + 2, tn: 0, b: [{ p: '49100' }, { p: '49000' }] });
    expect(await md.next()).toMatchObject({ t: '2', ts: START_SEC + 3, tn: 0, b: [{ p: '49200' }, { p: '49100' }, { p: '49000' }] });
    expect(await md.drain()).toEqual([]);
  });

  it('coalesces the changes of one instant into one update, after one stats message per trade', async () => {
    const md = await subscribed('LEVEL_2');
    const { clock } = fx.exchange;
    const at = clock.nowNs + 1_000_000_000n;
    // Four asks rest, then one IOC lifts three: three prints and five book changes share the instant.
    clock.scheduleAt(at, () => {
      for (const price of ['50010', '50020', '50030', '50040']) rest(fx.exchange, 'alice', 'S', 1, price);
      fx.exchange.venue.placeOrder(fx.exchange.venue.account('bob')!, { symbol: BTC, side: 'B', quantity: 3, price: '50030', timeInForce: 'IOC', postOnly: false });
    });
    fx.exchange.driver.advance(2);
    const got = [await md.next(), await md.next(), await md.next(), await md.next()];
    expect(got.map((m) => m.t)).toEqual(['s', 's', 's', '2']);
    expect(got.slice(0, 3).map((m) => [m.p, m.v])).toEqual([['50010', 1], ['50020', 2], ['50030', 3]]);
    expect(got[3]).toMatchObject({ ts: START_SEC + 1, tn: 0, b: [], a: [{ p: '50040', q: 1 }] });
    expect(await md.drain()).toEqual([]);
  });

  it('skips an L2 update that repeats the last one sent, after the stats of the instant', async () => {
    const md = await subscribed('LEVEL_2');
    const { clock } = fx.exchange;
    // An ask rests and is lifted within one instant: the book ends as it began (empty).
    clock.scheduleAt(clock.nowNs + 1_000_000_000n, () => {
      rest(fx.exchange, 'alice', 'S', 1, '50010');
      fx.exchange.venue.placeOrder(fx.exchange.venue.account('bob')!, { symbol: BTC, side: 'B', quantity: 1, price: '50010', timeInForce: 'IOC', postOnly: false });
    });
    fx.exchange.driver.advance(2);
    expect(await md.next()).toMatchObject({ t: 's', p: '50010', v: 1 });
    expect(await md.drain()).toEqual([]);
  });

  it('sends every subscriber of a level the same update text, and no update of other symbols', async () => {
    const a = await subscribed('LEVEL_2');
    const b = await subscribed('LEVEL_2');
    const eth = await subscribed('LEVEL_2', 'ETHUSD-PERP');
    rest(fx.exchange, 'bob', 'S', 1, '50000');
    const [ra, rb] = await Promise.all([a.nextRaw(), b.nextRaw()]);
    expect(ra.raw).toBe(rb.raw);
    expect((ra.msg as Msg).a).toEqual([{ p: '50000', q: 1 }]);
    expect(await eth.drain()).toEqual([]);
  });
});
