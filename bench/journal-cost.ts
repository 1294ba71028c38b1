/**
 * The journal's cost on order entry, isolated from the sockets (`npx tsx bench/journal-cost.ts`;
 * `BATCHES=32,256` picks the turn sizes). Orders go through `exchange.commands.placeId` as the
 * wire sends them, in event-loop turns of BATCH orders (what pipelining clients put in one turn);
 * the journal commits as the server's does — a turn's entries written at the end of the turn,
 * fdatasync'd on the thread pool while the next turns run, one sync in flight — and the pass
 * ends when everything is durable. Plain and journaled passes alternate, ROUNDS times each.
 * Figures: CPU µs per order of the whole process (the sync's kernel time on the thread pool
 * included) and of the main thread alone (/proc/thread-self), wall µs per order, the mean
 * group. CPU time is the steady figure on a shared machine. The wire-level A/B is
 * `npm run bench -- wire.ws.orders.journal wire.rest.insert.journal`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Exchange } from '../src/api/exchange.ts';
import { JournalFile } from '../src/api/journal/journal-file.ts';
import { parseMoney } from '../src/core/money.ts';
import { loadScenario } from '../src/scenario/load.ts';

const ORDERS = 100_000;
const ROUNDS = 5;
const BATCHES = (process.env.BATCHES ?? '32,256').split(',').map(Number);

/** CPU time of the calling thread (user + system), µs, from /proc (Linux). */
function threadCpuUs(): number {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000; // clock ticks of 10 ms
}

interface Pass {
  cpuUs: number;
  mainUs: number;
  wallUs: number;
  group: number;
}

async function pass(journaled: boolean, batch: number): Promise<Pass> {
  const exchange = await Exchange.create(loadScenario('empty'), { manual: true, scryptCost: 1024 });
  const alice = exchange.venue.account('alice')!;
  exchange.venue.adjustCash(alice, parseMoney('1000000000000'));
  const dir = journaled ? mkdtempSync(join(tmpdir(), 'perpsim-journal-cost-')) : undefined;
  const journal = dir === undefined ? undefined : JournalFile.create(dir, { perpsim_journal: 1, scenario: {}, seed: 0 });
  if (journal !== undefined) exchange.commands.attach(journal);
  const cpu0 = process.cpuUsage();
  const main0 = threadCpuUs();
  const t0 = performance.now();
  for (let i = 0; i < ORDERS; i++) {
    // a buy and a sell at one price: pairs trade, the book and the account stay flat
    exchange.commands.placeId(alice, { symbol: 'ETHUSD-PERP', side: i % 2 === 0 ? 'B' : 'S', price: '3000', quantity: 1, timeInForce: 'GTC', postOnly: false });
    if ((i + 1) % batch === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await exchange.commands.durable();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const mainUs = threadCpuUs() - main0;
  const group = journal === undefined ? 0 : journal.syncStats.entries / journal.syncStats.count;
  exchange.commands.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  return { cpuUs: (cpu.user + cpu.system) / ORDERS, mainUs: mainUs / ORDERS, wallUs: (wallMs * 1000) / ORDERS, group };
}

const range = (xs: number[], digits = 2) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

for (const batch of BATCHES) {
  const plain: Pass[] = [];
  const journal: Pass[] = [];
  await pass(false, batch); // warm-up
  await pass(true, batch);
  for (let r = 0; r < ROUNDS; r++) {
    plain.push(await pass(false, batch));
    journal.push(await pass(true, batch));
  }
  const extra = journal.map((j, i) => j.cpuUs - plain[i]!.cpuUs);
  const extraMain = journal.map((j, i) => j.mainUs - plain[i]!.mainUs);
  console.log(
    `batch ${String(batch).padStart(3)}: CPU µs/order plain ${range(plain.map((p) => p.cpuUs))} (main thread ${range(plain.map((p) => p.mainUs))}), ` +
      `journaled ${range(journal.map((p) => p.cpuUs))} (main thread ${range(journal.map((p) => p.mainUs))}); ` +
      `the journal adds ${range(extra)} µs/order (main thread ${range(extraMain)}, same round); ` +
      `wall µs/order plain ${range(plain.map((p) => p.wallUs))}, journaled ${range(journal.map((p) => p.wallUs))}; ` +
      `${range(journal.map((p) => p.group), 0)} entries per sync`,
  );
}
