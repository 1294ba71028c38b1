import { afterEach, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/api/auth/totp.ts';
import { Exchange, type ExchangeOptions } from '../../src/api/exchange.ts';
import { startServer, type RunningServer, type ServerOptions } from '../../src/api/server.ts';
import { CLOSE_TOKEN_EXPIRED, CLOSE_TOO_MANY } from '../../src/api/ws/close-codes.ts';
import { emptyScenario, TestSocket, type Msg } from '../api/ws/helpers.ts';

/**
 * Sessions follow tokens, credentials resist guessing, sockets are capped. The wall clock is
 * injected (tokens, TOTP and the login throttle run on it), so expiry is reached by moving it,
 * not by waiting.
 */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // RFC 6238's "12345678901234567890"

interface Rig {
  exchange: Exchange;
  server: RunningServer;
  wall: { ms: number };
  post(path: string, body: unknown, headers?: Record<string, string>, base?: 'url' | 'appUrl'): Promise<Response>;
  token(user?: string, seconds?: number): Promise<string>;
  socket(path: '/orders' | '/md/ws'): Promise<TestSocket>;
}
const rigs: { server: RunningServer; sockets: TestSocket[] }[] = [];

async function rig(options: { exchange?: ExchangeOptions; server?: ServerOptions } = {}): Promise<Rig> {
  const wall = { ms: 1_767_225_600_000 };
  const exchange = await Exchange.create(emptyScenario(), { manual: true, scryptCost: 1024, adminToken: 'admin', wallNow: () => wall.ms, ...options.exchange });
  const server = await startServer(exchange, { port: 0, heartbeatMs: 60_000, tokenSweepMs: 20, ...options.server });
  const sockets: TestSocket[] = [];
  rigs.push({ server, sockets });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}, base: 'url' | 'appUrl' = 'url') =>
    fetch(server[base] + path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return {
    exchange,
    server,
    wall,
    post,
    async token(user = 'alice', seconds = 3600) {
      const res = await post('/auth/get_user_token', { username: user, password: `${user}-password`, expiration_seconds: seconds });
      if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { token: string }).token;
    },
    async socket(path) {
      const s = await TestSocket.open(server.wsUrl + path);
      sockets.push(s);
      return s;
    },
  };
}

afterEach(async () => {
  for (const r of rigs.splice(0)) {
    await Promise.all(r.sockets.map((s) => s.close()));
    await r.server.close();
  }
});

/** Resolves with the close code and reason of a socket. */
const closed = (s: TestSocket) => new Promise<{ code: number; reason: string }>((resolve) => s.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));

const orderLogin = (s: TestSocket, token: string, extra: Msg = {}) => s.request({ rid: 1, t: 'a', u: 'alice', k: token, ...extra });
const mdLogin = (s: TestSocket, token: string) => s.request({ request_id: 1, type: 'login', username: 'alice', token }, 'request_id');

describe('websocket sessions end with their token', () => {
  it('an order socket gets a 401 envelope and is closed when its token expires, even when idle', async () => {
    const r = await rig();
    const s = await r.socket('/orders');
    expect((await orderLogin(s, await r.token('alice', 2))).res.li).toBe('alice');
    const end = closed(s);
    r.wall.ms += 2_000;
    expect(await s.next()).toEqual({ rid: null, err: { code: 401, msg: 'token expired or revoked; log in again' } });
    expect(await end).toEqual({ code: CLOSE_TOKEN_EXPIRED, reason: 'token expired' });
  });

  it('an order socket cannot place an order after expiry: the request is answered 401 and nothing is placed', async () => {
    const r = await rig({ server: { tokenSweepMs: 60_000 } }); // no sweep: the request itself must notice
    const s = await r.socket('/orders');
    await orderLogin(s, await r.token('alice', 2));
    r.wall.ms += 2_500;
    s.send({ rid: 2, t: 'p', s: 'BTCUSD-PERP', d: 'B', q: 1, p: '49000', tif: 'GTC', po: false });
    expect((await s.next()).err.code).toBe(401);
    expect(r.exchange.venue.openOrders(r.exchange.venue.account('alice')!)).toEqual([]);
  });

  it('a market-data socket is closed when its token expires', async () => {
    const r = await rig();
    const s = await r.socket('/md/ws');
    expect((await mdLogin(s, await r.token('alice', 5))).result.logged_in).toBe('alice');
    const end = closed(s);
    r.wall.ms += 5_000;
    expect(await s.next()).toEqual({ request_id: null, error: { code: 401, message: 'token expired or revoked; log in again' } });
    expect((await end).code).toBe(CLOSE_TOKEN_EXPIRED);
  });

  it('caps live tokens per user: the oldest is revoked, its socket ends, the others live on', async () => {
    const r = await rig({ exchange: { maxTokensPerUser: 3 } });
    const [first, second] = [await r.token(), await r.token()];
    const s = await r.socket('/orders');
    await orderLogin(s, first);
    const end = closed(s);
    await r.token();
    await r.token(); // the fourth: `first` is revoked
    expect((await fetch(`${r.server.url}/auth/instruments`, { headers: { Authorization: `Bearer ${first}` } })).status).toBe(401);
    expect((await fetch(`${r.server.url}/auth/instruments`, { headers: { Authorization: `Bearer ${second}` } })).status).toBe(200);
    expect((await end).code).toBe(CLOSE_TOKEN_EXPIRED);
  });
});

describe('credentials resist replay and guessing', () => {
  it('accepts a TOTP code once: the same code again is refused, the next step\'s code works', async () => {
    const r = await rig();
    await r.post('/admin/users', { username: 'carol', password: 'carol-password', cash: '1000', totp_secret: RFC_SECRET }, { Authorization: 'Bearer admin' });
    const bearer = { Authorization: `Bearer ${await r.token('carol')}` };
    const secret = Buffer.from('12345678901234567890');
    const body = { username: 'carol', password: 'carol-password', totp: totpCode(secret, r.wall.ms) };
    expect((await r.post('/api/api-keys', body, bearer, 'appUrl')).status).toBe(200);
    const again = await r.post('/api/api-keys', body, bearer, 'appUrl');
    expect(again.status).toBe(401);
    expect(((await again.json()) as Msg).detail).toMatch(/already used/);
    r.wall.ms += 30_000;
    expect((await r.post('/api/api-keys', { ...body, totp: totpCode(secret, r.wall.ms) }, bearer, 'appUrl')).status).toBe(200);
  });

  it('answers 429 with Retry-After after 5 wrong passwords for a user, even to the right one, until the wait is over', async () => {
    const r = await rig();
    const attempt = (password: string) => r.post('/auth/get_user_token', { username: 'alice', password, expiration_seconds: 60 });
    for (let i = 0; i < 5; i++) expect((await attempt('guess')).status).toBe(401);
    const refused = await attempt('alice-password');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('12');
    expect(await refused.json()).toEqual({ detail: 'Too many failed login attempts; try again later' });
    expect((await r.post('/auth/get_user_token', { username: 'bob', password: 'bob-password', expiration_seconds: 60 })).status).toBe(200);
    r.wall.ms += 12_000;
    expect((await attempt('alice-password')).status).toBe(200);
  });

  it('limits failures per address across usernames (20, then 429)', async () => {
    const r = await rig();
    for (let i = 0; i < 20; i++) {
      expect((await r.post('/auth/get_user_token', { username: `nobody${i}`, password: 'x', expiration_seconds: 60 })).status).toBe(401);
    }
    const res = await r.post('/auth/get_user_token', { username: 'someone-else', password: 'x', expiration_seconds: 60 });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts API-key guesses too', async () => {
    const r = await rig();
    for (let i = 0; i < 5; i++) expect((await r.post('/auth/get_user_token_api_key', { api_key: 'ak_x', secret: 'guess', expiration_seconds: 60 })).status).toBe(401);
    expect((await r.post('/auth/get_user_token_api_key', { api_key: 'ak_x', secret: 'guess', expiration_seconds: 60 })).status).toBe(429);
  });
});

describe('cancel-on-disconnect is a per-login option, off by default', () => {
  const place = (s: TestSocket, rid: number) => s.request({ rid, t: 'p', s: 'BTCUSD-PERP', d: 'B', q: 1, p: '49000', tif: 'GTC', po: false });
  const openCount = (r: Rig) => r.exchange.venue.openOrders(r.exchange.venue.account('alice')!).length;

  it('cancels the user\'s open orders when a cod login\'s socket goes away, and reports cod at login', async () => {
    const r = await rig();
    const watcher = await r.socket('/orders');
    await orderLogin(watcher, await r.token());
    const s = await r.socket('/orders');
    expect((await orderLogin(s, await r.token(), { cod: true })).res).toMatchObject({ li: 'alice', cod: true });
    const oid = (await place(s, 2)).res.oid;
    expect(openCount(r)).toBe(1);
    const end = closed(s);
    s.ws.terminate();
    await end;
    const cancel = await watcher.next((m) => m.t === 'c');
    expect(cancel.o.oid).toBe(oid);
    expect(openCount(r)).toBe(0);
  });

  it('leaves orders resting when the login did not ask for it, and keeps the documented login result', async () => {
    const r = await rig();
    const s = await r.socket('/orders');
    expect(Object.keys((await orderLogin(s, await r.token())).res).sort()).toEqual(['li', 'o']);
    await place(s, 2);
    const end = closed(s);
    s.ws.terminate();
    await end;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(openCount(r)).toBe(1);
  });

  it('answers a cod that is not a boolean with 400', async () => {
    const r = await rig();
    const s = await r.socket('/orders');
    expect((await orderLogin(s, await r.token(), { cod: 'yes' })).err).toEqual({ code: 400, msg: 'cod must be a boolean' });
  });
});

describe('socket caps', () => {
  it('refuses a login beyond the per-user cap with a 429 envelope, then closes with 4429', async () => {
    const r = await rig({ server: { maxSocketsPerUser: 2 } });
    const token = await r.token();
    for (let i = 0; i < 2; i++) expect((await orderLogin(await r.socket('/orders'), token)).res.li).toBe('alice');
    const third = await r.socket('/orders');
    const end = closed(third);
    expect((await orderLogin(third, token)).err).toEqual({ code: 429, msg: 'at most 2 order sockets per user' });
    expect(await end).toEqual({ code: CLOSE_TOO_MANY, reason: 'too many sockets for this user' });
    const md = await r.socket('/md/ws'); // the cap is per endpoint
    expect((await mdLogin(md, token)).result.logged_in).toBe('alice');
  });

  it('refuses a market-data login beyond the per-user cap with the 429 in its own envelope, then closes with 4429', async () => {
    const r = await rig({ server: { maxSocketsPerUser: 1 } });
    const token = await r.token();
    expect((await mdLogin(await r.socket('/md/ws'), token)).result.logged_in).toBe('alice');
    const second = await r.socket('/md/ws');
    const end = closed(second);
    expect((await mdLogin(second, token)).error).toEqual({ code: 429, message: 'at most 1 market-data sockets per user' });
    expect(await end).toEqual({ code: CLOSE_TOO_MANY, reason: 'too many sockets for this user' });
  });

  it('closes connections beyond the server total with 4429 "server full"', async () => {
    const r = await rig({ server: { maxSockets: 3 } });
    for (let i = 0; i < 3; i++) await r.socket(i % 2 === 0 ? '/orders' : '/md/ws');
    const extra = await r.socket('/md/ws');
    expect(await closed(extra)).toEqual({ code: CLOSE_TOO_MANY, reason: 'server full: too many sockets' });
  });
});
