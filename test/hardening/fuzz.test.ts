import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, BTC, startConformance, type Conformance, type Msg, type TestSocket } from '../conformance/harness.ts';

/**
 * Seeded fuzzing of every REST route and every websocket request type against a real server.
 * Each case starts from a valid request and breaks it (a field replaced by any JSON value, a
 * field dropped, the whole body replaced, raw text, deep nesting, a bad token), so that both
 * the validation paths and the business paths behind them are reached. Whatever comes in, the
 * answer must be one of the documented shapes and never a 5xx or a code-500 envelope.
 *
 * Counts (fixed seed, so CI runs the same cases every time): RUNS_PER_ROUTE requests per REST
 * route (24 routes → 1,440 requests) and RUNS_PER_TYPE frames per websocket request type
 * (6 order-socket types + 6 market-data types, subscribe with `depth` among them → 1,200 frames).
 */
const SEED = 17;
const RUNS_PER_ROUTE = 60;
const RUNS_PER_TYPE = 100;

let c: Conformance;
let alice: Record<string, string>;
beforeAll(async () => {
  c = await startConformance();
  alice = await c.bearer('alice');
});
afterAll(() => c.close());

const NOW = '2026-01-01T00:00:00Z';
const LATER = '2026-01-02T00:00:00Z';

interface Route {
  method: 'GET' | 'POST';
  path: string;
  auth: 'user' | 'admin' | 'none';
  body?: Record<string, unknown>;
  /** Query parameters (GET). */
  query?: Record<string, string>;
}

/** Every route with a valid request; the fuzzer breaks it. */
const ROUTES: Route[] = [
  { method: 'POST', path: '/auth/get_user_token', auth: 'none', body: { username: 'alice', password: 'alice-password', expiration_seconds: 60 } },
  { method: 'POST', path: '/auth/get_user_token_api_key', auth: 'none', body: { api_key: 'k', secret: 's', expiration_seconds: 60 } },
  { method: 'GET', path: '/auth/instruments', auth: 'user' },
  { method: 'GET', path: `/auth/instruments/${BTC}`, auth: 'user' },
  { method: 'POST', path: '/orders/insert_order', auth: 'user', body: { username: 'alice', symbol: BTC, price: '49000', quantity: 1, side: 'B', time_in_force: 'GTC', post_only: false } },
  { method: 'POST', path: '/orders/cancel_order', auth: 'user', body: { username: 'alice', order_id: 'O-0000000000000000000000000A' } },
  { method: 'POST', path: '/orders/get_open_orders', auth: 'user', body: { username: 'alice' } },
  { method: 'POST', path: '/orders/cancel_all', auth: 'user', body: { username: 'alice' } },
  { method: 'POST', path: '/settlement/get_mtm_prices', auth: 'none', body: { symbol: BTC, start_time: NOW, end_time: LATER } },
  { method: 'POST', path: '/settlement/get_funding_rates', auth: 'none', body: { symbol: BTC, start_time: NOW, end_time: LATER } },
  { method: 'POST', path: '/candle/historical_candles', auth: 'none', body: { market: BTC, interval: '1m', start_time: NOW, end_time: LATER } },
  { method: 'GET', path: '/risk_manager/risk_snapshot', auth: 'user', query: { username: 'alice' } },
  { method: 'GET', path: '/api/risk-snapshot', auth: 'user' },
  { method: 'POST', path: '/api/api-keys', auth: 'user', body: { username: 'alice', password: 'wrong', totp: null } },
  { method: 'GET', path: '/admin/clock', auth: 'admin' },
  { method: 'POST', path: '/admin/clock/advance', auth: 'admin', body: { seconds: 1 } },
  { method: 'POST', path: '/admin/clock/pause', auth: 'admin' },
  { method: 'POST', path: '/admin/clock/resume', auth: 'admin' },
  { method: 'POST', path: '/admin/clock/speed', auth: 'admin', body: { speed: 1 } },
  { method: 'POST', path: '/admin/users', auth: 'admin', body: { username: 'fuzz', password: 'pw', cash: '100' } },
  { method: 'POST', path: '/admin/cash', auth: 'admin', body: { username: 'alice', amount: '1' } },
  { method: 'POST', path: '/admin/orders/cancel', auth: 'admin', body: { order_id: 'O-0000000000000000000000000A' } },
  { method: 'POST', path: `/admin/instruments/${BTC}/state`, auth: 'admin', body: { state: 'OPEN' } },
  { method: 'GET', path: '/admin/state_hash', auth: 'admin' },
];

/** A JSON value of any kind, including the awkward ones (huge numbers, long and odd strings, nesting). */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(1e308, -1e308, 2 ** 53, 2 ** 64, -1, 0, 0.5, '', 'max', '1e308', '9'.repeat(400), 'NaN', '-0', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999999999-23:59'),
  fc.string({ maxLength: 80 }),
  fc.integer({ min: 1, max: 200 }).map((d) => ({ nested: JSON.parse('['.repeat(d) + ']'.repeat(d)) })),
);

/** Time moves at most a few minutes per fuzzed advance, so the run stays bounded. */
const boundedAdvance = (route: Route, value: unknown) => {
  if (route.path !== '/admin/clock/advance') return true;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : typeof value === 'boolean' ? 1 : NaN;
  return !(n > 600);
};

type Mutation =
  | { kind: 'field'; name: string; value: unknown }
  | { kind: 'drop'; name: string }
  | { kind: 'body'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'deep'; depth: number }
  | { kind: 'auth'; header: string }
  | { kind: 'valid' };

function mutation(route: Route): fc.Arbitrary<Mutation> {
  const names = Object.keys(route.body ?? route.query ?? { x: 1 });
  return fc.oneof(
    fc.record({ kind: fc.constant('field' as const), name: fc.constantFrom(...names, 'extra'), value: anyValue }),
    fc.record({ kind: fc.constant('drop' as const), name: fc.constantFrom(...names) }),
    fc.record({ kind: fc.constant('body' as const), value: anyValue }),
    fc.record({ kind: fc.constant('text' as const), text: fc.string({ maxLength: 200 }) }),
    fc.record({ kind: fc.constant('deep' as const), depth: fc.integer({ min: 30, max: 20_000 }) }),
    fc.record({ kind: fc.constant('auth' as const), header: fc.oneof(fc.constant(''), fc.string({ maxLength: 60 }).map((s) => `Bearer ${s}`)) }),
    fc.constant({ kind: 'valid' as const }),
  );
}

/** The request a mutation makes of a route. */
function request(route: Route, m: Mutation): { url: string; init: RequestInit } {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (route.auth === 'user') Object.assign(headers, alice);
  if (route.auth === 'admin') Object.assign(headers, ADMIN);
  if (m.kind === 'auth') headers.Authorization = m.header;
  const fields: Record<string, unknown> = { ...(route.body ?? route.query ?? {}) };
  if (m.kind === 'field') fields[m.name] = m.value;
  if (m.kind === 'drop') delete fields[m.name];
  let text: string | undefined = route.body === undefined && route.method === 'POST' ? undefined : JSON.stringify(fields);
  if (m.kind === 'body') text = JSON.stringify(m.value) ?? 'null';
  if (m.kind === 'text') text = m.text;
  if (m.kind === 'deep') text = `{"${Object.keys(fields)[0] ?? 'x'}": ${'['.repeat(m.depth)}${']'.repeat(m.depth)}}`;
  const base = route.path.startsWith('/api/') ? c.server.appUrl : c.server.url;
  if (route.method === 'GET') {
    const query = route.query === undefined ? '' : `?${new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')])).toString()}`;
    return { url: base + route.path + query, init: { headers } };
  }
  return { url: base + route.path, init: { method: 'POST', headers, body: text } };
}

/** FastAPI's 422 issue: type, loc (starting with where the field came from), msg, input. */
function expectValidationIssues(detail: unknown): void {
  expect(Array.isArray(detail) && detail.length > 0).toBe(true);
  for (const issue of detail as Msg[]) {
    expect(typeof issue.type).toBe('string');
    expect(typeof issue.msg).toBe('string');
    expect(Array.isArray(issue.loc) && ['body', 'query', 'path'].includes(issue.loc[0])).toBe(true);
    expect('input' in issue).toBe(true);
  }
}

describe('REST fuzzing: every route answers documented shapes, never a 5xx', () => {
  it.each(ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_name, route) => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        mutation(route).filter((m) => (m.kind === 'field' || m.kind === 'body' ? boundedAdvance(route, m.kind === 'field' ? m.value : (m.value as Msg)?.seconds) : true)),
        async (m) => {
          const { url, init } = request(route, m);
          const res = await fetch(url, init);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          expect(res.status).toBeLessThan(500);
          expect([200, 400, 401, 403, 404, 405, 409, 413, 422, 429]).toContain(res.status);
          expect(res.headers.get('content-type')).toMatch(/^application\/json/);
          const body = JSON.parse(await res.text()) as Msg | null;
          if (res.status === 422) expectValidationIssues(body!.detail);
          else if (res.status !== 200) expect(typeof body!.detail).toBe('string');
        },
      ),
      { seed: SEED, numRuns: RUNS_PER_ROUTE },
    );
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(RUNS_PER_ROUTE);
  });
});

/** Valid frames of each websocket request type. */
const ORDER_FRAMES: Record<string, Msg> = {
  a: { t: 'a', u: 'alice', k: '<token>' },
  z: { t: 'z' },
  p: { t: 'p', s: BTC, d: 'B', q: 1, p: '49000', tif: 'GTC', po: false },
  x: { t: 'x', oid: 'O-0000000000000000000000000A' },
  o: { t: 'o' },
  unknown: { t: 'q' },
};
const MD_FRAMES: Record<string, Msg> = {
  login: { type: 'login', username: 'alice', token: '<token>' },
  logout: { type: 'logout' },
  subscribe: { type: 'subscribe', symbol: BTC, level: 'LEVEL_2' },
  // perpsim's extension: the first N levels a side.
  subscribe_depth: { type: 'subscribe', symbol: BTC, level: 'LEVEL_2', depth: 5 },
  unsubscribe: { type: 'unsubscribe', symbol: BTC },
  unknown: { type: 'nope' },
};

type FrameMutation = { kind: 'field'; name: string; value: unknown } | { kind: 'drop'; name: string } | { kind: 'text'; text: string } | { kind: 'deep'; depth: number } | { kind: 'valid' };

function frameMutation(frame: Msg, idKey: string): fc.Arbitrary<FrameMutation> {
  const names = [...Object.keys(frame), idKey];
  return fc.oneof(
    fc.record({ kind: fc.constant('field' as const), name: fc.constantFrom(...names), value: anyValue }),
    fc.record({ kind: fc.constant('drop' as const), name: fc.constantFrom(...names) }),
    fc.record({ kind: fc.constant('text' as const), text: fc.oneof(fc.string({ maxLength: 100 }), fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v))) }),
    fc.record({ kind: fc.constant('deep' as const), depth: fc.integer({ min: 30, max: 20_000 }) }),
    fc.constant({ kind: 'valid' as const }),
  );
}

function frameText(frame: Msg, idKey: string, id: number, token: string, m: FrameMutation): string {
  const f: Msg = { [idKey]: id, ...frame };
  for (const k of ['k', 'token']) if (f[k] === '<token>') f[k] = token;
  if (m.kind === 'field') f[m.name] = m.value;
  if (m.kind === 'drop') delete f[m.name];
  if (m.kind === 'text') return m.text;
  if (m.kind === 'deep') return `{"${idKey}": ${id}, "${Object.keys(frame)[0]}": ${'['.repeat(m.depth)}${']'.repeat(m.depth)}}`;
  return JSON.stringify(f);
}

async function fuzzSocket(path: '/orders' | '/md/ws', frames: Record<string, Msg>, idKey: 'rid' | 'request_id', errKey: 'err' | 'error', msgKey: 'msg' | 'message') {
  // Straight from the directory: the REST fuzzing above has rate-limited alice's password logins.
  const token = (await c.exchange.users.tokenForPassword('alice', 'alice-password', 3600))!;
  for (const [type, frame] of Object.entries(frames)) {
    const socket: TestSocket = await c.socket(path);
    let id = 0;
    const codes = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(frameMutation(frame, idKey), async (m) => {
        // Log in first (a 409 when already logged in), so logged-in paths are fuzzed too.
        const login = path === '/orders' ? { t: 'a', u: 'alice', k: token } : { type: 'login', username: 'alice', token };
        socket.send({ [idKey]: ++id, ...login });
        await socket.next((r) => r[idKey] === id && r.t === undefined && r.type === undefined);
        socket.send(frameText(frame, idKey, ++id, token, m));
        const reply = await socket.next((r) => idKey in r && r.t === undefined && r.type === undefined, 5000);
        expect(socket.isOpen).toBe(true);
        if (errKey in reply) {
          expect(Object.keys(reply).sort()).toEqual([errKey, idKey].sort());
          expect(Object.keys(reply[errKey]).sort()).toEqual(['code', msgKey].sort());
          expect([400, 401, 404, 409, 429]).toContain(reply[errKey].code);
          expect(typeof reply[errKey][msgKey]).toBe('string');
          codes.set(reply[errKey].code, (codes.get(reply[errKey].code) ?? 0) + 1);
        } else {
          const success = path === '/orders' ? ['res', 'o'] : ['result'];
          expect(Object.keys(reply).filter((k) => k !== idKey).length).toBe(1);
          expect(success).toContain(Object.keys(reply).find((k) => k !== idKey));
        }
      }),
      { seed: SEED, numRuns: RUNS_PER_TYPE },
    );
    await socket.close();
    expect(codes.size, `${type}: some frames were refused`).toBeGreaterThan(0);
  }
}

describe('websocket fuzzing: every request type answers an envelope, never code 500', () => {
  it(`order socket: ${Object.keys(ORDER_FRAMES).length} request types × ${RUNS_PER_TYPE} frames`, async () => {
    await fuzzSocket('/orders', ORDER_FRAMES, 'rid', 'err', 'msg');
  }, 60_000);

  it(`market-data socket: ${Object.keys(MD_FRAMES).length} request types × ${RUNS_PER_TYPE} frames`, async () => {
    await fuzzSocket('/md/ws', MD_FRAMES, 'request_id', 'error', 'message');
  }, 60_000);
});
