import { describe, expect, it } from 'vitest';
import { json, order, restFixture } from './fixtures.ts';

describe('token endpoints', () => {
  it('issues an opaque token for the right password', async () => {
    const f = await restFixture();
    const res = await f.post('/auth/get_user_token', { username: 'alice', password: 'alice-password', expiration_seconds: 60 });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body)).toEqual(['token']);
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(f.exchange.users.userForToken(body.token)).toBe('alice');
  });

  it('answers 401 with the FastAPI detail for a wrong password or an unknown user', async () => {
    const f = await restFixture();
    for (const credentials of [
      { username: 'alice', password: 'bob-password' },
      { username: 'mallory', password: 'alice-password' },
    ]) {
      const res = await f.post('/auth/get_user_token', { ...credentials, expiration_seconds: 60 });
      expect(res.status).toBe(401);
      expect(await json(res)).toEqual({ detail: 'Incorrect username or password' });
    }
  });

  it('bounds expiration_seconds to 1 … 2,592,000 with pydantic range errors', async () => {
    const f = await restFixture();
    const low = await json(await f.post('/auth/get_user_token', { username: 'alice', password: 'x', expiration_seconds: 0 }));
    expect(low.detail).toEqual([
      { type: 'greater_than_equal', loc: ['body', 'expiration_seconds'], msg: 'Input should be greater than or equal to 1', input: 0, ctx: { ge: 1 } },
    ]);
    const high = await json(await f.post('/auth/get_user_token', { username: 'alice', password: 'x', expiration_seconds: 2_592_001 }));
    expect(high.detail[0]).toMatchObject({ type: 'less_than_equal', msg: 'Input should be less than or equal to 2592000', ctx: { le: 2_592_000 } });
  });

  it('issues a token for an API key and secret, and 401 for a wrong secret', async () => {
    const f = await restFixture();
    const created = await json(await f.post('/api/api-keys', { username: 'alice', password: 'alice-password' }, await f.bearer()));
    const ok = await f.post('/auth/get_user_token_api_key', { api_key: created.api_key, secret: created.secret, expiration_seconds: 60 });
    expect(ok.status).toBe(200);
    expect(f.exchange.users.userForToken((await json(ok)).token)).toBe('alice');
    const bad = await f.post('/auth/get_user_token_api_key', { api_key: created.api_key, secret: 'nope', expiration_seconds: 60 });
    expect(bad.status).toBe(401);
    expect(typeof (await json(bad)).detail).toBe('string');
  });
});

describe('instrument endpoints', () => {
  it('lists every instrument with exactly the documented fields and types', async () => {
    const f = await restFixture();
    const res = await f.get('/auth/instruments', await f.bearer());
    expect(res.status).toBe(200);
    const { instruments } = await json(res);
    expect(instruments).toHaveLength(2);
    expect(instruments[0]).toEqual({
      symbol: 'BTCUSD-PERP',
      tick_size: '0.5',
      base_currency: 'BTC',
      multiplier: 1,
      minimum_trade_quantity: 1,
      description: 'Bitcoin perpetual future quoted in USD',
      product_id: 'BTCUSD-PERP',
      state: 'OPEN',
      price_scale: 2,
    });
    expect(instruments[1]).toMatchObject({ symbol: 'ETHUSD-PERP', tick_size: '0.01', price_scale: 100 });
  });

  it('returns one instrument by symbol, 404 for an unknown one, 422 for a malformed one', async () => {
    const f = await restFixture();
    const auth = await f.bearer();
    expect(await json(await f.get('/auth/instruments/ETHUSD-PERP', auth))).toMatchObject({ symbol: 'ETHUSD-PERP', base_currency: 'ETH' });
    const unknown = await f.get('/auth/instruments/DOGEUSD-PERP', auth);
    expect(unknown.status).toBe(404);
    expect(typeof (await json(unknown)).detail).toBe('string');
    const bad = await f.get('/auth/instruments/btcusd-perp', auth);
    expect(bad.status).toBe(422);
    expect((await json(bad)).detail).toEqual([
      { type: 'string_pattern_mismatch', loc: ['path', 'symbol'], msg: "String should match pattern '^[-A-Z0-9]+$'", input: 'btcusd-perp', ctx: { pattern: '^[-A-Z0-9]+$' } },
    ]);
  });
});

describe('authorization', () => {
  it('answers 401 "Not authenticated" with a Bearer challenge when the header is missing', async () => {
    const f = await restFixture();
    const res = await f.get('/auth/instruments');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(await json(res)).toEqual({ detail: 'Not authenticated' });
  });

  it('answers 401 for a token the exchange never issued', async () => {
    const f = await restFixture();
    const res = await f.post('/orders/get_open_orders', { username: 'alice' }, { Authorization: 'Bearer not-a-token' });
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ detail: 'Invalid or expired token' });
  });

  it('answers 401 once the token has expired on the wall clock', async () => {
    const wall = { ms: 1_767_225_600_000 };
    const f = await restFixture({ wallNow: () => wall.ms });
    const auth = { Authorization: `Bearer ${await f.token('alice', 60)}` };
    wall.ms += 59_000;
    expect((await f.get('/auth/instruments', auth)).status).toBe(200);
    wall.ms += 1_000;
    const res = await f.get('/auth/instruments', auth);
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ detail: 'Invalid or expired token' });
  });

  it('accepts a bare token and a lower-case bearer scheme', async () => {
    const f = await restFixture();
    const token = await f.token();
    expect((await f.get('/auth/instruments', { Authorization: token })).status).toBe(200);
    expect((await f.get('/auth/instruments', { Authorization: `bearer ${token}` })).status).toBe(200);
    expect((await f.get('/auth/instruments', { Authorization: `Basic ${token}` })).status).toBe(401);
  });

  it('answers 403 when the body names another user, and places nothing', async () => {
    const f = await restFixture();
    const res = await f.post('/orders/insert_order', order({ username: 'bob' }), await f.bearer('alice'));
    expect(res.status).toBe(403);
    expect(typeof (await json(res)).detail).toBe('string');
    expect(f.feeds).toHaveLength(0);
    expect(f.exchange.venue.openOrders(f.exchange.venue.account('bob')!)).toHaveLength(0);
  });

  it('answers 403 when the risk snapshot query names another user', async () => {
    const f = await restFixture();
    const res = await f.get('/risk_manager/risk_snapshot?username=bob', await f.bearer('alice'));
    expect(res.status).toBe(403);
  });

  it('checks the token before the body schema, as FastAPI resolves security first', async () => {
    const f = await restFixture();
    const res = await f.post('/orders/insert_order', { username: '' });
    expect(res.status).toBe(401);
  });
});
