/**
 * Backtest throughput: the market-maker example (examples/market-maker.ts, default params) on
 * `default`, seed 1, against two floors run on the same scenario and seed: a backtest of a
 * strategy that does nothing (`runBacktest`, the floor issue 11 names: the market maker at most
 * 1.2× it) and the bare simulation (`buildSimulation`, no runner, printed beside it). CPU time
 * is the steadier figure on a shared machine; wall printed too. Its alternated pairs also run a
 * strategy that listens as the example does and never trades (what market data and timers alone
 * cost). `PERPSIM_BENCH_BACKTEST_DURATION=1h npm run bench -- backtest` for a quick run (default 1d).
 */
import marketMaker, { paramsSchema } from '../examples/market-maker.ts';
import { runBacktest } from '../src/backtest/runner.ts';
import { formatMoney } from '../src/core/money.ts';
import { formatDuration, parseDuration } from '../src/core/time.ts';
import { loadScenario } from '../src/scenario/load.ts';
import type { Scenario } from '../src/scenario/schema.ts';
import { buildSimulation } from '../src/sim/build.ts';
import { sideTicks } from '../src/strategy/book-ticks.ts';
import type { ExchangePort } from '../src/strategy/exchange-port.ts';
import type { Strategy } from '../src/strategy/strategy.ts';
import type { BookUpdate } from '../src/wire/market-data.ts';
import type { BenchCase } from './harness.ts';

const DURATION_TEXT = process.env.PERPSIM_BENCH_BACKTEST_DURATION ?? '1d';
const SEED = 1;
const DAY_TARGET_S = 60;
/** The market-maker run's target, as a multiple of the do-nothing backtest's time. */
const RATIO_TARGET = 1.2;

/** Wall seconds of the last pass of each case, for the overhead line. */
const wall = { bare: NaN, nothing: NaN, backtest: NaN };
/** CPU seconds (user + system) of the same passes: steadier than wall time on a shared machine. */
const cpu = { bare: NaN, nothing: NaN, backtest: NaN };
/** Clock events of the same passes: what the market maker adds, and what each added event costs. */
const events = { bare: NaN, nothing: NaN, backtest: NaN };

function durationNs(): bigint {
  const ns = parseDuration(DURATION_TEXT);
  if (ns === undefined || ns <= 0n) throw new Error(`PERPSIM_BENCH_BACKTEST_DURATION must be a duration such as 1h or 1d, got ${DURATION_TEXT}`);
  return ns;
}

/** Untimed warm-up of the same workload (10 min of sim time), so neither case pays for a cold JIT. */
const WARMUP_NS = 600n * 1_000_000_000n;

function daySeconds(wallS: number, ns: bigint): string {
  return ((wallS * 86_400e9) / Number(ns)).toFixed(1);
}

/** One run of a case: clock events run and what to say about them. */
interface Pass {
  events: number;
  detail: string;
}

/**
 * A whole-run case: `pass` builds and runs `default` (seed 1) for the configured duration,
 * timed build included; an untimed 10-minute pass first warms the JIT, then `untimed` runs (the
 * market maker's alternated pairs). One op = one clock event.
 */
function runCase(name: string, key: keyof typeof wall, pass: (scenario: Scenario, ns: bigint) => Promise<Pass>, summary: (p: Pass, ns: bigint) => string, untimed?: (scenario: Scenario) => Promise<void>): BenchCase {
  let scenario: Scenario | undefined;
  let last: Pass = { events: 0, detail: '' };
  const ns = durationNs();
  return {
    name,
    unit: 'event',
    async: true,
    get opsPerRun() {
      return last.events;
    },
    iterations: 1,
    timeMs: 0,
    warmupIterations: 0,
    gcBetweenRuns: true,
    async setup() {
      await pass(loadScenario('default'), WARMUP_NS);
      await untimed?.(loadScenario('default'));
    },
    prepare() {
      scenario = loadScenario('default');
    },
    reset() {},
    async run() {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      last = await pass(scenario!, ns);
      const c = process.cpuUsage(c0);
      wall[key] = (performance.now() - t0) / 1000;
      cpu[key] = (c.user + c.system) / 1e6;
      events[key] = last.events;
    },
    release() {
      scenario = undefined;
    },
    dispose() {},
    describe: () => summary(last, ns),
  };
}

/**
 * The events the market maker adds over a floor (its orders through latency, their answers,
 * its feeds and market data, its timers, the agents' reactions) and their CPU cost each,
 * against the floor's average event: at equal cost per event the ratio would be the event ratio.
 */
function addedEvents(floor: 'bare' | 'nothing'): string {
  const added = events.backtest - events[floor];
  const perAddedUs = ((cpu.backtest - cpu[floor]) / added) * 1e6;
  const perFloorUs = (cpu[floor] / events[floor]) * 1e6;
  return `+${added} events over the ${floor === 'bare' ? 'bare run' : 'do-nothing backtest'} (${(events.backtest / events[floor]).toFixed(2)}× its events), ${perAddedUs.toFixed(2)} µs CPU each against ${perFloorUs.toFixed(2)} µs per event of it`;
}

/** The market maker's CPU and wall ratio to a floor, or how to get it. */
function ratioTo(floor: 'bare' | 'nothing', name: string, target: string): string {
  if (Number.isNaN(cpu[floor])) return `run ${name} too for the ratio to it`;
  return `${(cpu.backtest / cpu[floor]).toFixed(2)}× ${name}'s CPU, ${(wall.backtest / wall[floor]).toFixed(2)}× its wall${target}; ${addedEvents(floor)}`;
}

/** A strategy that subscribes to nothing and never trades: the runner's own cost, the floor. */
const doNothing = { onStart(): void {} };

/**
 * A strategy that listens as the example does and never trades: the whole LEVEL_2 book, the
 * touch read as numbers, the example's 50 ms timer armed at each update (doing nothing). What
 * market data and timers alone cost, beside the market maker's pairs.
 */
function listener(): Strategy {
  let port: ExchangePort | undefined;
  let armed = false;
  /** The touch in ticks, as the example keeps it (NaN while a side is empty). */
  const touch = { bidTicks: NaN, askTicks: NaN };
  const onTimer = (): void => void (armed = false);
  return {
    async onStart(p: ExchangePort) {
      port = p;
      await p.subscribe('BTCUSD-PERP', 'LEVEL_2');
    },
    onBook(book: BookUpdate) {
      const bids = sideTicks(book.b);
      const asks = sideTicks(book.a);
      touch.bidTicks = bids !== undefined && bids.length > 0 ? bids.priceTicks[0]! : NaN;
      touch.askTicks = asks !== undefined && asks.length > 0 ? asks.priceTicks[0]! : NaN;
      if (!armed) {
        armed = true;
        port!.setTimer(50_000_000, onTimer);
      }
    },
  };
}

/** `backtest.bare`: the scenario alone, as the baseline. */
const bareCase = (): BenchCase =>
  runCase(
    'backtest.bare',
    'bare',
    async (scenario, ns) => {
      const sim = buildSimulation(scenario, { seed: SEED, durationNs: ns });
      sim.start();
      return { events: sim.clock.runUntil(sim.endNs), detail: '' };
    },
    (p, ns) => `${formatDuration(ns)} of default bare: ${p.events} events in ${wall.bare.toFixed(2)} s (CPU ${cpu.bare.toFixed(2)} s), ${Math.round(p.events / wall.bare)} events/s; a day ≈ ${daySeconds(wall.bare, ns)} s`,
  );

/** `backtest.nothing`: `runBacktest` of a strategy that does nothing, the floor issue 11 names. */
const nothingCase = (): BenchCase =>
  runCase(
    'backtest.nothing',
    'nothing',
    async (scenario, ns) => {
      const result = await runBacktest(doNothing, { scenario, seed: SEED, durationNs: ns });
      return { events: result.events, detail: '' };
    },
    (p, ns) => `${formatDuration(ns)} of default, a do-nothing strategy: ${p.events} events in ${wall.nothing.toFixed(2)} s (CPU ${cpu.nothing.toFixed(2)} s), ${Math.round(p.events / wall.nothing)} events/s; ${Number.isNaN(cpu.bare) ? '' : `${(cpu.nothing / cpu.bare).toFixed(2)}× the bare run's CPU`}`,
  );

/** `backtest.mm`: the market-maker example on the same scenario and seed. */
const marketMakerCase = (): BenchCase =>
  runCase(
    'backtest.mm',
    'backtest',
    async (scenario, ns) => {
      const result = await runBacktest(marketMaker(paramsSchema.parse({})), { scenario, seed: SEED, durationNs: ns });
      return { events: result.events, detail: `${result.fills.length} fills, net PnL ${formatMoney(result.final.equity - result.startingCash)}` };
    },
    (p, ns) =>
      `${formatDuration(ns)} of default with the market maker: ${p.events} events (${p.detail}) in ${wall.backtest.toFixed(2)} s (CPU ${cpu.backtest.toFixed(2)} s), ${Math.round(p.events / wall.backtest)} events/s; a day ≈ ${daySeconds(wall.backtest, ns)} s (target < ${DAY_TARGET_S} s); ` +
      `${ratioTo('nothing', 'the do-nothing backtest', ` (target ≤ ${RATIO_TARGET}×)`)}; ${ratioTo('bare', 'the bare run', '')}${pairsLine()}`,
    async (scenario) => {
      pairRatios = await alternatedRatios(scenario);
    },
  );

/** Alternated pairs the market-maker case runs untimed before its timed pass, and their length. */
const PAIRS = 4;
const PAIR_NS = 1_800n * 1_000_000_000n;
/** The pairs' ratios (the market maker's CPU over the do-nothing backtest's), sorted. */
let pairRatios: number[] = [];
/** The listener's CPU over the do-nothing backtest's in the same pairs, sorted. */
let listenRatios: number[] = [];
/** The fastest pass of each side over the pairs (CPU s) and their events: the least disturbed by load. */
let fastest = { nothing: Infinity, mm: Infinity, listen: Infinity, nothingEvents: 0, mmEvents: 0, listenEvents: 0 };

/**
 * The do-nothing backtest and the market maker, 30 sim-minutes each, alternated `PAIRS` times in
 * this warm process (the do-nothing first in even pairs): the single timed passes above are one
 * each, run one after the other, and moved 1.2–2.8× between quiet runs of the same code; pairs
 * see the same load and the same JIT state.
 */
async function alternatedRatios(scenario: Scenario): Promise<number[]> {
  const cpuOf = async (strategy: Parameters<typeof runBacktest>[0], side: 'nothing' | 'mm' | 'listen'): Promise<number> => {
    const c0 = process.cpuUsage();
    const result = await runBacktest(strategy, { scenario, seed: SEED, durationNs: PAIR_NS });
    const c = process.cpuUsage(c0);
    const cpuS = (c.user + c.system) / 1e6;
    if (cpuS < fastest[side]) fastest[side] = cpuS;
    fastest[`${side}Events`] = result.events;
    return cpuS;
  };
  const ratios: number[] = [];
  listenRatios = [];
  for (let i = 0; i < PAIRS; i++) {
    const mm = marketMaker(paramsSchema.parse({}));
    if (i % 2 === 0) {
      const nothing = await cpuOf(doNothing, 'nothing');
      ratios.push((await cpuOf(mm, 'mm')) / nothing);
      listenRatios.push((await cpuOf(listener(), 'listen')) / nothing);
    } else {
      const listenS = await cpuOf(listener(), 'listen');
      const mmS = await cpuOf(mm, 'mm');
      const nothing = await cpuOf(doNothing, 'nothing');
      ratios.push(mmS / nothing);
      listenRatios.push(listenS / nothing);
    }
  }
  listenRatios.sort((a, b) => a - b);
  return ratios.sort((a, b) => a - b);
}

const medianOf = (sorted: number[]): number => (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;

function pairsLine(): string {
  if (pairRatios.length === 0) return '';
  const added = fastest.mmEvents - fastest.nothingEvents;
  const perAddedUs = ((fastest.mm - fastest.nothing) / added) * 1e6;
  const listenAdded = fastest.listenEvents - fastest.nothingEvents;
  return (
    `; alternated with the do-nothing backtest (${PAIRS} pairs of ${formatDuration(PAIR_NS)}, CPU, warm): ${pairRatios[0]!.toFixed(2)}–${pairRatios[pairRatios.length - 1]!.toFixed(2)}×, median ${medianOf(pairRatios).toFixed(2)}× (target ≤ ${RATIO_TARGET}×); ` +
    `fastest passes ${fastest.mm.toFixed(3)} s against ${fastest.nothing.toFixed(3)} s: ${(fastest.mm / fastest.nothing).toFixed(2)}×, +${added} events at ${perAddedUs.toFixed(2)} µs CPU each against ${((fastest.nothing / fastest.nothingEvents) * 1e6).toFixed(2)} µs per do-nothing event; ` +
    `in the same pairs a LEVEL_2 listener that never trades (the example's book and timer, no orders): median ${medianOf(listenRatios).toFixed(2)}×, fastest pass ${(fastest.listen / fastest.nothing).toFixed(2)}×, +${listenAdded} events at ${(((fastest.listen - fastest.nothing) / listenAdded) * 1e6).toFixed(2)} µs CPU each`
  );
}

/** The backtest cases, floors first (the market maker's ratios need their times). */
export const backtestCases = (): BenchCase[] => [bareCase(), nothingCase(), marketMakerCase()];
