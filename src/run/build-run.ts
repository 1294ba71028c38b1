import type { LatencyModelSpec, Scenario } from '../scenario/schema.ts';
import { buildSimulationParts, type BuiltSimulation } from '../sim/build.ts';
import type { LatencyModel } from '../sim/latency.ts';
import { DEFAULT_LATENCY, latencyModelOf } from '../sim/latency-spec.ts';
import type { L2Event } from '../replay/l2/l2-event.ts';
import type { L2Replayer } from '../replay/l2/l2-replayer.ts';

/** Options of {@link buildRun}. */
export interface RunOptions {
  /** Overrides the scenario's seed. */
  seed?: number;
  /** Overrides the scenario's duration. */
  durationNs?: bigint;
  /** Recorded events already read (a `--replay` run, or several runs of one recording). */
  replayEvents?: readonly L2Event[];
}

/** Latency overrides of a port added after the build (a backtest's `--latency` flags). */
export interface PortLatencySpec {
  order?: LatencyModelSpec | undefined;
  marketData?: LatencyModelSpec | undefined;
}

/** The two latency models of one in-process port. */
export interface PortLatency {
  orderLatency: LatencyModel;
  marketDataLatency: LatencyModel;
}

/** A built run: the simulation with its actors, the replayer when the market is recorded, and what late ports need. */
export interface BuiltRun extends BuiltSimulation {
  replayer: L2Replayer | undefined;
  /**
   * The latency of a port added after the build for user `username` (a backtest's strategy):
   * the overrides, else the scenario's, else the default; on a recorded market the market data
   * comes with the recorded feed delay (or the replay's model), as the agents see it.
   */
  portLatency(username: string, overrides?: PortLatencySpec): PortLatency;
}

/**
 * The one builder from a scenario to a ready-to-run simulation: synthetic markets (index
 * processes and agents) or recorded ones (`market.replay`, read first, hence async). `run`,
 * `serve`, `backtest` and `live`-style ports all start here, so none of them branches on the
 * scenario's kind of market.
 *
 * @throws RangeError / Error as `buildSimulationParts` and `buildReplaySimulation` do.
 */
export async function buildRun(scenario: Scenario, options: RunOptions = {}): Promise<BuiltRun> {
  const buildOptions: { seed?: number; durationNs?: bigint } = {};
  if (options.seed !== undefined) buildOptions.seed = options.seed;
  if (options.durationNs !== undefined) buildOptions.durationNs = options.durationNs;
  if (scenario.market === undefined) {
    const parts = buildSimulationParts(scenario, buildOptions);
    return { ...parts, replayer: undefined, portLatency: portLatencyOf(parts, scenario, undefined) };
  }
  const replayOptions = options.replayEvents === undefined ? buildOptions : { ...buildOptions, events: options.replayEvents };
  // Loaded only for a recorded market: its readers (Arrow, CSV, the replay engine) are a
  // fifth of `perpsim run`'s start-up, which a synthetic run does not need.
  const { buildReplaySimulation } = await import('../replay/l2/build-replay.ts');
  const built = await buildReplaySimulation(scenario, replayOptions);
  const md = scenario.market.replay.latency.marketData;
  const recorded = md === 'recorded' ? built.recordedMarketDataLatency : undefined;
  const lateScenario = md === 'recorded' ? scenario : { ...scenario, latency: { ...scenario.latency, marketData: md } };
  return { ...built, portLatency: portLatencyOf(built, lateScenario, recorded) };
}

function portLatencyOf(parts: BuiltSimulation, scenario: Scenario, recordedMarketData: LatencyModel | undefined): BuiltRun['portLatency'] {
  return (username, overrides = {}) => {
    const streams = parts.sim.streams;
    const orderLatency = latencyModelOf(overrides.order ?? scenario.latency?.order ?? DEFAULT_LATENCY, streams.get(`latency:${username}:order`), parts.sim.venue);
    const marketDataLatency =
      overrides.marketData === undefined && recordedMarketData !== undefined
        ? recordedMarketData
        : latencyModelOf(overrides.marketData ?? scenario.latency?.marketData ?? DEFAULT_LATENCY, streams.get(`latency:${username}:md`), parts.sim.venue);
    return { orderLatency, marketDataLatency };
  };
}
