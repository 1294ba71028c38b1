import { join } from 'node:path';
import { buildReplaySimulation, replayPlan, type BuiltReplaySimulation } from '../../src/replay/l2/build-replay.ts';
import type { L2Event } from '../../src/replay/l2/l2-event.ts';
import { loadL2Events } from '../../src/replay/l2/l2-sources.ts';
import type { QueueModelSpec } from '../../src/replay/l2/queue-model.ts';
import { parseScenario } from '../../src/scenario/load.ts';
import type { Scenario } from '../../src/scenario/schema.ts';
import type { VenueTrade } from '../../src/venue/feeds.ts';
import { sharedFolder } from './shared-data.ts';

/** The Binance USD-M BTCUSDT capture (hftbacktest): real depth diffs, trades and a REST snapshot. */
export const binance = sharedFolder('hftbacktest-binance-futures-raw', 'L2 replay of a real Binance USD-M BTCUSDT capture');
export const BTC_FILE = join(binance.dir, 'usdm/btcusdt_20240808.gz');
export const SYMBOL = 'BTCUSDT-PERP';
/** Just before the capture's first exchange time (23:54:16.3). */
export const START = '2024-08-08T23:54:15Z';
export const START_NS = 1723161255_000_000_000n;
export const SECOND = 1_000_000_000n;

/** A replay scenario on the capture with one user, `alice`. */
export function btcScenario(queueModel: QueueModelSpec = 'risk-averse', extra: Record<string, unknown> = {}): Scenario {
  return parseScenario({
    name: 'l2-replay-test',
    seed: 7,
    start: START,
    duration: '6m',
    // Quoted per lot (0.001 BTC) so margin, fees and PnL are exact: one recorded 0.1 step = one 0.0001 tick.
    instruments: [{ symbol: SYMBOL, tickSize: '0.0001', indexPrice: '61.8' }],
    users: [{ username: 'alice', password: 'pw', cash: '100000000' }],
    market: { replay: { format: 'binance', files: [BTC_FILE], symbolMap: { BTCUSDT: { symbol: SYMBOL, lotSize: '0.001', tickSize: '0.1' } }, queueModel } },
    ...extra,
  });
}

let loaded: Promise<L2Event[]> | undefined;

/** The capture's events, read once per test file. */
export function btcEvents(): Promise<L2Event[]> {
  const s = btcScenario();
  return (loaded ??= loadL2Events(replayPlan(s.market!.replay, s).files));
}

/** A started replay of the capture; `trades` collects every trade the venue prints. */
export async function startBtcReplay(scenario: Scenario = btcScenario()): Promise<BuiltReplaySimulation & { trades: VenueTrade[] }> {
  const built = await buildReplaySimulation(scenario, { events: await btcEvents() });
  const trades: VenueTrade[] = [];
  built.sim.venue.subscribe({ trade: (t) => void trades.push({ ...t }) });
  built.sim.start();
  return { ...built, trades };
}

/** Runs clock events one at a time up to `tNs`, calling `after` after each. */
export function stepUntil(built: BuiltReplaySimulation, tNs: bigint, after: () => void = () => {}): void {
  const clock = built.sim.clock;
  for (let next = clock.nextEventNs(); next !== undefined && next <= tNs; next = clock.nextEventNs()) {
    clock.step();
    after();
  }
}
