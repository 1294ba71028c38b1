import { fdatasync, writeSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Exchange } from '../../src/api/exchange.ts';
import { JournalFile, type JournalIo } from '../../src/api/journal/journal-file.ts';
import { JournalStoppedError } from '../../src/api/journal/output-gate.ts';
import { startServer, type RunningServer } from '../../src/api/server.ts';
import { tempDir } from '../cli/cli-helpers.ts';
import { emptyScenario, place, TestSocket, type Msg } from '../api/ws/helpers.ts';

/**
 * The durability gate on the wire: while a group of journal entries is being synced, nothing
 * that depends on it leaves the server — not the order's ack, not its feeds, not the trade's
 * market data, not a REST answer — and it all arrives once the sync completes; the messages
 * each socket gets, and their order, are exactly those of a server without a journal. The sync
 * is the test's: held until released, or delayed at random.
 */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Real writes and syncs, but a sync's completion can be held by the test. */
class HeldSync implements JournalIo {
  holding = false;
  /** Completions of syncs started while holding. */
  readonly held: (() => void)[] = [];
  /** When set, every sync completes after a pseudo-random 0–3 ms (seeded). */
  jitter: (() => number) | undefined;

  write(fd: number, bytes: Buffer, length: number, position: number): number {
    return writeSync(fd, bytes, 0, length, position);
  }

  fdatasync(fd: number, done: (err: Error | null) => void): void {
    const complete = () => fdatasync(fd, done);
    if (this.holding) this.held.push(complete);
    else if (this.jitter !== undefined) setTimeout(complete, this.jitter());
    else complete();
  }

  release(): void {
    this.holding = false;
    for (const c of this.held.splice(0)) c();
  }
}

interface Served {
  exchange: Exchange;
  server: RunningServer;
  journal: JournalFile | undefined;
  token(user: string): Promise<string>;
}

async function serve(io: JournalIo | undefined): Promise<Served> {
  const exchange = await Exchange.create(emptyScenario(), { manual: true, scryptCost: 1024 });
  let journal: JournalFile | undefined;
  if (io !== undefined) {
    const { dir, remove } = tempDir('perpsim-gate-');
    cleanups.push(remove);
    journal = JournalFile.create(dir, { perpsim_journal: 1, scenario: {}, seed: 0 }, io);
    exchange.commands.attach(journal);
  }
  const server = await startServer(exchange, { port: 0, heartbeatMs: 600_000 });
  cleanups.push(() => server.close());
  return { exchange, server, journal, token: async (user) => (await exchange.users.tokenForPassword(user, `${user}-password`, 3600))! };
}

async function orderSocket(s: Served, user: string): Promise<TestSocket> {
  const ws = await TestSocket.open(`${s.server.wsUrl}/orders`);
  cleanups.push(() => ws.close());
  expect((await ws.request({ rid: 0, t: 'a', u: user, k: await s.token(user) })).res.li).toBe(user);
  return ws;
}

async function mdSocket(s: Served, level: string): Promise<TestSocket> {
  const ws = await TestSocket.open(`${s.server.wsUrl}/md/ws`);
  cleanups.push(() => ws.close());
  await ws.request({ request_id: 0, type: 'login', username: 'alice', token: await s.token('alice') }, 'request_id');
  expect((await ws.request({ request_id: 1, type: 'subscribe', symbol: 'BTCUSD-PERP', level }, 'request_id')).result).toEqual({ subscribed: 'BTCUSD-PERP' });
  return ws;
}

/** Counts every frame a socket receives from now on (heartbeats included: nothing may leave). */
function frames(ws: TestSocket): () => number {
  let n = 0;
  ws.ws.on('message', () => n++);
  return () => n;
}

/** console.error silenced and recorded for the test (restored after it). */
function quietErrors() {
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
  cleanups.push(() => errors.mockRestore());
  return errors;
}

/** Real writes and syncs, except that while `failing()` a sync fails with EIO after `delayMs`. */
function failingSyncs(failing: () => boolean, delayMs: number): JournalIo {
  return {
    write: (fd, bytes, length, position) => writeSync(fd, bytes, 0, length, position),
    fdatasync: (fd, done) => (failing() ? setTimeout(() => done(new Error('EIO: injected')), delayMs) : fdatasync(fd, done)),
  };
}

const until = async (cond: () => boolean): Promise<void> => {
  for (let i = 0; i < 400 && !cond(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(cond()).toBe(true);
};

describe('the durability gate', () => {
  it('lets no byte of an order’s ack, its feeds, the fill’s feeds, its market data or a REST answer out before its entry is synced', async () => {
    const io = new HeldSync();
    const s = await serve(io);
    const alice = await orderSocket(s, 'alice');
    const bob = await orderSocket(s, 'bob');
    const md = await mdSocket(s, 'LEVEL_1');
    expect((await bob.request(place(1, 'S', 2, '50000'))).res.oid).toBeDefined(); // resting, synced unheld
    await Promise.all([alice.drain(50), bob.drain(0), md.drain(0)]);
    const seen = [frames(alice), frames(bob), frames(md)];
    const bobToken = await s.token('bob');

    io.holding = true;
    alice.send(place(2, 'B', 1, '50000')); // trades with bob's order
    await until(() => io.held.length === 1); // its group is written and its sync started
    const rest = fetch(`${s.server.url}/risk_manager/risk_snapshot?username=bob`, { headers: { Authorization: `Bearer ${bobToken}` } });
    let answered = false;
    void rest.then(() => (answered = true));
    alice.send(place(3, 'B', 1, '49000')); // the next group: gathered while the first syncs
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.map((n) => n())).toEqual([0, 0, 0]);
    expect(answered).toBe(false);
    expect(io.held.length).toBe(1); // at most one sync in flight

    io.release();
    const ack = await alice.next((m) => m.rid === 2);
    expect(ack.res.oid).toBeDefined();
    expect((await alice.next((m) => m.rid === 3)).res.oid).toBeDefined();
    expect((await bob.next((m) => m.t !== undefined)).t).toBeDefined(); // bob's fill
    expect((await md.next((m) => m.t === 's')).l).toBe('50000'); // the trade's stats
    expect((await rest).status).toBe(200);
  });

  it('leaves every socket the same messages in the same order as a server without a journal', async () => {
    const transcript = async (io: HeldSync | undefined) => {
      const s = await serve(io);
      const alice = await orderSocket(s, 'alice');
      const bob = await orderSocket(s, 'bob');
      const md = await mdSocket(s, 'LEVEL_2');
      for (let i = 0; i < 10; i++) {
        await bob.request(place(100 + 2 * i, 'S', 3, String(50_000 + i)));
        await bob.request(place(101 + 2 * i, 'B', 3, String(49_999 - i)));
      }
      await Promise.all([alice.drain(50), bob.drain(0), md.drain(0)]);
      const raw = (ws: TestSocket) => {
        const out: string[] = [];
        ws.ws.on('message', (d) => out.push(d.toString()));
        return out;
      };
      const got = { alice: raw(alice), bob: raw(bob), md: raw(md) };
      let x = 17; // a seeded burst: buys and sells across bob's levels, some IOC, pipelined in one go
      const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31);
      for (let rid = 1; rid <= 150; rid++) alice.send(place(rid, next() % 2 === 0 ? 'B' : 'S', 1 + (next() % 3), String(49_990 + (next() % 20)), { tif: next() % 5 === 0 ? 'IOC' : 'GTC' }));
      await until(() => got.alice.filter((m) => m.startsWith('{"rid":')).length === 150);
      // a ping's pong leaves behind everything the socket was given before it (held output too): the trailing feeds and market data are in
      await Promise.all([alice, bob, md].map((ws) => new Promise((resolve) => (ws.ws.once('pong', resolve), ws.ws.ping()))));
      // md book snapshots are one per instant and book state; a turn's boundaries may differ, so compare trades' stats and the last book
      const stats = got.md.filter((m) => m.startsWith('{"t":"s"'));
      return { alice: got.alice, bob: got.bob, stats, book: got.md.filter((m) => m.startsWith('{"t":"2"')).at(-1) };
    };
    const plain = await transcript(undefined);
    let seed = 5;
    const io = new HeldSync();
    io.jitter = () => (seed = (seed * 48271) % 2147483647) % 4; // 0–3 ms per sync
    const journaled = await transcript(io);
    expect(plain.alice.length).toBeGreaterThan(300); // acks and feeds
    expect(plain.stats.length).toBeGreaterThan(10); // trades happened
    expect(journaled.alice).toEqual(plain.alice);
    expect(journaled.bob).toEqual(plain.bob);
    expect(journaled.stats).toEqual(plain.stats);
    expect(journaled.book).toEqual(plain.book);
    expect(io.held.length).toBe(0);
  });

  it('acknowledges nothing when a sync fails: the server stops serving, and says why, once', async () => {
    const errors = quietErrors();
    let failing = false;
    const io = failingSyncs(() => failing, 0);
    const s = await serve(io);
    const alice = await orderSocket(s, 'alice');
    const token = await s.token('alice');
    const seen = frames(alice);
    const closed = new Promise<number>((resolve) => alice.ws.once('close', (code) => resolve(code)));

    failing = true;
    alice.send(place(1, 'B', 1, '49000'));
    const insert = fetch(`${s.server.url}/orders/insert_order`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ username: 'alice', symbol: 'BTCUSD-PERP', price: '49001', quantity: 1, side: 'B', time_in_force: 'GTC', post_only: false }),
    }).then(
      (res) => `answered ${res.status}`,
      () => 'cut off',
    );
    const err = await s.server.failed;
    expect(err.message).toBe('EIO: injected');
    expect(await insert).toBe('cut off'); // no answer: neither a 200 nor anything else
    expect(await closed).toBe(1006); // dropped without a close frame (held output is never released)
    expect(seen()).toBe(0); // no ack, no feed
    const said = errors.mock.calls.map((c) => String(c[0])).filter((line) => line.includes('journal write failed'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^perpsim: journal write failed \(EIO: injected\): stopped serving/);
    expect(() => s.journal!.addLine('{"k":"time","t":"0"}')).toThrow(/journal failed/); // nothing more is accepted
    await expect(fetch(`${s.server.url}/health`)).rejects.toThrow(); // no longer listening
  });

  it('refuses quietly while it closes after a failed sync: requests meanwhile get no answer and print no stack trace', async () => {
    const errors = quietErrors();
    let failing = false;
    const io = failingSyncs(() => failing, 30); // the failing sync takes 30 ms, so requests keep arriving before and after it fails
    const s = await serve(io);
    const alice = await orderSocket(s, 'alice');
    const token = await s.token('alice');
    const body = JSON.stringify({ username: 'alice', symbol: 'BTCUSD-PERP', price: '49001', quantity: 1, side: 'B', time_in_force: 'GTC', post_only: false });
    const post = () =>
      fetch(`${s.server.url}/orders/insert_order`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body }).then(
        (res) => res.status,
        () => 'cut off',
      );
    failing = true;
    let stopped = false;
    void s.server.failed.then(() => (stopped = true));
    const answers: Promise<number | string>[] = [];
    for (let i = 1; i <= 60 && !stopped; i++) {
      answers.push(post());
      if (alice.ws.readyState === alice.ws.OPEN) alice.send(place(i, 'B', 1, '49000'));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await s.server.failed;
    expect(new Set(await Promise.all(answers))).toEqual(new Set(['cut off'])); // nothing answered, not even a refusal
    expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/^perpsim: journal write failed \(EIO: injected\)/)]);
    // a command after the failure meets the journal's own error, which the wire answers without a log line
    expect(() => s.journal!.lineRoom(100)).toThrow(JournalStoppedError);
  });
});
