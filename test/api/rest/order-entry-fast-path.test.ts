import { Agent, createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Exchange } from '../../../src/api/exchange.ts';
import { createRestApp } from '../../../src/api/rest/app.ts';
import { withOrderEntryFastPath } from '../../../src/api/rest/order-entry-fast-path.ts';
import { startServer, type RunningServer } from '../../../src/api/server.ts';
import { loadScenario } from '../../../src/scenario/load.ts';

/**
 * The order-entry fast path (src/api/rest/order-entry-fast-path.ts) answers exactly as the Hono
 * routes do. Two twin exchanges (same scenario, manual clock: the same order ids) get the same
 * requests, one over a real socket through the server (fast path), the other through the Hono
 * app in-process; status, body and the headers a client reads must be equal. The socket side
 * uses one keep-alive connection, so the per-connection token cache sees the header change
 * between requests (another user, a bad token, none).
 */

interface Answer {
  status: number;
  body: string;
  contentType: string | null;
  challenge: string | null;
}

interface Twin {
  exchange: Exchange;
  tokens: Record<'alice' | 'bob', string>;
}

async function twin(wallNow?: () => number): Promise<Twin> {
  const exchange = await Exchange.create(loadScenario('empty'), { manual: true, scryptCost: 1024, wallNow });
  const tokens = {
    alice: (await exchange.users.tokenForPassword('alice', 'alice-password', 3600))!,
    bob: (await exchange.users.tokenForPassword('bob', 'bob-password', 3600))!,
  };
  return { exchange, tokens };
}

/** One POST over a keep-alive agent (one socket: maxSockets 1). */
function post(server: RunningServer, agent: Agent, path: string, headers: Record<string, string>, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method: 'POST', agent, headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          body: Buffer.concat(chunks).toString('utf8'),
          contentType: res.headers['content-type'] ?? null,
          challenge: (res.headers['www-authenticate'] as string | undefined) ?? null,
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A request as the property draws it; tokens are named, and each twin puts in its own. */
const auth = fc.constantFrom('alice', 'alice', 'alice', 'bob', 'bare-alice', 'bad', 'none', 'bearer-alone', 'basic');
const value = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }));
const validOrder = fc.record({
  username: fc.constantFrom('alice', 'alice', 'bob'),
  symbol: fc.constantFrom('ETHUSD-PERP', 'ETHUSD-PERP', 'BTCUSD-PERP', 'NOPE-PERP', 'btc'),
  price: fc.constantFrom('3000', '3000', '2990.5', '50000', '0', '1e5', 'x'),
  quantity: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: -2, max: 0 }), fc.constant('3'), fc.constant(2.5)),
  side: fc.constantFrom('B', 'B', 'S', 'X'),
  time_in_force: fc.constantFrom('GTC', 'GTC', 'IOC', 'FOK'),
  post_only: fc.oneof(fc.boolean(), fc.constant('yes')),
});
const body = fc.oneof(
  { arbitrary: validOrder.map((o) => JSON.stringify(o)), weight: 6 },
  fc.tuple(validOrder, fc.constantFrom('username', 'symbol', 'price', 'quantity', 'side')).map(([o, drop]) => JSON.stringify({ ...o, [drop]: undefined })),
  fc.tuple(validOrder, fc.string({ maxLength: 6 }), value).map(([o, k, v]) => JSON.stringify({ ...o, [k]: v })),
  fc.record({ username: fc.constantFrom('alice', 'bob'), order_id: fc.oneof(fc.constantFrom('O-01KDVDNA000000000000000001', 'nope'), fc.integer()) }).map((o) => JSON.stringify(o)),
  fc.constantFrom('', '{', '[1,2]', 'null', '"text"', '{"username": NaN}', '\ufeff{"username":"alice"}', '{"a":' + '['.repeat(40) + ']'.repeat(40) + '}'),
  fc.constant('\xff\xfe'),
);
const requestArb = fc.record({
  path: fc.constantFrom('/orders/insert_order', '/orders/cancel_order'),
  auth,
  contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'none'),
  body,
});
type Drawn = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

/** Orders that rest (run first), so the venues' open orders are a real comparison. */
const RESTING: Drawn[] = (['alice', 'bob'] as const).flatMap((u) =>
  [['B', '2990.5'], ['S', '3010']].map(([side, price]) => ({
    path: '/orders/insert_order',
    auth: u,
    contentType: 'application/json',
    body: JSON.stringify({ username: u, symbol: 'ETHUSD-PERP', price, quantity: 2, side, time_in_force: 'GTC', post_only: false }),
  })),
);

function headersOf(r: Drawn, t: Twin): Record<string, string> {
  const headers: Record<string, string> = {};
  if (r.contentType !== 'none') headers['content-type'] = r.contentType;
  const a = {
    alice: `Bearer ${t.tokens.alice}`,
    bob: `bearer  ${t.tokens.bob}`,
    'bare-alice': t.tokens.alice,
    bad: 'Bearer not-a-token',
    'bearer-alone': 'Bearer',
    basic: 'Basic YWxpY2U6eA==',
    none: undefined,
  }[r.auth];
  if (a !== undefined) headers.authorization = a;
  return headers;
}

const bytesOf = (text: string): Buffer => (text === '\xff\xfe' ? Buffer.from([0xff, 0xfe]) : Buffer.from(text, 'utf8'));

describe('REST order entry on the fast path', () => {
  let fast: Twin;
  let hono: Twin;
  let server: RunningServer;
  let agent: Agent;

  beforeAll(async () => {
    fast = await twin();
    hono = await twin();
    server = await startServer(fast.exchange, { port: 0 });
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
  });
  afterAll(async () => {
    agent.destroy();
    await server.close();
  });

  it('answers every drawn request exactly as the Hono route does, with the same venue effect', async () => {
    const app = createRestApp(hono.exchange);
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const got = await post(server, agent, r.path, headersOf(r, fast), bytesOf(r.body));
        const res = await app.request(r.path, { method: 'POST', headers: headersOf(r, hono), body: bytesOf(r.body) });
        const want: Answer = { status: res.status, body: await res.text(), contentType: res.headers.get('content-type'), challenge: res.headers.get('www-authenticate') };
        expect(got).toEqual(want);
      }),
      { seed: 20261123, numRuns: 300, examples: RESTING.map((r) => [r]) },
    );
    // Both venues saw the same commands: the same open orders, in the same order.
    const open = (t: Twin) => ['alice', 'bob'].map((u) => t.exchange.venue.openOrders(t.exchange.venue.account(u)!).map((o) => `${o.id} ${o.priceText} ${o.qtyLots}`));
    expect(open(fast)).toEqual(open(hono));
    expect(open(fast).flat().length).toBeGreaterThan(0);
  });

  it('sends other paths, query strings and methods on to Hono', async () => {
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${fast.tokens.alice}` };
    const order = Buffer.from(JSON.stringify({ username: 'alice', symbol: 'ETHUSD-PERP', price: '3000', quantity: 1, side: 'B', time_in_force: 'GTC', post_only: false }));
    expect((await post(server, agent, '/orders/insert_order?x=1', headers, order)).status).toBe(200);
    expect((await post(server, agent, '/orders/insert_order/', headers, order)).status).toBe(404);
    expect(JSON.parse((await post(server, agent, '/orders/get_open_orders', headers, Buffer.from('{"username":"alice"}'))).body).orders.length).toBeGreaterThan(0);
  });

  it('refuses a declared oversize body with 413 before reading it', async () => {
    const big = Buffer.alloc(70 * 1024, 0x20);
    const got = await post(server, agent, '/orders/insert_order', { authorization: `Bearer ${fast.tokens.alice}` }, big);
    expect(got).toEqual({ status: 413, body: '{"detail":"Request body too large"}', contentType: 'application/json', challenge: null });
  });
});

describe('the fast path itself', () => {
  it('serves the two order-entry paths without the fallback, and passes everything else to it', async () => {
    const t = await twin();
    const passed: string[] = [];
    const server = createServer(
      withOrderEntryFastPath(t.exchange, (req: IncomingMessage, res) => {
        passed.push(`${req.method} ${req.url}`);
        res.writeHead(418).end();
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const at = { url } as RunningServer;
    try {
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${t.tokens.alice}` };
      const order = Buffer.from(JSON.stringify({ username: 'alice', symbol: 'ETHUSD-PERP', price: '3000', quantity: 1, side: 'B', time_in_force: 'GTC', post_only: false }));
      const placed = await post(at, agent, '/orders/insert_order', headers, order);
      expect(placed.status).toBe(200);
      expect(JSON.parse(placed.body).order_id).toBe(t.exchange.venue.openOrders(t.exchange.venue.account('alice')!)[0]!.id);
      expect((await post(at, agent, '/orders/cancel_order', headers, Buffer.from('{"username":"alice","order_id":"x"}'))).body).toBe('{}');
      expect(passed).toEqual([]);
      for (const path of ['/orders/insert_order?a=1', '/orders/get_open_orders', '/orders/insert%5Forder']) expect((await post(at, agent, path, headers, order)).status).toBe(418);
      expect(passed).toEqual(['POST /orders/insert_order?a=1', 'POST /orders/get_open_orders', 'POST /orders/insert%5Forder']);
    } finally {
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the per-connection token cache', () => {
  it('still refuses a token that expired, on the connection that used it a moment ago', async () => {
    let nowMs = 1_000_000;
    const t = await twin(() => nowMs);
    const server = await startServer(t.exchange, { port: 0 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${t.tokens.alice}` };
      const cancel = Buffer.from('{"username":"alice","order_id":"nope"}');
      expect((await post(server, agent, '/orders/cancel_order', headers, cancel)).status).toBe(200);
      expect((await post(server, agent, '/orders/cancel_order', headers, cancel)).status).toBe(200);
      nowMs += 3600 * 1000; // the token's lifetime
      const expired = await post(server, agent, '/orders/cancel_order', headers, cancel);
      expect(expired).toEqual({ status: 401, body: '{"detail":"Invalid or expired token"}', contentType: 'application/json', challenge: 'Bearer' });
    } finally {
      agent.destroy();
      await server.close();
    }
  });
});
