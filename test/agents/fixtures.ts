import { parseScenario } from '../../src/scenario/load.ts';
import type { Scenario } from '../../src/scenario/schema.ts';
import { buildSimulationParts, type BuiltSimulation } from '../../src/sim/build.ts';
import type { Market } from '../../src/venue/market.ts';

/** A one-instrument scenario (BTCUSD-PERP, tick 0.5, index 50000, flat unless given) with `extra` merged in. */
export function smallScenario(extra: Record<string, unknown>): Scenario {
  return parseScenario({
    name: 'agent-test',
    duration: '1h',
    instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' }],
    users: [{ username: 'alice', password: 'pw', cash: '100000000' }],
    latency: { order: { floorMs: 1, jitterMs: 0.2 }, marketData: { floorMs: 1, jitterMs: 0.2 } },
    ...extra,
  });
}

/** Builds the scenario and starts it. */
export function started(scenario: Scenario, seed?: number): BuiltSimulation {
  const built = buildSimulationParts(scenario, seed === undefined ? {} : { seed });
  built.sim.start();
  return built;
}

/** Advances the run by `sec` seconds of sim time. */
export function runFor(built: BuiltSimulation, sec: number): void {
  built.sim.runUntil(built.sim.clock.nowNs + BigInt(Math.round(sec * 1e9)));
}

/** Best bid and ask of a market in ticks, with the owners' usernames at the touch. */
export function touch(market: Market): { bid: number | undefined; ask: number | undefined } {
  const { bid, ask } = market.book.l1();
  return { bid: bid?.priceTicks, ask: ask?.priceTicks };
}
