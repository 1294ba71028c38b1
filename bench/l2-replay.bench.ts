/**
 * L2 replay into the venue: the real Binance USD-M BTCUSDT capture (hftbacktest, 5¾ min,
 * ~28,000 depth diffs and trades) played as external liquidity, with one account order resting
 * in the book so the queue model runs on every event. Files are read once (untimed); one op =
 * one replayed event. Skipped (no cases) when ../shared/data is missing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildReplaySimulationFrom, replayPlan, type BuiltReplaySimulation } from '../src/replay/l2/build-replay.ts';
import type { L2Event } from '../src/replay/l2/l2-event.ts';
import { loadL2Events } from '../src/replay/l2/l2-sources.ts';
import { parseScenario } from '../src/scenario/load.ts';
import type { BenchCase } from './harness.ts';

const FILE = join(import.meta.dirname, '../../shared/data/hftbacktest-binance-futures-raw/usdm/btcusdt_20240808.gz');

function l2Case(queueModel: 'risk-averse' | 'prob'): BenchCase {
  const scenario = parseScenario({
    name: 'l2-bench',
    start: '2024-08-08T23:54:15Z',
    duration: '6m',
    instruments: [{ symbol: 'BTCUSDT-PERP', tickSize: '0.0001', indexPrice: '61.8' }],
    users: [{ username: 'mm', password: 'pw', cash: '100000000' }],
    market: { replay: { format: 'binance', files: [FILE], symbolMap: { BTCUSDT: { symbol: 'BTCUSDT-PERP', lotSize: '0.001', tickSize: '0.1' } }, queueModel } },
  });
  let events: L2Event[] | undefined;
  let built: BuiltReplaySimulation | undefined;
  let wallMs = NaN;
  return {
    name: `l2replay.binance.${queueModel}`,
    unit: 'event',
    get opsPerRun() {
      return events?.length ?? 0;
    },
    iterations: 3,
    timeMs: 0,
    warmupIterations: 1,
    gcBetweenRuns: true,
    async setup() {
      events = await loadL2Events(replayPlan(scenario.market!.replay, scenario).files);
    },
    prepare() {},
    reset() {
      built = buildReplaySimulationFrom(scenario, events!);
      const { sim } = built;
      sim.start();
      // A bid 20 ticks under the first recorded touch: it waits in a recorded queue all along.
      sim.runUntil(sim.startNs + 2_000_000_000n);
      const m = sim.venue.market('BTCUSDT-PERP')!;
      sim.venue.placeOrderTicks(sim.venue.account('mm')!, m, 'B', m.book.bestBidTicks()! - 20, 1);
    },
    run() {
      const t0 = performance.now();
      built!.sim.runToEnd();
      wallMs = performance.now() - t0;
    },
    release() {},
    dispose() {
      built = undefined;
    },
    describe() {
      const stats = built?.replayer.stats;
      return `${stats?.events} events (${stats?.bookEvents} book, ${stats?.recordedTrades} trades) of 5¾ min replayed in ${(wallMs / 1000).toFixed(2)} s`;
    },
  };
}

/** The L2 replay cases (none without the shared recordings). */
export const l2ReplayCases = (): BenchCase[] => (existsSync(FILE) ? [l2Case('risk-averse'), l2Case('prob')] : []);
