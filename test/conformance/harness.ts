import { expect } from 'vitest';
import { Exchange, type ExchangeOptions } from '../../src/api/exchange.ts';
import { startServer, type RunningServer } from '../../src/api/server.ts';
import { emptyScenario, TestSocket, type Msg } from '../api/ws/helpers.ts';

/**
 * The conformance suite's server: the `empty` scenario (alice and bob, flat index, no agents)
 * behind startServer on 127.0.0.1:0, spoken to with raw `fetch` and raw `ws` only (TestSocket
 * is a buffer over a plain `ws` client), exactly as a client written for the real venue would.
 */

export { TestSocket, type Msg };

export const ADMIN_TOKEN = 'conformance-admin';
export const ADMIN = { Authorization: `Bearer ${ADMIN_TOKEN}` };
/** scenarios/empty.json starts at 2026-01-01T00:00:00Z. */
export const START_SEC = 1_767_225_600;
export const START_NS = 1_767_225_600_000_000_000n;
export const BTC = 'BTCUSD-PERP';
export const ETH = 'ETHUSD-PERP';
export type User = 'alice' | 'bob';

/** A fetch Response whose JSON body the tests inspect field by field (shapes are asserted, not typed). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonResponse = Omit<Response, 'json'> & { json(): Promise<any> };

export interface Conformance {
  exchange: Exchange;
  server: RunningServer;
  /** POST with a JSON body (a string is sent as is) and Content-Type application/json. */
  post(path: string, body?: unknown, headers?: Record<string, string>, base?: 'url' | 'appUrl'): Promise<JsonResponse>;
  get(path: string, headers?: Record<string, string>, base?: 'url' | 'appUrl'): Promise<JsonResponse>;
  /** A fresh token for a scenario user from POST /auth/get_user_token. */
  token(user?: string, expirationSeconds?: number): Promise<string>;
  /** `{Authorization: "Bearer <token>"}` for a user. */
  bearer(user?: string): Promise<Record<string, string>>;
  /** A raw socket at `/orders` or `/md/ws` (closed by `close`). */
  socket(path: '/orders' | '/md/ws'): Promise<TestSocket>;
  /** An order socket logged in as `user` with `a`. */
  orderSocket(user?: User): Promise<TestSocket>;
  /** A market-data socket logged in as `user`. */
  mdSocket(user?: User): Promise<TestSocket>;
  /** A fresh request id for a socket request. */
  rid(): number;
  /** Advances sim time through the admin API. */
  advance(seconds: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts the server (manual clock unless `exchange.manual` is false) and returns the client side. */
export async function startConformance(options: { exchange?: ExchangeOptions; heartbeatMs?: number; appPort?: number } = {}): Promise<Conformance> {
  const exchange = await Exchange.create(emptyScenario(), { manual: true, scryptCost: 1024, adminToken: ADMIN_TOKEN, ...options.exchange });
  const server = await startServer(exchange, { host: '127.0.0.1', port: 0, heartbeatMs: options.heartbeatMs ?? 60_000, appPort: options.appPort });
  const sockets: TestSocket[] = [];
  let nextRid = 1;
  const tokens = new Map<string, string>();

  const post = (path: string, body?: unknown, headers: Record<string, string> = {}, base: 'url' | 'appUrl' = 'url') =>
    fetch(server[base] + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const get = (path: string, headers: Record<string, string> = {}, base: 'url' | 'appUrl' = 'url') => fetch(server[base] + path, { headers });

  const c: Conformance = {
    exchange,
    server,
    post,
    get,
    async token(user = 'alice', expirationSeconds = 3600) {
      const res = await post('/auth/get_user_token', { username: user, password: `${user}-password`, expiration_seconds: expirationSeconds });
      if (res.status !== 200) throw new Error(`token for ${user}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { token: string }).token;
    },
    async bearer(user = 'alice') {
      let token = tokens.get(user);
      if (token === undefined) tokens.set(user, (token = await c.token(user)));
      return { Authorization: `Bearer ${token}` };
    },
    async socket(path) {
      const s = await TestSocket.open(server.wsUrl + path);
      sockets.push(s);
      return s;
    },
    async orderSocket(user = 'alice') {
      const s = await c.socket('/orders');
      const token = (await c.bearer(user)).Authorization!.slice('Bearer '.length);
      const reply = await s.request({ rid: c.rid(), t: 'a', u: user, k: token });
      if (reply.res?.li !== user) throw new Error(`order login failed: ${JSON.stringify(reply)}`);
      return s;
    },
    async mdSocket(user = 'alice') {
      const s = await c.socket('/md/ws');
      const token = (await c.bearer(user)).Authorization!.slice('Bearer '.length);
      const reply = await s.request({ request_id: c.rid(), type: 'login', username: user, token }, 'request_id');
      if (reply.result?.logged_in !== user) throw new Error(`market-data login failed: ${JSON.stringify(reply)}`);
      return s;
    },
    rid: () => nextRid++,
    async advance(seconds) {
      const res = await post('/admin/clock/advance', { seconds }, ADMIN);
      if (res.status !== 200) throw new Error(`advance: ${res.status} ${await res.text()}`);
    },
    async close() {
      await Promise.all(sockets.map((s) => s.close()));
      await server.close();
    },
  };
  return c;
}

/**
 * Every non-heartbeat message that reached `s` before a round trip on it, oldest first. The
 * round trip is a request of an unknown type (answered 400 on both sockets, logged in or not);
 * the server writes what it pushes during a command before it reads the next request, so
 * anything caused by earlier requests — on this socket or another — is in the buffer by then.
 */
export async function pending(s: TestSocket, idKey: 'rid' | 'request_id'): Promise<Msg[]> {
  const id = -(++barriers);
  const reply = await s.request(idKey === 'rid' ? { rid: id, t: 'barrier' } : { request_id: id, type: 'barrier' }, idKey);
  expect(reply[idKey === 'rid' ? 'err' : 'error']?.code).toBe(400);
  return s.drain(0);
}
let barriers = 0;

/** A valid insert_order body for `username`, with overrides. */
export function insertOrder(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { username: 'alice', symbol: BTC, price: '49000', quantity: 1, side: 'B', time_in_force: 'GTC', post_only: false, ...overrides };
}

/** A place-order request of the order websocket. */
export function placeRequest(rid: number, d: 'B' | 'S', q: number, p: string, extra: Msg = {}): Msg {
  return { rid, t: 'p', s: BTC, d, q, p, tif: 'GTC', po: false, ...extra };
}

// --- shapes -------------------------------------------------------------------------------

/**
 * The types a field of the document can have. `integer` is a JSON number with no fraction;
 * `decimal` a string holding a minimal decimal (decisions.md: "1.325", not "1.3250");
 * `int-string` a string holding an integer (volumes, quantities in risk views); `datetime` RFC
 * 3339 UTC with nine fractional digits (decisions.md); `uuid` an RFC 4122 text.
 */
export type FieldType = 'string' | 'decimal' | 'int-string' | 'integer' | 'boolean' | 'datetime' | 'uuid' | 'array' | 'object' | 'null';

const DECIMAL = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;
const INT_STRING = /^-?(0|[1-9]\d*)$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** `O-` (or `L-`) + 26 ULID-style characters (Crockford base32). */
export const ORDER_ID = /^[OL]-[0-9A-HJKMNP-TV-Z]{26}$/;

function hasType(value: unknown, type: FieldType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'decimal':
      return typeof value === 'string' && DECIMAL.test(value);
    case 'int-string':
      return typeof value === 'string' && INT_STRING.test(value);
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'datetime':
      return typeof value === 'string' && DATETIME.test(value);
    case 'uuid':
      return typeof value === 'string' && UUID.test(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'null':
      return value === null;
  }
}

/** Asserts `value` has exactly the keys of `shape`, each of its type. */
export function expectShape(value: unknown, shape: Record<string, FieldType>): void {
  expect(hasType(value, 'object'), `not an object: ${JSON.stringify(value)}`).toBe(true);
  const obj = value as Record<string, unknown>;
  expect(Object.keys(obj).sort()).toEqual(Object.keys(shape).sort());
  for (const [name, type] of Object.entries(shape)) {
    expect(hasType(obj[name], type), `${name} should be ${type}, got ${JSON.stringify(obj[name])}`).toBe(true);
  }
}

/** The Order table (REST form). */
export const REST_ORDER: Record<string, FieldType> = {
  order_id: 'string',
  username: 'string',
  symbol: 'string',
  price: 'decimal',
  quantity: 'integer',
  traded_quantity: 'integer',
  average_traded_price: 'decimal',
  remaining_quantity: 'integer',
  state: 'string',
  side: 'string',
  time_in_force: 'string',
  is_liquidation: 'boolean',
  insert_time: 'datetime',
  insert_epoch_seconds: 'integer',
  insert_epoch_nanos: 'integer',
};

/** The Order table (websocket form). */
export const WS_ORDER: Record<string, FieldType> = {
  oid: 'string',
  u: 'string',
  s: 'string',
  p: 'decimal',
  q: 'integer',
  xq: 'integer',
  rq: 'integer',
  o: 'string',
  d: 'string',
  tif: 'string',
  liq: 'boolean',
  ts: 'integer',
  tn: 'integer',
};

/** The Instrument table. */
export const INSTRUMENT: Record<string, FieldType> = {
  symbol: 'string',
  tick_size: 'decimal',
  base_currency: 'string',
  multiplier: 'integer',
  minimum_trade_quantity: 'integer',
  description: 'string',
  product_id: 'string',
  state: 'string',
  price_scale: 'integer',
};

/** The order states of decisions.md. */
export const ORDER_STATES = ['PENDING', 'NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'REJECTED', 'EXPIRED', 'REPLACED', 'DONE_FOR_DAY'];

// --- errors -------------------------------------------------------------------------------

/**
 * Asserts a 422 with the FastAPI body `{"detail": [{type, loc, msg, input, ctx?}]}` whose
 * issues are exactly `expected` (loc and type each), in order.
 */
export async function expect422(res: Response, expected: [loc: (string | number)[], type: string][]): Promise<Msg[]> {
  expect(res.status).toBe(422);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await res.json()) as Msg;
  expect(Object.keys(body)).toEqual(['detail']);
  expect(Array.isArray(body.detail)).toBe(true);
  for (const issue of body.detail as Msg[]) {
    expect(Object.keys(issue).filter((k) => k !== 'ctx').sort()).toEqual(['input', 'loc', 'msg', 'type']);
    expect(typeof issue.msg).toBe('string');
    expect(issue.msg.length).toBeGreaterThan(0);
  }
  expect((body.detail as Msg[]).map((i) => [i.loc, i.type])).toEqual(expected);
  return body.detail as Msg[];
}

/** Asserts a status with the FastAPI body `{"detail": "<message>"}`; returns the message. */
export async function expectDetail(res: Response, status: number): Promise<string> {
  expect(res.status).toBe(status);
  const body = (await res.json()) as Msg;
  expect(Object.keys(body)).toEqual(['detail']);
  expect(typeof body.detail).toBe('string');
  return body.detail as string;
}

/** Asserts an order-socket error envelope `{rid, err: {code, msg}}` with `code`. */
export function expectOrderError(reply: Msg, rid: number | null, code: number): void {
  expect(Object.keys(reply).sort()).toEqual(['err', 'rid']);
  expect(reply.rid).toBe(rid);
  expectShape(reply.err, { code: 'integer', msg: 'string' });
  expect(reply.err.code).toBe(code);
}

/** Asserts a market-data error envelope `{request_id, error: {code, message}}` with `code`. */
export function expectMdError(reply: Msg, requestId: number | null, code: number): void {
  expect(Object.keys(reply).sort()).toEqual(['error', 'request_id']);
  expect(reply.request_id).toBe(requestId);
  expectShape(reply.error, { code: 'integer', message: 'string' });
  expect(reply.error.code).toBe(code);
}
