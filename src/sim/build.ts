import type { AgentEnvironment, AgentMarket, IndexOracle } from '../agents/environment.ts';
import { MarketConditions } from '../agents/market-conditions.ts';
import { parseMoney } from '../core/money.ts';
import { parseTimestamp } from '../core/time.ts';
import { createIndexProcess, type IndexProcessSpec } from '../market/index/create.ts';
import type { IndexSpec, LatencyModelSpec, Scenario } from '../scenario/schema.ts';
import { attachStrategy, type Strategy } from '../strategy/strategy.ts';
import { createAgent } from './agent-factory.ts';
import { AgentIndexFeed } from './agent-index-feed.ts';
import { IndexActor } from './index-actor.ts';
import { InProcessPort } from './in-process-port.ts';
import type { LatencyModel } from './latency.ts';
import { DEFAULT_LATENCY, latencyModelOf } from './latency-spec.ts';
import { installShocks } from './shocks.ts';
import { Simulation } from './simulation.ts';

/** Cash of an agent's account when its group gives none. */
export const DEFAULT_AGENT_CASH = '100000000';

/** One agent of a built simulation. */
export interface BuiltAgent {
  name: string;
  /** Agent group kind, or `crowd` for the members of a liquidation cascade. */
  kind: string;
  strategy: Strategy;
  port: InProcessPort;
}

/** A simulation with handles on what the builder put into it (for tests and reports). */
export interface BuiltSimulation {
  sim: Simulation;
  agents: BuiltAgent[];
  indexActors: Map<string, IndexActor>;
  conditions: MarketConditions;
}

/**
 * Builds a ready-to-run simulation from a scenario: the venue with its instruments and users,
 * one index actor per instrument (stepping its process and setting the venue's index), every
 * agent as a strategy on its own user and in-process port with its own latency and random
 * stream, and the scheduled shocks. Same scenario + seed → the same run, event for event.
 *
 * @param options.seed overrides the scenario's seed.
 * @param options.durationNs overrides the scenario's duration.
 * @throws RangeError naming the field when a parameter is out of range, or Error when a
 *   recorded index's file was not loaded (use `loadScenario`).
 */
export function buildSimulation(scenario: Scenario, options: { seed?: number; durationNs?: bigint; groupNotes?: boolean; groupRequests?: boolean } = {}): Simulation {
  return buildSimulationParts(scenario, options).sim;
}

/** Options of the builders. */
export interface BuildOptions {
  /** Overrides the scenario's seed. */
  seed?: number;
  /** Overrides the scenario's duration. */
  durationNs?: bigint;
  /** Market-data latency of every agent (a replay's recorded feed delay), instead of the scenario's. */
  marketDataLatency?: LatencyModel;
  /**
   * Agents' ports deliver notes that arrive together in one clock event (`InProcessPortOptions.groupNotes`;
   * default true). False only to compare with the one-event-per-note path (tests).
   */
  groupNotes?: boolean;
  /** Agents' one-way requests likewise (`InProcessPortOptions.groupRequests`; default true). */
  groupRequests?: boolean;
}

/** `buildSimulation`, also returning the agents, index actors and market conditions. */
export function buildSimulationParts(scenario: Scenario, options: BuildOptions = {}): BuiltSimulation {
  if (scenario.market !== undefined) throw new Error(`scenario ${scenario.name} replays a recorded market: build it with buildReplaySimulation (src/replay/l2/build-replay.ts)`);
  const sim = new Simulation(scenario, options);
  const actors = new Map<string, IndexActor>();
  for (const [i, inst] of scenario.instruments.entries()) {
    const market = sim.venue.markets[i]!;
    const spec = inst.index ?? scenario.index ?? { kind: 'flat' as const };
    const process = createIndexProcess(toProcessSpec(spec, inst.symbol), sim.streams.get(`index:${inst.symbol}`), Number(inst.indexPrice), sim.startNs);
    const actor = new IndexActor(sim.clock, sim.venue, market, process, {
      intervalNs: (spec.updateIntervalMs ?? 1000) * 1_000_000,
      lookaheadSec: spec.lookaheadSec ?? 10,
      frozenWhenClosed: spec.frozenWhenClosed ?? true,
    });
    actors.set(inst.symbol, actor);
    sim.onStart(() => actor.start());
  }

  const conditions = new MarketConditions();
  const agents: BuiltAgent[] = [];
  const addAgent = (name: string, kind: string, symbols: string[], cash: string, latency: { order?: LatencyModelSpec | undefined; marketData?: LatencyModelSpec | undefined } | undefined, make: (env: AgentEnvironment & { index: IndexOracle }) => Strategy) => {
    const account = sim.venue.addUser(name, parseMoney(cash));
    const orderLatency = latencyModelOf(latency?.order ?? scenario.latency?.order ?? DEFAULT_LATENCY, sim.streams.get(`latency:${name}:order`), sim.venue);
    const marketDataLatency = options.marketDataLatency ?? latencyModelOf(latency?.marketData ?? scenario.latency?.marketData ?? DEFAULT_LATENCY, sim.streams.get(`latency:${name}:md`), sim.venue);
    const port = new InProcessPort(sim.venue, account, { orderLatency, marketDataLatency, groupNotes: options.groupNotes ?? true, groupRequests: options.groupRequests ?? true });
    const markets: AgentMarket[] = symbols.map((symbol) => {
      const m = sim.venue.market(symbol)!;
      // The market's own string (equal text, one object): the notes and tops the port hands the
      // agent carry it, and equal strings that are one object compare (`===`, a map's key) by
      // pointer, where two copies of an 11-character symbol compared their characters every time.
      return { symbol: m.symbol, tick: m.instrument.tick, minQtyLots: m.instrument.minimumTradeQuantity };
    });
    const feed = new AgentIndexFeed(sim.clock, symbols.map((s) => actors.get(s)!), marketDataLatency);
    const strategy = make({ name, rng: sim.streams.get(name), markets, index: feed });
    agents.push({ name, kind, strategy, port });
    sim.onStart(() => void attachStrategy(strategy, port));
  };

  for (const group of scenario.agents) {
    for (let k = 1; k <= group.count; k++) {
      addAgent(`${group.name ?? group.kind}-${k}`, group.kind, group.symbols, group.cash ?? DEFAULT_AGENT_CASH, group.latency, (env) => createAgent(group, env, conditions));
    }
  }
  installShocks(sim, scenario.shocks, actors, conditions, (name, symbols, cash, make) => addAgent(name, 'crowd', symbols, cash, undefined, make));
  return { sim, agents, indexActors: actors, conditions };
}

/** The market layer's spec of an index: recorded times resolved to ns. */
function toProcessSpec(spec: IndexSpec, symbol: string): IndexProcessSpec {
  if (spec.kind !== 'recorded') return spec;
  if (spec.points === undefined) throw new Error(`${symbol}: the recorded index file ${spec.file} was not loaded (load the scenario with loadScenario)`);
  return {
    kind: 'recorded',
    points: spec.points.map((p, i) => {
      const tNs = typeof p.time === 'number' ? BigInt(Math.round(p.time * 1e6)) * 1000n : parseTimestamp(p.time);
      if (tNs === undefined) throw new RangeError(`${symbol}: index points[${i}].time is not a date-time`);
      return { tNs, price: p.price };
    }),
  };
}
