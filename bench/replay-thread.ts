/**
 * The replay thread alone (`npx tsx bench/replay-thread.ts [--copies 2] [--rounds 3] [nothing|mm]`):
 * the Binance BTCUSDT capture N× (as `replay-speed.ts` builds it) loaded into memory once, then
 * backtests of a do-nothing strategy and of examples/market-maker.ts over it, alternated, each
 * timed in CPU time of this (the only) thread: no reader thread, no span pass, no start-up.
 * Prints µs per normalized record (the capture's records: 532,665 per copy) and the state hash.
 * What a replay costs where it is the bottleneck; for A/B of the venue's recorded-liquidity path.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replayScenario } from '../src/replay/l2/replay-scenario.ts';
import { runBacktest } from '../src/backtest/runner.ts';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const copies = opt('--copies', 2);
const rounds = opt('--rounds', 3);
const only = argv.filter((a) => !a.startsWith('--') && Number.isNaN(Number(a)));
const file = join(tmpdir(), 'perpsim-replay-speed', `x${copies}`, 'btcusdt_20240808.gz');
if (!existsSync(file)) {
  console.log(`no ${file}: run bench/replay-speed.ts --copies ${copies} first (it builds the input)`);
  process.exit(0);
}
const RECORDS_PER_COPY = 532_665;
const { scenario, events } = await replayScenario({ files: [file] }, undefined, { load: true });
const symbol = scenario.instruments[0]!.symbol;
const mm = await import('../examples/market-maker.ts');
const cases = [
  { name: 'nothing', strategy: () => ({ async onStart() {} }) },
  { name: 'mm', strategy: () => mm.default(mm.paramsSchema.parse({ symbol })) },
].filter((c) => only.length === 0 || only.includes(c.name));
const seen: Record<string, number[]> = {};
for (let r = 0; r < rounds; r++) {
  for (const c of cases) {
    const cpu0 = process.cpuUsage();
    const result = await runBacktest(c.strategy() as never, { scenario, replayEvents: events });
    const cpu = process.cpuUsage(cpu0);
    const us = (cpu.user + cpu.system) / (copies * RECORDS_PER_COPY);
    (seen[c.name] ??= []).push(us);
    console.log(`round ${r + 1} ${c.name}: ${us.toFixed(3)} µs CPU per record, ${result.fills.length} fills, hash ${result.stateHash}`);
  }
}
for (const [name, xs] of Object.entries(seen)) console.log(`${name}: ${Math.min(...xs).toFixed(3)} … ${Math.max(...xs).toFixed(3)} µs CPU per record`);
