import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, BTC, expect422, expectDetail, expectShape, startConformance, type Conformance } from './harness.ts';

/**
 * Authentication clauses: the two token endpoints, API key creation (password + TOTP), and
 * decisions.md's 401 / 403 rules. The wall clock is injected so token expiry and TOTP are exact.
 */

/** RFC 6238 appendix B: the SHA-1 secret "12345678901234567890" in base32; at T = 59 s the code is 94287082. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_CODE_AT_59S = '287082'; // the six low digits of 94287082
const wall = { ms: 59_000 };

let c: Conformance;
beforeAll(async () => {
  c = await startConformance({ exchange: { wallNow: () => wall.ms } });
  const res = await c.post('/admin/users', { username: 'carol', password: 'carol-password', cash: '1000', totp_secret: RFC_SECRET }, ADMIN);
  expect(res.status).toBe(200);
});
afterAll(() => c.close());

const tokenBody = (overrides: Record<string, unknown> = {}) => ({ username: 'alice', password: 'alice-password', expiration_seconds: 60, ...overrides });
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('token endpoints', () => {
  it('POST /auth/get_user_token answers 200 with exactly a token string, without an Authorization header', async () => {
    const res = await c.post('/auth/get_user_token', tokenBody());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json();
    expectShape(body, { token: 'string' });
    expect(body.token.length).toBeGreaterThan(0);
  });

  it('POST /auth/get_user_token requires username, password and expiration_seconds (422 missing, each named)', async () => {
    await expect422(await c.post('/auth/get_user_token', {}), [
      [['body', 'username'], 'missing'],
      [['body', 'password'], 'missing'],
      [['body', 'expiration_seconds'], 'missing'],
    ]);
  });

  it('POST /auth/get_user_token checks username length 1 to 50 (422 string_too_short / string_too_long)', async () => {
    await expect422(await c.post('/auth/get_user_token', tokenBody({ username: '' })), [[['body', 'username'], 'string_too_short']]);
    await expect422(await c.post('/auth/get_user_token', tokenBody({ username: 'a'.repeat(51) })), [[['body', 'username'], 'string_too_long']]);
    // 50 characters pass validation (then fail authentication).
    expect((await c.post('/auth/get_user_token', tokenBody({ username: 'a'.repeat(50) }))).status).toBe(401);
  });

  it('POST /auth/get_user_token checks username pattern ^[-A-Za-z0-9_@.+]+$ (422 string_pattern_mismatch)', async () => {
    const [issue] = await expect422(await c.post('/auth/get_user_token', tokenBody({ username: 'al ice' })), [[['body', 'username'], 'string_pattern_mismatch']]);
    expect(issue!.input).toBe('al ice');
    expect(issue!.ctx).toEqual({ pattern: '^[-A-Za-z0-9_@.+]+$' });
  });

  it('POST /auth/get_user_token checks password length 1 to 50', async () => {
    await expect422(await c.post('/auth/get_user_token', tokenBody({ password: '' })), [[['body', 'password'], 'string_too_short']]);
    await expect422(await c.post('/auth/get_user_token', tokenBody({ password: 'p'.repeat(51) })), [[['body', 'password'], 'string_too_long']]);
  });

  it('POST /auth/get_user_token checks the types of every field (string, string, integer)', async () => {
    await expect422(await c.post('/auth/get_user_token', { username: 7, password: true, expiration_seconds: 'soon' }), [
      [['body', 'username'], 'string_type'],
      [['body', 'password'], 'string_type'],
      [['body', 'expiration_seconds'], 'int_parsing'],
    ]);
    await expect422(await c.post('/auth/get_user_token', tokenBody({ expiration_seconds: 1.5 })), [[['body', 'expiration_seconds'], 'int_from_float']]);
  });

  it('POST /auth/get_user_token bounds expiration_seconds to 1 … 2,592,000 (decisions.md)', async () => {
    await expect422(await c.post('/auth/get_user_token', tokenBody({ expiration_seconds: 0 })), [[['body', 'expiration_seconds'], 'greater_than_equal']]);
    await expect422(await c.post('/auth/get_user_token', tokenBody({ expiration_seconds: 2_592_001 })), [[['body', 'expiration_seconds'], 'less_than_equal']]);
    expect((await c.post('/auth/get_user_token', tokenBody({ expiration_seconds: 2_592_000 }))).status).toBe(200);
  });

  it('POST /auth/get_user_token answers a body that is not a JSON object with 422', async () => {
    await expect422(await c.post('/auth/get_user_token', '[1,2]'), [[['body'], 'model_attributes_type']]);
    await expect422(await c.post('/auth/get_user_token', '{"username": '), [[['body', 13], 'json_invalid']]);
    await expect422(await c.post('/auth/get_user_token'), [[['body'], 'missing']]);
  });

  it('POST /auth/get_user_token answers a wrong password with 401 {"detail"}', async () => {
    await expectDetail(await c.post('/auth/get_user_token', tokenBody({ password: 'wrong' })), 401);
    await expectDetail(await c.post('/auth/get_user_token', tokenBody({ username: 'nobody' })), 401);
  });

  it('POST /auth/get_user_token_api_key requires api_key, secret and expiration_seconds (422)', async () => {
    await expect422(await c.post('/auth/get_user_token_api_key', {}), [
      [['body', 'api_key'], 'missing'],
      [['body', 'secret'], 'missing'],
      [['body', 'expiration_seconds'], 'missing'],
    ]);
    await expect422(await c.post('/auth/get_user_token_api_key', { api_key: 1, secret: null, expiration_seconds: 'x' }), [
      [['body', 'api_key'], 'string_type'],
      [['body', 'secret'], 'string_type'],
      [['body', 'expiration_seconds'], 'int_parsing'],
    ]);
  });

  it('POST /auth/get_user_token_api_key answers an unknown key or a wrong secret with 401', async () => {
    await expectDetail(await c.post('/auth/get_user_token_api_key', { api_key: 'nope', secret: 'nope', expiration_seconds: 60 }), 401);
  });
});

describe('API keys', () => {
  it('POST /api/api-keys answers exactly api_key and secret, and they get a working token from /auth/get_user_token_api_key', async () => {
    const res = await c.post('/api/api-keys', { username: 'alice', password: 'alice-password' }, await c.bearer('alice'), 'appUrl');
    expect(res.status).toBe(200);
    const key = await res.json();
    expectShape(key, { api_key: 'string', secret: 'string' });

    const tokenRes = await c.post('/auth/get_user_token_api_key', { api_key: key.api_key, secret: key.secret, expiration_seconds: 60 });
    expect(tokenRes.status).toBe(200);
    const { token } = await tokenRes.json();
    expectShape({ token }, { token: 'string' });
    // The token acts for alice.
    expect((await c.post('/orders/get_open_orders', { username: 'alice' }, auth(token))).status).toBe(200);
    expect((await c.post('/orders/get_open_orders', { username: 'bob' }, auth(token))).status).toBe(403);

    const wrong = await c.post('/auth/get_user_token_api_key', { api_key: key.api_key, secret: `${key.secret}x`, expiration_seconds: 60 });
    await expectDetail(wrong, 401);
  });

  it('POST /api/api-keys accepts totp null for a user without 2FA', async () => {
    const res = await c.post('/api/api-keys', { username: 'bob', password: 'bob-password', totp: null }, await c.bearer('bob'), 'appUrl');
    expect(res.status).toBe(200);
  });

  it('POST /api/api-keys needs a bearer token (401) and the user\'s password (401)', async () => {
    const body = { username: 'alice', password: 'alice-password' };
    expect(await expectDetail(await c.post('/api/api-keys', body, {}, 'appUrl'), 401)).toBeTruthy();
    await expectDetail(await c.post('/api/api-keys', body, { Authorization: 'Bearer not-a-token' }, 'appUrl'), 401);
    await expectDetail(await c.post('/api/api-keys', { ...body, password: 'wrong' }, await c.bearer('alice'), 'appUrl'), 401);
  });

  it('POST /api/api-keys for another username is 403', async () => {
    await expectDetail(await c.post('/api/api-keys', { username: 'bob', password: 'bob-password' }, await c.bearer('alice'), 'appUrl'), 403);
  });

  it('POST /api/api-keys requires username and password and a string or null totp (422)', async () => {
    await expect422(await c.post('/api/api-keys', { totp: 123456 }, await c.bearer('alice'), 'appUrl'), [
      [['body', 'username'], 'missing'],
      [['body', 'password'], 'missing'],
      [['body', 'totp'], 'string_type'],
    ]);
  });

  it('POST /api/api-keys for a user with 2FA requires the RFC 6238 code (missing 401, wrong 401, right 200)', async () => {
    wall.ms = 59_000;
    const bearer = await c.bearer('carol');
    const body = { username: 'carol', password: 'carol-password' };
    expect(await expectDetail(await c.post('/api/api-keys', body, bearer, 'appUrl'), 401)).toMatch(/totp/);
    await expectDetail(await c.post('/api/api-keys', { ...body, totp: '000000' }, bearer, 'appUrl'), 401);
    const ok = await c.post('/api/api-keys', { ...body, totp: RFC_CODE_AT_59S }, bearer, 'appUrl');
    expect(ok.status).toBe(200);
    expectShape(await ok.json(), { api_key: 'string', secret: 'string' });
  });
});

describe('Authorization header (decisions.md)', () => {
  it('accepts "Bearer <token>" and the bare token', async () => {
    const token = await c.token('alice');
    expect((await c.get('/auth/instruments', { Authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await c.get('/auth/instruments', { Authorization: token })).status).toBe(200);
  });

  it('answers a missing or unknown token with 401 {"detail"} and WWW-Authenticate: Bearer', async () => {
    for (const headers of [{} as Record<string, string>, { Authorization: 'Bearer nope' }, { Authorization: 'Basic abc def' }]) {
      const res = await c.post('/orders/get_open_orders', { username: 'alice' }, headers);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      await expectDetail(res, 401);
    }
  });

  it('requires the token on every order, instrument and risk endpoint (401)', async () => {
    const none = {};
    for (const res of [
      await c.post('/orders/insert_order', { username: 'alice' }, none),
      await c.post('/orders/cancel_order', { username: 'alice', order_id: 'x' }, none),
      await c.post('/orders/get_open_orders', { username: 'alice' }, none),
      await c.post('/orders/cancel_all', { username: 'alice' }, none),
      await c.get('/auth/instruments', none),
      await c.get(`/auth/instruments/${BTC}`, none),
      await c.get('/risk_manager/risk_snapshot?username=alice', none),
      await c.get('/api/risk-snapshot', none, 'appUrl'),
    ]) {
      await expectDetail(res, 401);
    }
  });

  it('keeps settlement and candle endpoints public (no token needed)', async () => {
    const range = { start_time: '2026-01-01T00:00:00Z', end_time: '2026-01-02T00:00:00Z' };
    expect((await c.post('/settlement/get_mtm_prices', { symbol: BTC, ...range })).status).toBe(200);
    expect((await c.post('/settlement/get_funding_rates', { symbol: BTC, ...range })).status).toBe(200);
    expect((await c.post('/candle/historical_candles', { market: BTC, interval: '1m', ...range })).status).toBe(200);
  });

  it('answers a body username that is not the token\'s user with 403 {"detail"}', async () => {
    await expectDetail(await c.post('/orders/get_open_orders', { username: 'bob' }, await c.bearer('alice')), 403);
  });

  it('expires tokens after expiration_seconds of wall time (401)', async () => {
    wall.ms = 1_000_000;
    const token = await c.token('alice', 10);
    expect((await c.get('/auth/instruments', auth(token))).status).toBe(200);
    wall.ms += 9_999;
    expect((await c.get('/auth/instruments', auth(token))).status).toBe(200);
    wall.ms += 1;
    await expectDetail(await c.get('/auth/instruments', auth(token)), 401);
  });
});
