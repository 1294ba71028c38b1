import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { Exchange } from '../../../src/api/exchange.ts';
import { createRestApp, type RestParts } from '../../../src/api/rest/app.ts';
import { parseScenario } from '../../../src/scenario/load.ts';
import type { OrderFeed } from '../../../src/wire/order.ts';

const EMPTY = fileURLToPath(new URL('../../../scenarios/empty.json', import.meta.url));

export const ADMIN = { Authorization: 'Bearer test-admin' };

/** A manual-clock exchange on the empty scenario, its REST app and request helpers. */
export async function restFixture(options: { wallNow?: () => number; parts?: RestParts } = {}) {
  const scenario = parseScenario(JSON.parse(readFileSync(EMPTY, 'utf8')));
  const exchange = await Exchange.create(scenario, { manual: true, scryptCost: 1024, adminToken: 'test-admin', wallNow: options.wallNow });
  const app: Hono = createRestApp(exchange, options.parts);
  const feeds: { user: string; feed: OrderFeed }[] = [];
  exchange.venue.subscribe({ orderFeed: (userId, feed) => feeds.push({ user: exchange.venue.accounts[userId]!.username, feed }) });

  /** POSTs `body` (JSON-encoded unless a string) with a JSON content type. */
  const post = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.request(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });

  /** A token for a scenario user (password "<name>-password"). */
  async function token(username = 'alice', expiration_seconds = 3600): Promise<string> {
    const res = await post('/auth/get_user_token', { username, password: `${username}-password`, expiration_seconds });
    if (res.status !== 200) throw new Error(`token for ${username}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { token: string }).token;
  }
  const bearer = async (username = 'alice') => ({ Authorization: `Bearer ${await token(username)}` });

  return { exchange, app, feeds, post, get, token, bearer };
}

export type RestFixture = Awaited<ReturnType<typeof restFixture>>;

/** The JSON body of a response, typed loosely for assertions. */
export async function json(res: Response): Promise<any> {
  return res.json();
}

/** A valid insert_order body for alice, with overrides. */
export function order(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { username: 'alice', symbol: 'BTCUSD-PERP', price: '49000', quantity: 1, side: 'B', time_in_force: 'GTC', post_only: false, ...overrides };
}
