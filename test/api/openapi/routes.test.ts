import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ADMIN, BTC, insertOrder, startConformance, type Conformance, type JsonResponse } from '../../conformance/harness.ts';

/**
 * Every route of /openapi.json, called on a live server (127.0.0.1:0, `empty` scenario, manual
 * clock) for every status it documents; the answer must have that status and match the
 * document's schema for it, read back from the served JSON (JSON Schema → zod with
 * `z.fromJSONSchema`, objects made closed, so an undocumented key fails too).
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
/** `paced`: a second server whose clock runs (only there can the clock be resumed). */
type Call = { path?: string; body?: unknown; query?: string; auth?: 'alice' | 'admin' | 'none'; server?: 'paced'; setup?: () => Promise<Partial<Call>> };

let c: Conformance;
let paced: Conformance;
let spec: Json;

beforeAll(async () => {
  c = await startConformance();
  paced = await startConformance({ exchange: { manual: false } });
  const validator = new Validator();
  const res = await c.get('/openapi.json');
  expect(res.status).toBe(200);
  expect((await validator.validate(await res.json())).valid).toBe(true);
  spec = validator.resolveRefs() as Json;
});
afterAll(() => Promise.all([c?.close(), paced?.close()]));

const orderOf = async (user = 'alice') => {
  const res = await c.post('/orders/insert_order', insertOrder({ username: user }), await c.bearer(user));
  return (await res.json()).order_id as string;
};
const range = { start_time: '2026-01-01T00:00:00Z', end_time: '2026-01-02T00:00:00Z' };

/** A request that should get each (route, status). `{symbol}` in a path is filled from `path`. */
const CALLS: Record<string, Record<number, Call>> = {
  'post /auth/get_user_token': { 200: { body: { username: 'alice', password: 'alice-password', expiration_seconds: 60 } }, 422: { body: {} } },
  'post /auth/get_user_token_api_key': {
    200: {
      setup: async () => {
        const key = await (await c.post('/api/api-keys', { username: 'alice', password: 'alice-password' }, await c.bearer())).json();
        return { body: { api_key: key.api_key, secret: key.secret, expiration_seconds: 60 } };
      },
    },
    422: { body: { api_key: 'k' } },
  },
  'get /auth/instruments': { 200: {}, 401: { auth: 'none' } },
  'get /auth/instruments/{symbol}': { 200: { path: '/auth/instruments/BTCUSD-PERP' }, 401: { auth: 'none', path: '/auth/instruments/BTCUSD-PERP' }, 404: { path: '/auth/instruments/NOPE-PERP' }, 422: { path: '/auth/instruments/btc' } },
  'post /orders/insert_order': { 200: { body: insertOrder() }, 401: { auth: 'none', body: insertOrder() }, 403: { body: insertOrder({ username: 'bob' }) }, 422: { body: insertOrder({ price: '4.9e4' }) } },
  'post /orders/cancel_order': {
    200: { setup: async () => ({ body: { username: 'alice', order_id: await orderOf() } }) },
    401: { auth: 'none', body: { username: 'alice', order_id: 'O-X' } },
    403: { body: { username: 'bob', order_id: 'O-X' } },
    422: { body: { username: 'alice' } },
  },
  'post /orders/get_open_orders': { 200: { setup: async () => (await orderOf(), { body: { username: 'alice' } }) }, 401: { auth: 'none', body: { username: 'alice' } }, 403: { body: { username: 'bob' } }, 422: { body: [] } },
  'post /orders/cancel_all': { 200: { setup: async () => (await orderOf(), { body: { username: 'alice' } }) }, 401: { auth: 'none', body: { username: 'alice' } }, 403: { body: { username: 'bob' } }, 422: { body: {} } },
  'post /settlement/get_mtm_prices': { 200: { body: { symbol: BTC, ...range } }, 422: { body: { symbol: BTC, start_time: 'yesterday', end_time: range.end_time } } },
  'post /settlement/get_funding_rates': { 200: { body: { symbol: BTC, ...range } }, 422: { body: { symbol: 'NOPE-PERP', ...range } } },
  'post /candle/historical_candles': { 200: { body: { market: BTC, interval: '1m', ...range } }, 422: { body: { market: BTC, interval: '2m', ...range } } },
  'get /risk_manager/risk_snapshot': { 200: { query: 'username=alice' }, 401: { auth: 'none', query: 'username=alice' }, 403: { query: 'username=bob' }, 422: { query: '' } },
  'get /api/risk-snapshot': { 200: {}, 401: { auth: 'none' } },
  'post /api/api-keys': {
    200: { body: { username: 'alice', password: 'alice-password', totp: null } },
    401: { auth: 'none', body: { username: 'alice', password: 'alice-password' } },
    403: { body: { username: 'bob', password: 'bob-password' } },
    422: { body: { username: 'alice' } },
  },
  'get /admin/clock': { 200: { auth: 'admin' }, 401: {} },
  'post /admin/clock/advance': { 200: { auth: 'admin', body: { seconds: 120 } }, 401: { body: { seconds: 1 } }, 422: { auth: 'admin', body: { seconds: -1 } } },
  'post /admin/clock/pause': { 200: { auth: 'admin' }, 401: {} },
  'post /admin/clock/resume': { 200: { auth: 'admin', server: 'paced' }, 401: {}, 409: { auth: 'admin' } },
  'post /admin/clock/speed': { 200: { auth: 'admin', body: { speed: 2 } }, 401: { body: { speed: 2 } }, 422: { auth: 'admin', body: { speed: 0 } } },
  'post /admin/users': {
    200: { auth: 'admin', body: { username: 'carol', password: 'carol-password', cash: '5000' } },
    401: { body: { username: 'dave', password: 'x', cash: '1' } },
    409: { auth: 'admin', body: { username: 'alice', password: 'x', cash: '1' } },
    422: { auth: 'admin', body: { username: 'dave', password: 'x', cash: 'lots' } },
  },
  'post /admin/cash': { 200: { auth: 'admin', body: { username: 'alice', amount: '-1.5' } }, 401: { body: { username: 'alice', amount: '1' } }, 404: { auth: 'admin', body: { username: 'nobody', amount: '1' } }, 422: { auth: 'admin', body: { username: 'alice' } } },
  'post /admin/orders/cancel': {
    200: { auth: 'admin', setup: async () => ({ body: { order_id: await orderOf('bob') } }) },
    401: { body: { order_id: 'O-X' } },
    404: { auth: 'admin', body: { order_id: 'O-NONE' } },
    422: { auth: 'admin', body: {} },
  },
  'post /admin/instruments/{symbol}/state': {
    200: { auth: 'admin', path: '/admin/instruments/ETHUSD-PERP/state', body: { state: 'OPEN' } },
    401: { path: '/admin/instruments/ETHUSD-PERP/state', body: { state: 'OPEN' } },
    404: { auth: 'admin', path: '/admin/instruments/NOPE-PERP/state', body: { state: 'OPEN' } },
    422: { auth: 'admin', path: '/admin/instruments/ETHUSD-PERP/state', body: { state: 'SLEEPING' } },
  },
  'get /admin/state_hash': { 200: { auth: 'admin' }, 401: {} },
};

/** JSON Schema with every object closed (`additionalProperties: false` where it says nothing). */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Json = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, closed(v)]));
  if (out.type === 'object' && out.properties !== undefined && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

async function send(method: string, docPath: string, call: Call): Promise<JsonResponse> {
  const full = { ...call, ...(call.setup ? await call.setup() : {}) };
  const auth = full.auth ?? (docPath.startsWith('/admin') ? 'none' : 'alice');
  const headers = auth === 'admin' ? ADMIN : auth === 'alice' ? await c.bearer('alice') : {};
  const path = (full.path ?? docPath) + (full.query !== undefined ? `?${full.query}` : '');
  const server = full.server === 'paced' ? paced : c;
  return method === 'get' ? server.get(path, headers) : server.post(path, full.body === undefined ? undefined : full.body, headers);
}

describe('/openapi.json', () => {
  it('lists exactly the routes this test calls, with exactly the statuses it calls them for', () => {
    const documented = Object.fromEntries(
      Object.entries(spec.paths as Json).flatMap(([path, ops]) => Object.entries(ops as Json).map(([method, op]) => [`${method} ${path}`, Object.keys(op.responses).map(Number)])),
    );
    expect(documented).toEqual(Object.fromEntries(Object.entries(CALLS).map(([k, v]) => [k, Object.keys(v).map(Number)])));
  });

  for (const [route, statuses] of Object.entries(CALLS)) {
    const [method, docPath] = route.split(' ') as [string, string];
    for (const [status, call] of Object.entries(statuses)) {
      it(`${route} answers ${status} with the documented body`, async () => {
        const res = await send(method, docPath, call);
        const body = await res.json();
        expect({ status: res.status, body }).toMatchObject({ status: Number(status) });
        const schema = spec.paths[docPath][method].responses[status].content['application/json'].schema;
        const result = z.fromJSONSchema(closed(schema) as Parameters<typeof z.fromJSONSchema>[0]).safeParse(body);
        expect(result.success, `${JSON.stringify(body)}\n${result.error?.message}`).toBe(true);
      });
    }
  }

  it('answers with data, not only empty lists, where the calls above made some', async () => {
    await orderOf('alice'); // a bid at 49000, then bob sells into it
    await c.post('/orders/insert_order', insertOrder({ username: 'bob', side: 'S', price: '49000', time_in_force: 'IOC' }), await c.bearer('bob'));
    await c.advance(60);
    const marks = await (await c.post('/settlement/get_mtm_prices', { symbol: BTC, ...range })).json();
    const candles = await (await c.post('/candle/historical_candles', { market: BTC, interval: '1m', ...range })).json();
    const schema = (p: string) => z.fromJSONSchema(closed(spec.paths[p].post.responses['200'].content['application/json'].schema) as Parameters<typeof z.fromJSONSchema>[0]);
    expect(marks.length).toBeGreaterThan(0);
    expect(candles.candles.length).toBeGreaterThan(0);
    expect(schema('/settlement/get_mtm_prices').safeParse(marks).success).toBe(true);
    expect(schema('/candle/historical_candles').safeParse(candles).success).toBe(true);
  });
});
