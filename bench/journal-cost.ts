/**
 * The journal's cost on order entry, isolated from the sockets (`npx tsx bench/journal-cost.ts`).
 * Orders go through `exchange.commands.place` as the wire sends them, in turns of BATCH orders
 * (what a pipelining client puts in one event-loop turn); after each turn the journal is written
 * and fdatasync'd once, as the server does before releasing the turn's answers. Plain and
 * journaled passes alternate, ROUNDS times each; the figure is orders/s in wall time and in
 * CPU time (the machine is shared: CPU time is the steadier one, wall time includes the fsync
 * wait). The wire-level A/B is `npm run bench -- wire.ws.orders wire.rest.insert` (the
 * `.journal` cases).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Exchange } from '../src/api/exchange.ts';
import { JournalFile } from '../src/api/journal/journal-file.ts';
import { parseMoney } from '../src/core/money.ts';
import { loadScenario } from '../src/scenario/load.ts';

const ORDERS = 40_000;
/** With one fsync per order (a few ms each on a busy disk) fewer orders keep the run short. */
const ORDERS_AT_BATCH_1 = 2_000;
const ROUNDS = 5;
const BATCHES = [1, 32, 256];

async function pass(journaled: boolean, batch: number): Promise<{ wallPerSec: number; cpuPerSec: number }> {
  const exchange = await Exchange.create(loadScenario('empty'), { manual: true, scryptCost: 1024 });
  const alice = exchange.venue.account('alice')!;
  exchange.venue.adjustCash(alice, parseMoney('1000000000000'));
  const dir = journaled ? mkdtempSync(join(tmpdir(), 'perpsim-journal-cost-')) : undefined;
  if (dir !== undefined) exchange.commands.attach(JournalFile.create(dir, { perpsim_journal: 1, scenario: {}, seed: 0 }));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const orders = batch === 1 ? ORDERS_AT_BATCH_1 : ORDERS;
  for (let i = 0; i < orders; i++) {
    // a buy and a sell at one price: pairs trade, the book and the account stay flat
    exchange.commands.place(alice, { symbol: 'ETHUSD-PERP', side: i % 2 === 0 ? 'B' : 'S', price: '3000', quantity: 1, timeInForce: 'GTC', postOnly: false });
    if ((i + 1) % batch === 0) exchange.commands.flushSync();
  }
  exchange.commands.flushSync();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  exchange.commands.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  return { wallPerSec: (orders * 1000) / wallMs, cpuPerSec: (orders * 1e6) / (cpu.user + cpu.system) };
}

const k = (x: number) => (x >= 10_000 ? `${Math.round(x / 1000)}k` : `${(x / 1000).toFixed(1)}k`);
const range = (xs: number[]) => `${k(Math.min(...xs))}–${k(Math.max(...xs))}`;
const ratios = (a: number[], b: number[]) => a.map((x, i) => x / b[i]!);
const pct = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

for (const batch of BATCHES) {
  const plain: { wallPerSec: number; cpuPerSec: number }[] = [];
  const journal: { wallPerSec: number; cpuPerSec: number }[] = [];
  await pass(false, batch); // warm-up
  await pass(true, batch);
  for (let r = 0; r < ROUNDS; r++) {
    plain.push(await pass(false, batch));
    journal.push(await pass(true, batch));
  }
  const pw = plain.map((p) => p.wallPerSec);
  const jw = journal.map((p) => p.wallPerSec);
  const pc = plain.map((p) => p.cpuPerSec);
  const jc = journal.map((p) => p.cpuPerSec);
  console.log(
    `batch ${String(batch).padStart(3)}: plain ${range(pw)} orders/s wall, ${range(pc)} CPU; journaled ${range(jw)} wall, ${range(jc)} CPU; ` +
      `ratio journaled/plain (same round) wall ${pct(ratios(jw, pw))}, CPU ${pct(ratios(jc, pc))}`,
  );
}
