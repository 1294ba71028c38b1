import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/api/server.ts';
import { exchangeForDataDir } from '../../src/cli/data-dir.ts';
import { forkCommand } from '../../src/cli/fork-command.ts';
import { tempDir } from '../cli/cli-helpers.ts';
import { TestSocket, type Msg } from '../api/ws/helpers.ts';

/**
 * `serve --data-dir`: every accepted command is journaled before it is answered, and a restart
 * on the same directory rebuilds the exact state: same state hash, ids continued, credentials
 * (hashed) and tokens still valid.
 */
const ADMIN = { Authorization: 'Bearer journal-admin' };
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(dir: string): Promise<{ server: RunningServer; restored: number; stateHash: () => string; nowNs: () => bigint }> {
  const d = await exchangeForDataDir(dir, { scenario: 'empty' }, { manual: true, scryptCost: 1024, adminToken: 'journal-admin' });
  const server = await startServer(d.exchange, { port: 0, heartbeatMs: 60_000 });
  return { server, restored: d.restored, stateHash: () => d.exchange.venue.stateHash(), nowNs: () => d.exchange.clock.nowNs };
}

const json = async (res: Response): Promise<Msg> => (await res.json()) as Msg;

function client(url: string) {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url + path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const token = async (username: string, password = `${username}-password`) =>
    (await json(await post('/auth/get_user_token', { username, password, expiration_seconds: 3600 }))).token as string;
  const insert = async (auth: string, username: string, side: 'B' | 'S', price: string, quantity = 1) =>
    (await json(await post('/orders/insert_order', { username, symbol: 'BTCUSD-PERP', price, quantity, side, time_in_force: 'GTC', post_only: false }, { Authorization: `Bearer ${auth}` }))).order_id as string;
  return { post, token, insert };
}

describe('the journal restores the exact state', () => {
  it('after a restart: same state hash, ids continue, users, API keys and tokens survive', async () => {
    const { dir, remove } = tempDir('perpsim-journal-');
    cleanups.push(remove);
    const a = await serve(dir);
    expect(a.restored).toBe(0);
    const c = client(a.server.url);
    const alice = await c.token('alice');
    const bob = await c.token('bob');
    await c.insert(alice, 'alice', 'B', '49990', 5);
    await c.insert(bob, 'bob', 'S', '49990', 2); // a trade
    const resting = await c.insert(alice, 'alice', 'B', '49000', 3);
    await c.post('/orders/cancel_order', { username: 'alice', order_id: resting }, { Authorization: `Bearer ${alice}` });
    const ws = await TestSocket.open(`${a.server.wsUrl}/orders`);
    await ws.request({ rid: 1, t: 'a', u: 'bob', k: bob });
    const wsOrder = (await ws.request({ rid: 2, t: 'p', s: 'BTCUSD-PERP', d: 'S', q: 4, p: '50010', tif: 'GTC', po: false })).res.oid as string;
    await ws.close();
    expect((await c.post('/admin/users', { username: 'carol', password: 'carol-pw', cash: '5000' }, ADMIN)).status).toBe(200);
    await c.post('/admin/cash', { username: 'bob', amount: '-12.5' }, ADMIN);
    expect((await c.post('/admin/clock/advance', { seconds: 8 * 3600 + 30 }, ADMIN)).status).toBe(200); // funding
    const carol = await c.token('carol', 'carol-pw');
    const key = await json(await fetch(`${a.server.url}/api/api-keys`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${carol}` }, body: JSON.stringify({ username: 'carol', password: 'carol-pw' }) }));
    const hash = a.stateHash();
    await a.server.close();

    // Secrets are stored hashed: neither the password nor the API secret is in the journal.
    const text = readFileSync(join(dir, 'journal.jsonl'), 'utf8');
    expect(text).not.toContain('carol-pw');
    expect(text).not.toContain(key.secret);
    expect(text).not.toContain(alice);

    const b = await serve(dir);
    cleanups.push(() => b.server.close());
    expect(b.restored).toBeGreaterThan(8);
    expect(b.stateHash()).toBe(hash);
    const c2 = client(b.server.url);
    const open = await json(await c2.post('/orders/get_open_orders', { username: 'bob' }, { Authorization: `Bearer ${bob}` })); // the old token
    expect(open.orders.map((o: Msg) => o.order_id)).toEqual([wsOrder]);
    expect((await c2.post('/auth/get_user_token', { username: 'carol', password: 'carol-pw', expiration_seconds: 60 })).status).toBe(200);
    expect((await c2.post('/auth/get_user_token_api_key', { api_key: key.api_key, secret: key.secret, expiration_seconds: 60 })).status).toBe(200);
    const next = await c2.insert(alice, 'alice', 'B', '49000');
    expect(next > wsOrder).toBe(true); // ids continue: no reuse of O-…0001
  }, 60_000);

  it('perpsim fork rebuilds the venue at a journaled instant, and the fork serves on from there', async () => {
    const { dir, remove } = tempDir('perpsim-journal-');
    const fork = tempDir('perpsim-fork-');
    cleanups.push(remove, fork.remove);
    const a = await serve(dir);
    const c = client(a.server.url);
    const alice = await c.token('alice');
    const bob = await c.token('bob');
    await c.insert(alice, 'alice', 'B', '49990', 5);
    await c.insert(bob, 'bob', 'S', '49990', 2);
    await c.post('/admin/clock/advance', { seconds: 60 }, ADMIN);
    const atNs = a.nowNs();
    const hashAt = a.stateHash();
    await c.post('/admin/clock/advance', { seconds: 30 }, ADMIN);
    const later = await c.insert(bob, 'bob', 'S', '49990', 3); // after the fork point
    await c.post('/admin/clock/advance', { seconds: 8 * 3600 }, ADMIN);
    await a.server.close();

    const lines: string[] = [];
    expect(await forkCommand(dir, { at: String(atNs), out: fork.dir }, (l) => lines.push(l))).toBe(0);
    expect(lines.at(-1)).toBe(`state_hash: ${hashAt}`);
    const b = await serve(fork.dir);
    cleanups.push(() => b.server.close());
    expect(b.stateHash()).toBe(hashAt);
    expect(b.nowNs()).toBe(atNs);
    // The same command at the same instant after the fork gets the same id: the fork is the original's past.
    await client(b.server.url).post('/admin/clock/advance', { seconds: 30 }, ADMIN);
    expect(await client(b.server.url).insert(bob, 'bob', 'S', '49990', 3)).toBe(later);
  }, 60_000);
});
