/**
 * Passes of the market maker's backtest against the do-nothing one, for instruction counts and
 * CPU pairs (bench/README, round 15 `react15`): one process warms up WARM sim-seconds of each
 * kind, then runs PAIRS pairs of SECONDS sim-seconds each (do-nothing then market maker, the
 * order reversed every other pair), printing each pass's CPU, clock events, fills and state
 * hash, and at the end the market maker's CPU over the do-nothing's (median and fastest passes).
 *
 * With ONLY (`mm` or `nothing`) the process warms up and runs that kind alone, PAIRS passes of
 * it, and prints its fastest and median pass: a user's backtest runs one strategy in its
 * process, and in the pairs the market maker's pass can deoptimize code the do-nothing pass
 * then compiles again; alternate processes of the two kinds to compare them (bench/README,
 * "Round 15, quiet figures").
 *
 * Through tsx (`npx tsx bench/backtest-passes.ts 1800 4 600 mm`), or bundled
 * (`npx esbuild bench/backtest-passes.ts --bundle --platform=node --format=esm
 * --outfile=/tmp/x/y/bt.mjs --banner:js="import { createRequire } from 'module'; const require =
 * createRequire(import.meta.url);"`, with the scenarios reachable at /tmp/x/y/../../scenarios), then
 * `node bt.mjs [SECONDS=900] [PAIRS=2] [WARM=300] [ONLY]`. Under `valgrind --tool=callgrind
 * --dump-before=uv_getrusage` each pass is one dump (its two `process.cpuUsage` calls).
 */
import marketMaker, { paramsSchema } from '../examples/market-maker.ts';
import { runBacktest } from '../src/backtest/runner.ts';
import { loadScenario } from '../src/scenario/load.ts';

type Kind = 'nothing' | 'mm';
const seconds = Number(process.argv[2] ?? 900);
const pairs = Number(process.argv[3] ?? 2);
const warm = Number(process.argv[4] ?? 300);
const only = process.argv[5];
if (only !== undefined && only !== 'mm' && only !== 'nothing') {
  console.error('usage: backtest-passes.ts [SECONDS=900] [PAIRS=2] [WARM=300] [mm|nothing]');
  process.exit(2);
}
const scenario = loadScenario('default');
const doNothing = { onStart(): void {} };

async function pass(kind: Kind, s: number, label: string): Promise<number> {
  const strategy = kind === 'mm' ? marketMaker(paramsSchema.parse({})) : doNothing;
  const c0 = process.cpuUsage();
  const r = await runBacktest(strategy, { scenario, seed: 1, durationNs: BigInt(s) * 1_000_000_000n });
  const c = process.cpuUsage(c0);
  const cpuS = (c.user + c.system) / 1e6;
  console.log(`${label} ${kind}: ${s} s, cpu ${cpuS.toFixed(3)} s, events ${r.events}, fills ${r.fills.length}, state ${r.stateHash ?? '-'}`);
  return cpuS;
}

const median = (sorted: number[]): number => (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;

if (only !== undefined) {
  if (warm > 0) await pass(only, warm, 'warm');
  const cpus: number[] = [];
  for (let i = 0; i < pairs; i++) cpus.push(await pass(only, seconds, `pass ${i + 1}`));
  cpus.sort((a, b) => a - b);
  console.log(`${only} alone: fastest ${cpus[0]!.toFixed(3)} s, median ${median(cpus).toFixed(3)} s`);
} else {
  if (warm > 0) {
    await pass('nothing', warm, 'warm');
    await pass('mm', warm, 'warm');
  }
  const ratios: number[] = [];
  const fastest = { nothing: Infinity, mm: Infinity };
  for (let i = 0; i < pairs; i++) {
    const order: Kind[] = i % 2 === 0 ? ['nothing', 'mm'] : ['mm', 'nothing'];
    const cpu = { nothing: 0, mm: 0 };
    for (const kind of order) {
      cpu[kind] = await pass(kind, seconds, `pair ${i + 1}`);
      fastest[kind] = Math.min(fastest[kind], cpu[kind]);
    }
    ratios.push(cpu.mm / cpu.nothing);
  }
  ratios.sort((a, b) => a - b);
  console.log(`ratios ${ratios.map((r) => r.toFixed(2)).join(' ')}, median ${median(ratios).toFixed(2)}, fastest ${(fastest.mm / fastest.nothing).toFixed(2)} (${fastest.mm.toFixed(3)} / ${fastest.nothing.toFixed(3)} s)`);
}
