import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { BIN, tempDir } from '../cli/cli-helpers.ts';

/**
 * kill -9 mid-load loses nothing acknowledged: a `perpsim serve --data-dir` child takes orders
 * over REST (4 concurrent loops) and the order websocket (pipelined), is SIGKILLed while
 * requests are in flight, and restarts on the same directory. Every order id it answered must
 * be open again, and the next id must be new — with snapshots written during the load, so the
 * restart starts from the newest one and replays only the journal after it. Bounded: the kill comes after ACKS_BEFORE_KILL
 * acknowledgements.
 */
const ACKS_BEFORE_KILL = 400;
/** Snapshots are written mid-load (every this many journal entries); the restart starts from one. */
const SNAPSHOT_EVERY = 100;
const ADMIN = 'crash-admin';

const { dir, remove } = tempDir('perpsim-crash-');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  remove();
});

/** Starts the server; resolves with its REST URL once the banner is out. */
function startChild(): Promise<{ child: ChildProcess; url: string; banner: () => string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--scenario', 'empty', '--port', '0', '--manual', '--admin-token', ADMIN, '--data-dir', dir, '--snapshot-entries', String(SNAPSHOT_EVERY)], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d.toString();
      const m = /REST: +(http:\S+)/.exec(out);
      if (m && out.includes('snapshots:')) resolve({ child, url: m[1]!, banner: () => out });
    });
    child.stderr!.on('data', (d) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

const post = async (url: string, path: string, body: unknown, auth?: string) => {
  const res = await fetch(url + path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: `Bearer ${auth}` } : {}) }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe('a journaled server killed with SIGKILL', () => {
  it(`keeps every acknowledged order (${ACKS_BEFORE_KILL}+ acks, REST and websocket)`, async () => {
    const first = await startChild();
    const url = first.url;
    expect(first.banner()).toContain('(new)');
    expect((await post(url, '/admin/cash', { username: 'alice', amount: '1000000000' }, ADMIN)).status).toBe(200);
    const token = (await post(url, '/auth/get_user_token', { username: 'alice', password: 'alice-password', expiration_seconds: 3600 })).body.token as string;

    const acked = new Set<string>();
    let price = 49_999;
    const nextPrice = () => String(45_500 + (price-- % 4000)); // non-crossing bids: everything rests
    let killed = false;
    const restLoop = async () => {
      while (!killed) {
        try {
          const r = await post(url, '/orders/insert_order', { username: 'alice', symbol: 'BTCUSD-PERP', price: nextPrice(), quantity: 1, side: 'B', time_in_force: 'GTC', post_only: false }, token);
          if (r.status === 200) acked.add(r.body.order_id);
        } catch {
          return; // the server is gone
        }
      }
    };
    const ws = new WebSocket(`${url.replace('http', 'ws')}/orders`);
    await new Promise((resolve) => ws.once('open', resolve));
    let rid = 0;
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.rid === 0 && m.res?.li) {
        for (let i = 0; i < 64; i++) ws.send(JSON.stringify({ rid: ++rid, t: 'p', s: 'BTCUSD-PERP', d: 'B', q: 1, p: nextPrice(), tif: 'GTC', po: false }));
      } else if (m.res?.oid) {
        acked.add(m.res.oid);
        if (!killed) ws.send(JSON.stringify({ rid: ++rid, t: 'p', s: 'BTCUSD-PERP', d: 'B', q: 1, p: nextPrice(), tif: 'GTC', po: false }));
      }
    });
    ws.on('error', () => {});
    ws.send(JSON.stringify({ rid: 0, t: 'a', u: 'alice', k: token }));
    const loops = [restLoop(), restLoop(), restLoop(), restLoop()];

    const exited = new Promise((resolve) => first.child.once('exit', resolve)); // before the kill: it may exit at once
    while (acked.size < ACKS_BEFORE_KILL && first.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(first.child.exitCode).toBe(null); // alive until killed
    first.child.kill('SIGKILL'); // requests in flight on every loop
    killed = true;
    await Promise.all(loops);
    await exited;
    ws.terminate();
    const ackedAtKill = [...acked];

    const second = await startChild();
    expect(second.banner()).toMatch(/restored \d+ entries/);
    expect(second.banner()).toMatch(/restored from snapshot-\d+\.json \(\d+ entries\) \+ \d+/); // the snapshot, then only the journal after it
    const open = await post(second.url, '/orders/get_open_orders', { username: 'alice' }, token); // the token survived too
    expect(open.status).toBe(200);
    const ids = new Set((open.body.orders as { order_id: string }[]).map((o) => o.order_id));
    const missing = ackedAtKill.filter((id) => !ids.has(id));
    expect(missing).toEqual([]);
    expect(ids.size).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL);
    const next = await post(second.url, '/orders/insert_order', { username: 'alice', symbol: 'BTCUSD-PERP', price: '45000', quantity: 1, side: 'B', time_in_force: 'GTC', post_only: false }, token);
    expect(ids.has(next.body.order_id)).toBe(false);
    expect(next.body.order_id > [...ids].sort().at(-1)!).toBe(true);
    const stopped = new Promise((resolve) => second.child.once('exit', resolve));
    second.child.kill('SIGTERM');
    await stopped;
  }, 120_000); // two node processes start under a loaded CI machine; normally ~10 s
});
