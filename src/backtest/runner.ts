import { parseMoney, type Money } from '../core/money.ts';
import type { TimeNs } from '../core/types.ts';
import type { LatencyModelSpec, Scenario } from '../scenario/schema.ts';
import type { L2Event } from '../replay/l2/l2-event.ts';
import { buildRun, type RunOptions } from '../run/build-run.ts';
import { InProcessPort } from '../sim/in-process-port.ts';
import type { Simulation } from '../sim/simulation.ts';
import { attachStrategy, type Strategy } from '../strategy/strategy.ts';
import type { TouchTime } from './market-watch.ts';
import { BacktestRecorder, type EquitySample, type FillRecord, type FundingRecordOfRun, type OrderCounts } from './recorder.ts';
import { BacktestError, runEvents, settle, type Settling } from './settling.ts';
import { TrackedPort } from './tracked-port.ts';

export { BacktestError };

const NS_PER_S = 1_000_000_000n;

/** What to backtest: a scenario, a seed, a duration, and the strategy's account. */
export interface BacktestConfig {
  scenario: Scenario;
  /** Overrides the scenario's seed. */
  seed?: number;
  /** A replay scenario's recordings, already loaded (else `buildRun` reads them). */
  replayEvents?: readonly L2Event[];
  /** Overrides the scenario's duration. */
  durationNs?: TimeNs;
  /** The strategy's user on the venue (default `strategy`; must not be a scenario user). */
  username?: string;
  /** Starting cash of the strategy's account, decimal text (default 1,000,000). */
  startingCash?: string;
  /** Equity sampling interval on the sim clock (default: `adaptiveSampleIntervalNs` of the run's length). */
  sampleIntervalNs?: TimeNs;
  /** Latency of the strategy's order path and market data (default: the scenario's, else 1 ms + jitter). */
  orderLatency?: LatencyModelSpec;
  marketDataLatency?: LatencyModelSpec;
  /** Sim time the strategy's `onStop` may use after the end (default 10 s); not in the report. */
  stopGraceNs?: TimeNs;
  /** Adds actors to the simulation before it starts (e.g. scripted counterparties); runs after the strategy's account exists. */
  setup?: (sim: Simulation) => void;
  /** Called now and then with the sim time reached, the run's span and, on a recorded market, the records replayed (for progress bars). */
  onProgress?: (tNs: TimeNs, startNs: TimeNs, endNs: TimeNs, records: number | undefined) => void;
  /** @internal How continuations run between events (`settling.ts`); tests compare the default with `every-event`. */
  settling?: Settling;
}

/** Everything a backtest recorded; `metrics.ts` turns it into numbers. */
export interface BacktestResult {
  scenario: string;
  seed: number;
  startNs: TimeNs;
  endNs: TimeNs;
  sampleIntervalNs: TimeNs;
  username: string;
  startingCash: Money;
  symbols: string[];
  fills: FillRecord[];
  funding: FundingRecordOfRun[];
  /** Equity on the grid start + k × interval, then once more at the end. */
  samples: EquitySample[];
  orders: OrderCounts;
  liquidations: number;
  /** Per symbol, time with a resting order at the best bid / ask (maker statistics). */
  touchTimes: TouchTime[];
  /** The account at the end (exact): trading PnL, fees, funding received, unrealized, cash. */
  final: { tradingPnl: Money; fees: Money; funding: Money; unrealized: Money; cash: Money; equity: Money };
  /** Venue state hash at the end (before the strategy's onStop). */
  stateHash: string;
  /** Clock events run (agents, venue, strategy, market data). */
  events: number;
}

export const DEFAULT_BACKTEST_USER = 'strategy';
export const DEFAULT_STARTING_CASH = '1000000';

/** Sampling intervals the default chooses from, finest first. */
const SAMPLE_STEPS_S = [1n, 5n, 10n, 30n, 60n, 300n, 900n, 3600n];
/** The default sampling keeps a run under this many samples. */
export const MAX_DEFAULT_SAMPLES = 2000n;

/**
 * The default equity sampling interval: the finest of 1 s, 5 s, 10 s, 30 s, 1 min, 5 min,
 * 15 min, 1 h that keeps the run within `MAX_DEFAULT_SAMPLES` samples. A 5-minute replay gets
 * 300 one-second returns instead of 5 one-minute ones; a day gets 1-minute samples.
 */
export function adaptiveSampleIntervalNs(durationNs: TimeNs): TimeNs {
  for (const s of SAMPLE_STEPS_S) if (durationNs / (s * NS_PER_S) <= MAX_DEFAULT_SAMPLES) return s * NS_PER_S;
  return SAMPLE_STEPS_S[SAMPLE_STEPS_S.length - 1]! * NS_PER_S;
}

/**
 * Runs `strategy` in-process on a scenario: the scenario's venue and agents as
 * `buildRun` makes them, plus the strategy on its own account and in-process port (with
 * latency), deterministically.
 *
 * The clock runs one event at a time. After any event at which a port promise settled or a
 * strategy callback ran, the runner lets every queued microtask run before the next event
 * (`settling.ts`), so code after `await port.insertOrder(...)` runs at the sim time the
 * response arrived, exactly as it would live. Events with no strategy code cost nothing extra.
 */
export async function runBacktest(strategy: Strategy, config: BacktestConfig): Promise<BacktestResult> {
  const runOptions: RunOptions = {};
  if (config.seed !== undefined) runOptions.seed = config.seed;
  if (config.durationNs !== undefined) runOptions.durationNs = config.durationNs;
  if (config.replayEvents !== undefined) runOptions.replayEvents = config.replayEvents;
  const built = await buildRun(config.scenario, runOptions);
  const { sim } = built;
  const username = config.username ?? DEFAULT_BACKTEST_USER;
  if (sim.venue.account(username) !== undefined) throw new RangeError(`backtest user ${username} is already a user of the scenario`);
  const startingCash = parseMoney(config.startingCash ?? DEFAULT_STARTING_CASH);
  const account = sim.venue.addUser(username, startingCash);
  const inner = new InProcessPort(sim.venue, account, built.portLatency(username, { order: config.orderLatency, marketData: config.marketDataLatency }));
  const port = new TrackedPort(inner);
  const recorder = new BacktestRecorder(sim.venue, account, sim.endNs);
  const interval = config.sampleIntervalNs ?? adaptiveSampleIntervalNs(sim.endNs - sim.startNs);
  if (interval <= 0n) throw new RangeError('sampleIntervalNs must be positive');

  config.setup?.(sim);
  let stop: (() => Promise<void>) | undefined;
  sim.onStart(() => {
    const attached = attachStrategy(strategy, port);
    port.watch(attached);
    attached.then((s) => (stop = s)).catch(() => undefined);
    sampleEvery(sim, recorder, interval);
  });
  sim.start();

  let ended = false;
  sim.clock.scheduleAt(sim.endNs, () => (ended = true));
  const onProgress = config.onProgress;
  const settling = config.settling ?? 'drain';
  const events = await runEvents(sim.clock, port, settling, () => ended, onProgress && ((tNs) => onProgress(tNs, sim.startNs, sim.endNs, built.replayer?.stats.events)));
  sim.clock.runUntil(sim.endNs); // the rest of the last instant
  recorder.finishMarkouts();
  await settle(port, settling);
  recorder.sample();
  onProgress?.(sim.endNs, sim.startNs, sim.endNs, built.replayer?.stats.events);

  const result = collect(sim, config, recorder, account, username, startingCash, interval, events);
  recorder.stop();
  if (stop === undefined) throw new BacktestError('the strategy never finished onStart');
  await stopStrategy(sim, port, settling, stop, config.stopGraceNs ?? 10n * NS_PER_S);
  inner.close();
  return result;
}

/** Samples the account at start and every `interval` before the end. */
function sampleEvery(sim: Simulation, recorder: BacktestRecorder, interval: TimeNs): void {
  const tick = (): void => {
    recorder.sample();
    if (sim.clock.nowNs + interval < sim.endNs) sim.clock.scheduleIn(Number(interval), tick);
  };
  tick();
}

/** Calls the strategy's onStop and runs the clock (at most `graceNs` past the end) until it returns. */
async function stopStrategy(sim: Simulation, port: TrackedPort, settling: Settling, stop: () => Promise<void>, graceNs: TimeNs): Promise<void> {
  let stopped = false;
  const stopping = stop().then(() => void (stopped = true));
  port.watch(stopping);
  await settle(port, settling);
  const limit = sim.endNs + graceNs;
  await runEvents(sim.clock, port, settling, () => stopped || sim.clock.nowNs > limit);
}

function collect(sim: Simulation, config: BacktestConfig, recorder: BacktestRecorder, account: ReturnType<Simulation['venue']['addUser']>, username: string, startingCash: Money, interval: TimeNs, events: number): BacktestResult {
  let tradingPnl = 0n;
  let fees = 0n;
  let funding = 0n;
  let unrealized = 0n;
  for (const p of account.positionList) {
    tradingPnl += p.tradingPnl;
    fees += p.fees;
    funding += p.funding;
    unrealized += p.unrealized();
  }
  return {
    scenario: config.scenario.name,
    seed: sim.seed,
    startNs: sim.startNs,
    endNs: sim.endNs,
    sampleIntervalNs: interval,
    username,
    startingCash,
    symbols: recorder.symbols,
    fills: recorder.fills,
    funding: recorder.funding,
    samples: recorder.samples,
    orders: { ...recorder.orders },
    liquidations: recorder.liquidations,
    touchTimes: recorder.touchTimes(),
    final: { tradingPnl, fees, funding, unrealized, cash: account.cash, equity: account.cash + unrealized },
    stateHash: sim.venue.stateHash(),
    events,
  };
}
