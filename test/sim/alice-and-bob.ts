import { parseScenario } from '../../src/scenario/load.ts';
import { Simulation } from '../../src/sim/simulation.ts';

/** The one instrument of {@link aliceAndBob}. */
export const BTC = 'BTCUSD-PERP';

/**
 * A started simulation of one instrument (BTCUSD-PERP, tick 0.5, index 50,000) with two
 * users, alice and bob, each holding `cash`: the venue the in-process port tests trade on.
 */
export function aliceAndBob(name: string, cash = '1000000'): Simulation {
  const sim = new Simulation(
    parseScenario({
      name,
      instruments: [{ symbol: BTC, tickSize: '0.5', indexPrice: '50000' }],
      users: [
        { username: 'alice', password: 'pw', cash },
        { username: 'bob', password: 'pw', cash },
      ],
    }),
  );
  sim.start();
  return sim;
}
