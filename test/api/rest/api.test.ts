import { describe, expect, it } from 'vitest';
import { decodeBase32, totpCode } from '../../../src/api/auth/totp.ts';
import { ADMIN, json, order, restFixture } from './fixtures.ts';

const TOTP_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const WALL_MS = 1_767_225_600_000;

describe('GET /api/risk-snapshot', () => {
  it('wraps the token user\'s snapshot under risk_snapshot with every documented field', async () => {
    const f = await restFixture();
    const auth = await f.bearer('alice');
    await f.post('/orders/insert_order', order({ price: '49000', quantity: 2 }), auth);
    const res = await f.get('/api/risk-snapshot', auth);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body)).toEqual(['risk_snapshot']);
    const snap = body.risk_snapshot;
    expect(Object.keys(snap).sort()).toEqual(
      ['balance_usd', 'equity', 'initial_margin_available', 'initial_margin_required_for_open_orders', 'initial_margin_required_for_positions', 'initial_margin_required_total', 'maintenance_margin_available', 'maintenance_margin_required', 'per_symbol', 'timestamp_ns', 'unrealized_pnl', 'user_id'].sort(),
    );
    expect(snap.user_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(snap.balance_usd).toBe('1000000');
    expect(snap.initial_margin_required_for_open_orders).toBe('14700'); // 2 × 49000 × 15 %
    expect(typeof snap.per_symbol).toBe('object');
  });

  it('answers 401 without a token', async () => {
    const f = await restFixture();
    expect((await f.get('/api/risk-snapshot')).status).toBe(401);
  });
});

describe('POST /api/api-keys', () => {
  it('creates a key and secret for the right password', async () => {
    const f = await restFixture();
    const res = await f.post('/api/api-keys', { username: 'alice', password: 'alice-password', totp: null }, await f.bearer());
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual(['api_key', 'secret']);
    expect(typeof body.api_key).toBe('string');
    expect(typeof body.secret).toBe('string');
  });

  it('answers 401 for a wrong password', async () => {
    const f = await restFixture();
    const res = await f.post('/api/api-keys', { username: 'alice', password: 'wrong' }, await f.bearer());
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ detail: 'Incorrect username or password' });
  });

  it('answers 403 when the body names another user than the token\'s', async () => {
    const f = await restFixture();
    const res = await f.post('/api/api-keys', { username: 'bob', password: 'bob-password' }, await f.bearer('alice'));
    expect(res.status).toBe(403);
  });

  it('validates the body: username and password required, totp a string or null', async () => {
    const f = await restFixture();
    const res = await f.post('/api/api-keys', { totp: 123456 }, await f.bearer());
    expect((await json(res)).detail.map((d: { loc: string[]; type: string }) => [d.loc[1], d.type])).toEqual([
      ['username', 'missing'],
      ['password', 'missing'],
      ['totp', 'string_type'],
    ]);
  });

  it('requires a valid TOTP code for a user with 2FA', async () => {
    const wall = { ms: WALL_MS };
    const f = await restFixture({ wallNow: () => wall.ms });
    await f.post('/admin/users', { username: 'carol', password: 'carol-password', cash: '1000', totp_secret: TOTP_SECRET }, ADMIN);
    const auth = await f.bearer('carol');
    const code = totpCode(decodeBase32(TOTP_SECRET)!, wall.ms);

    const missing = await f.post('/api/api-keys', { username: 'carol', password: 'carol-password' }, auth);
    expect(missing.status).toBe(401);
    expect((await json(missing)).detail).toMatch(/code \(totp\) required/);

    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const bad = await f.post('/api/api-keys', { username: 'carol', password: 'carol-password', totp: wrong }, auth);
    expect(bad.status).toBe(401);
    expect((await json(bad)).detail).toMatch(/Invalid two-factor/);

    const good = await f.post('/api/api-keys', { username: 'carol', password: 'carol-password', totp: code }, auth);
    expect(good.status).toBe(200);
    expect(await json(good)).toHaveProperty('secret');
  });
});

describe('the two halves of the wire', () => {
  it('serves only /api on an app-only app and everything else on a base-only app', async () => {
    const apiOnly = await restFixture({ parts: { app: true } });
    const token = await apiOnly.exchange.users.tokenForPassword('alice', 'alice-password', 60);
    expect((await apiOnly.get('/api/risk-snapshot', { Authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await apiOnly.post('/auth/get_user_token', {})).status).toBe(404);
    expect((await apiOnly.get('/admin/clock', ADMIN)).status).toBe(404);

    const baseOnly = await restFixture({ parts: { base: true } });
    expect((await baseOnly.get('/api/risk-snapshot')).status).toBe(404);
    expect((await baseOnly.get('/admin/clock', ADMIN)).status).toBe(200);
  });
});
