import { cpSync, readdirSync, rmSync, truncateSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { captureGraph } from '../../src/api/journal/object-graph.ts';
import { readSnapshot, snapshotPaths } from '../../src/api/journal/snapshot-file.ts';
import { forkCommand } from '../../src/cli/fork-command.ts';
import { parseMoney } from '../../src/core/money.ts';
import { parseServeArgs } from '../../src/cli/commands/serve.ts';
import { exchangeForDataDir, type DataDirExchange } from '../../src/cli/data-dir.ts';
import { UsageError } from '../../src/cli/usage-error.ts';
import { tempDir } from '../cli/cli-helpers.ts';

/**
 * Periodic snapshots of a journaled server: a restart loads the newest good snapshot and replays
 * only the journal after it, and the result is the venue a replay of the whole journal gives
 * (the full replay is the oracle: same state hash, the same objects field for field, the same
 * next order id); damaged snapshots are passed over.
 */
const cleanups: (() => unknown)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const HOUR_NS = 3_600_000_000_000n;
const turn = () => new Promise((resolve) => setImmediate(resolve));

function newDir(): string {
  const { dir, remove } = tempDir('perpsim-snapshots-');
  cleanups.push(remove);
  return dir;
}

async function open(dir: string, everyEntries = 40): Promise<DataDirExchange> {
  const d = await exchangeForDataDir(dir, { scenario: 'empty', snapshots: { everyEntries, everySeconds: 0 } }, { manual: true, scryptCost: 1024, adminToken: 'snap-admin' });
  cleanups.push(() => d.exchange.commands.close());
  return d;
}

/**
 * Trading with every kind of command and state: trades, resting orders, cancels, a new user, cash,
 * funding, candles over hours. It never reads an order's id: ids are formatted lazily and cached,
 * and the full-replay oracle below reads none, so reading them here would differ in that cache only.
 */
async function trade(d: DataDirExchange, rounds: number): Promise<void> {
  const ex = d.exchange;
  const c = ex.commands;
  if (ex.venue.account('carol') === undefined) await ex.addUser('carol', 'carol-password-1', parseMoney('250000'));
  const users = ['alice', 'bob', 'carol'].map((u) => ex.venue.account(u)!);
  for (let i = 0; i < rounds; i++) {
    const who = users[i % 3]!;
    const side = (i * 7) % 5 < 2 ? 'B' : 'S';
    const price = String(49_950 + ((i * 13) % 100));
    c.place(who, { symbol: 'BTCUSD-PERP', side, price, quantity: 1 + (i % 4), timeInForce: i % 9 === 0 ? 'IOC' : 'GTC', postOnly: false });
    if (i % 11 === 5) c.cancelAll(users[(i + 1) % 3]!);
    if (i % 17 === 3) c.adjustCash(who, parseMoney('-1.5'));
    if (i % 10 === 9) {
      ex.clock.runUntil(ex.clock.nowNs + HOUR_NS); // marks, funding every 8 h, candles
      c.markTime();
    }
    if (i % 6 === 0) {
      await turn(); // the journal's flush
      await turn(); // a snapshot, when due
    }
  }
  c.flushSync();
  await turn();
}

/** The venue's whole state as data (the user directory is not compared: the scenario users' password salts are drawn anew by every build, so only the snapshot keeps the original ones). */
const venueImage = (d: DataDirExchange) => captureGraph({ venue: d.exchange.venue });

describe('periodic snapshots', () => {
  it('a restart loads the newest snapshot and replays only the tail: the same venue, object for object, as replaying the whole journal; ids continue', async () => {
    const dir = newDir();
    const a = await open(dir);
    await trade(a, 300);
    const hash = a.exchange.venue.stateHash();
    a.exchange.commands.close();
    const written = snapshotPaths(dir);
    expect(written.length).toBe(2); // the newest and the one before it are kept
    expect(readdirSync(join(dir, 'snapshots')).filter((n) => n.endsWith('.tmp'))).toEqual([]);

    const full = newDir();
    cpSync(join(dir, 'journal.jsonl'), join(full, 'journal.jsonl'));
    const fromSnapshot = await open(dir, 0);
    const fromJournal = await open(full, 0);
    expect(fromSnapshot.fromSnapshot).toBe(written[0]!.split('/').pop());
    expect(fromJournal.fromSnapshot).toBeUndefined();
    expect(fromSnapshot.restored).toBeLessThan(fromJournal.restored / 4); // only the tail
    expect(fromSnapshot.exchange.venue.stateHash()).toBe(hash);
    expect(fromJournal.exchange.venue.stateHash()).toBe(hash);
    expect(isDeepStrictEqual(venueImage(fromSnapshot), venueImage(fromJournal))).toBe(true);
    expect(await fromSnapshot.exchange.users.tokenForPassword('carol', 'carol-password-1', 60)).toBeDefined(); // credentials came back
    expect(await fromSnapshot.exchange.users.tokenForPassword('carol', 'wrong-password-1', 60)).toBeUndefined();

    // Both go on alike: the next order gets the same new id, and hours of funding later the hashes agree.
    await trade(fromSnapshot, 40);
    await trade(fromJournal, 40);
    const ids = ['alice', 'bob', 'carol'].flatMap((u) => fromJournal.exchange.venue.openOrders(fromJournal.exchange.venue.account(u)!).map((o) => o.id));
    expect(ids.length).toBeGreaterThan(0);
    const next = (d: DataDirExchange) => d.exchange.commands.place(d.exchange.venue.account('bob')!, { symbol: 'BTCUSD-PERP', side: 'S', price: '49960', quantity: 2, timeInForce: 'GTC', postOnly: false }).id;
    const id = next(fromSnapshot);
    expect(next(fromJournal)).toBe(id);
    for (const old of ids) expect(id > old).toBe(true); // no id reused
    expect(fromSnapshot.exchange.venue.stateHash()).toBe(fromJournal.exchange.venue.stateHash());
  });

  it('a truncated newest snapshot falls back to the one before it, and damaged snapshots all round to the whole journal, each time with the same state', async () => {
    const dir = newDir();
    const a = await open(dir);
    await trade(a, 200);
    const hash = a.exchange.venue.stateHash();
    a.exchange.commands.close();
    const [newest, older] = snapshotPaths(dir);
    truncateSync(newest!, Math.floor(statSync(newest!).size / 2));

    const b = await open(dir, 0);
    expect(b.fromSnapshot).toBe(older!.split('/').pop());
    expect(b.snapshots).toMatch(/skipped snapshot-\d+\.json: checksum mismatch/);
    expect(b.exchange.venue.stateHash()).toBe(hash);
    b.exchange.commands.close();

    writeFileSync(older!, '{"perpsim_snapshot":1,"entries":3}\n{}');
    const c = await open(dir, 0);
    expect(c.fromSnapshot).toBeUndefined();
    expect(c.exchange.venue.stateHash()).toBe(hash);
    c.exchange.commands.close();

    rmSync(join(dir, 'snapshots'), { recursive: true });
    const d = await open(dir, 0);
    expect(d.restored).toBe(c.restored);
    expect(d.exchange.venue.stateHash()).toBe(hash);
  });

  it('a scenario with agents writes none and says that a restart replays the whole journal', async () => {
    const d = await exchangeForDataDir(newDir(), { scenario: 'default', snapshots: { everyEntries: 1, everySeconds: 0 } }, { manual: true, scryptCost: 1024 });
    cleanups.push(() => d.exchange.commands.close());
    expect(d.snapshots).toMatch(/^off \(the scenario has \d+ agents: a restart replays the whole journal\)$/);
  });

  it('perpsim fork starts from the newest snapshot before TIME and gives the state a fork rebuilt from the start gives', async () => {
    const dir = newDir();
    const a = await open(dir);
    await trade(a, 300);
    a.exchange.commands.close();
    const [newest, older] = snapshotPaths(dir).map((p) => readSnapshot(p).meta);
    const atNs = BigInt(older!.t) + (BigInt(newest!.t) - BigInt(older!.t)) / 2n; // between the two: the older one applies
    expect(BigInt(newest!.t)).toBeGreaterThan(atNs);
    const plain = newDir();
    cpSync(join(dir, 'journal.jsonl'), join(plain, 'journal.jsonl'));

    const fork = async (from: string) => {
      const lines: string[] = [];
      const out = join(newDir(), 'fork');
      expect(await forkCommand(from, { at: String(atNs), out }, (l) => lines.push(l))).toBe(0);
      return { out, lines };
    };
    const viaSnapshot = await fork(dir);
    const fromStart = await fork(plain);
    expect(viaSnapshot.lines[0]).toMatch(new RegExp(`rebuilt from snapshot-0*${older!.entries}\\.json`));
    expect(fromStart.lines[0]).not.toContain('rebuilt from');
    expect(viaSnapshot.lines[1]).toBe(fromStart.lines[1]); // state_hash
    const served = await open(viaSnapshot.out, 0); // the snapshot came along and still fits the fork's journal
    expect(served.fromSnapshot).toBeDefined();
    expect(`state_hash: ${served.exchange.venue.stateHash()}`).toBe(fromStart.lines[1]);
  });

  it('takes its cadence from --snapshot-entries / --snapshot-seconds (0 = never), which need --data-dir', () => {
    expect(parseServeArgs(['--data-dir', 'd', '--snapshot-entries', '0']).snapshots).toEqual({ everyEntries: 0, everySeconds: 300 });
    expect(parseServeArgs(['--data-dir', 'd', '--snapshot-seconds', '60']).snapshots).toEqual({ everyEntries: 100_000, everySeconds: 60 });
    expect(parseServeArgs(['--data-dir', 'd']).snapshots).toBeUndefined(); // the defaults apply
    expect(() => parseServeArgs(['--snapshot-entries', '5'])).toThrow(UsageError);
    expect(() => parseServeArgs(['--data-dir', 'd', '--snapshot-seconds', '-1'])).toThrow(UsageError);
  });
});
