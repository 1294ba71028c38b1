/**
 * What a snapshot saves on restart (`npx tsx bench/snapshot-restart.ts`): a journaled `empty`
 * venue takes ORDERS orders from two users (trades, resting orders, cancels, an hour of sim
 * time every 1,000 orders) with a snapshot every SNAPSHOT_EVERY entries; then the directory is
 * reopened ROUNDS times each way, alternating: from the newest snapshot + the journal's tail,
 * and from the whole journal (a copy without snapshots). Prints CPU time per restart (ranges),
 * their ratio, the snapshot's size and the time to write one. Both restarts must give the same
 * state hash.
 */
import { cpSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureGraph } from '../src/api/journal/object-graph.ts';
import { snapshotPaths } from '../src/api/journal/snapshot-file.ts';
import { exchangeForDataDir } from '../src/cli/data-dir.ts';
import { parseMoney } from '../src/core/money.ts';

const ORDERS = 100_000;
const SNAPSHOT_EVERY = 30_000;
/** Orders per hour of sim time: a busy venue (the clock's own events cost ~0.4 s CPU per sim day on `empty`, restored either way). */
const ORDERS_PER_HOUR = 20_000;
const ROUNDS = 3;
const HOUR_NS = 3_600_000_000_000n;

const root = mkdtempSync(join(tmpdir(), 'perpsim-snapshot-bench-'));
const dir = join(root, 'with');
const open = (d: string, everyEntries: number) => exchangeForDataDir(d, { scenario: 'empty', snapshots: { everyEntries, everySeconds: 0 } }, { manual: true, scryptCost: 1024 });

const a = await open(dir, SNAPSHOT_EVERY);
const [alice, bob] = ['alice', 'bob'].map((u) => a.exchange.venue.account(u)!);
a.exchange.commands.adjustCash(alice!, parseMoney('100000000'));
a.exchange.commands.adjustCash(bob!, parseMoney('100000000'));
for (let i = 0; i < ORDERS; i++) {
  const who = i % 2 === 0 ? alice! : bob!;
  a.exchange.commands.place(who, { symbol: 'BTCUSD-PERP', side: (i * 7) % 5 < 2 ? 'B' : 'S', price: String(49_900 + ((i * 13) % 200)), quantity: 1 + (i % 3), timeInForce: 'GTC', postOnly: false });
  if (i % 500 === 499) a.exchange.commands.cancelAll(who);
  if (i % ORDERS_PER_HOUR === ORDERS_PER_HOUR - 1) {
    a.exchange.clock.runUntil(a.exchange.clock.nowNs + HOUR_NS);
    a.exchange.commands.markTime();
  }
  if (i % 256 === 255) await new Promise((resolve) => setImmediate(resolve)); // a turn: flush, snapshot when due
}
await new Promise((resolve) => setImmediate(resolve));
const c0 = process.cpuUsage();
const image = JSON.stringify(captureGraph({ venue: a.exchange.venue, users: a.exchange.users }));
const captureCpu = process.cpuUsage(c0);
const captureMs = (captureCpu.user + captureCpu.system) / 1000;
const hash = a.exchange.venue.stateHash();
a.exchange.commands.close();
const full = join(root, 'without');
cpSync(join(dir, 'journal.jsonl'), join(full, 'journal.jsonl'), { recursive: true });

const cpuMs = async (d: string): Promise<{ ms: number; restored: number }> => {
  const c0 = process.cpuUsage();
  const r = await open(d, 0);
  const c = process.cpuUsage(c0);
  if (r.exchange.venue.stateHash() !== hash) throw new Error(`restart of ${d} gave another state hash`);
  r.exchange.commands.close();
  return { ms: (c.user + c.system) / 1000, restored: r.restored };
};
const snap: number[] = [];
const whole: number[] = [];
let tail = 0;
let entries = 0;
for (let r = 0; r < ROUNDS; r++) {
  const s = await cpuMs(dir);
  tail = s.restored;
  snap.push(s.ms);
  const w = await cpuMs(full);
  entries = w.restored;
  whole.push(w.ms);
}
const range = (xs: number[]) => `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))} ms`;
const newest = snapshotPaths(dir)[0]!;
console.log(`journal: ${entries.toLocaleString('en-US')} entries; snapshot every ${SNAPSHOT_EVERY.toLocaleString('en-US')}: ${(statSync(newest).size / 1e6).toFixed(1)} MB, captured + stringified in ${Math.round(captureMs)} ms CPU`);
console.log(`restart CPU: from the snapshot + ${tail.toLocaleString('en-US')} tail entries ${range(snap)}; from the whole journal ${range(whole)}; ratio ${(Math.min(...snap) / Math.max(...whole)).toFixed(2)}–${(Math.max(...snap) / Math.min(...whole)).toFixed(2)} (same state hash)`);
void image;
rmSync(root, { recursive: true, force: true });
