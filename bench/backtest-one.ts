/**
 * One kind of backtest per process, for the market maker's ratio without another strategy's
 * code in the same JIT (bench/README, round 15, lead): `backtest.mm`'s pairs and
 * `backtest-passes.ts` run the do-nothing backtest and the market maker in one process, where
 * the market maker's pass deoptimizes code the do-nothing pass then compiles again (mm15 saw it
 * under callgrind). A user's backtest runs one strategy in its process; this driver warms up
 * WARM sim-seconds of KIND, then runs PASSES passes of SECONDS sim-seconds, printing each pass's
 * CPU, and the fastest and median pass. Alternate processes of the two kinds to compare them.
 *
 * Run through tsx (`npx tsx bench/backtest-one.ts mm 1800 4 600`) or bundled as
 * `backtest-passes.ts` says.
 */
import marketMaker, { paramsSchema } from '../examples/market-maker.ts';
import { runBacktest } from '../src/backtest/runner.ts';
import { loadScenario } from '../src/scenario/load.ts';

const kind = process.argv[2];
if (kind !== 'mm' && kind !== 'nothing') {
  console.error('usage: backtest-one.ts mm|nothing [SECONDS=1800] [PASSES=4] [WARM=600]');
  process.exit(2);
}
const seconds = Number(process.argv[3] ?? 1800);
const passes = Number(process.argv[4] ?? 4);
const warm = Number(process.argv[5] ?? 600);
const scenario = loadScenario('default');
const doNothing = { onStart(): void {} };

async function pass(s: number): Promise<{ cpuS: number; events: number }> {
  const strategy = kind === 'mm' ? marketMaker(paramsSchema.parse({})) : doNothing;
  const c0 = process.cpuUsage();
  const r = await runBacktest(strategy, { scenario, seed: 1, durationNs: BigInt(s) * 1_000_000_000n });
  const c = process.cpuUsage(c0);
  return { cpuS: (c.user + c.system) / 1e6, events: r.events };
}

if (warm > 0) await pass(warm);
const cpus: number[] = [];
let events = 0;
for (let i = 0; i < passes; i++) {
  const p = await pass(seconds);
  cpus.push(p.cpuS);
  events = p.events;
}
cpus.sort((a, b) => a - b);
const median = (cpus[(cpus.length - 1) >> 1]! + cpus[cpus.length >> 1]!) / 2;
console.log(`${kind}: ${passes} passes of ${seconds} sim-s, ${events} events; cpu ${cpus.map((c) => c.toFixed(3)).join(' ')} s; fastest ${cpus[0]!.toFixed(3)}, median ${median.toFixed(3)}`);
