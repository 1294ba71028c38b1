import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConstantLatency } from '../../src/sim/latency.ts';
import { InProcessPort, PortError } from '../../src/sim/in-process-port.ts';
import { Simulation } from '../../src/sim/simulation.ts';
import { parseScenario } from '../../src/scenario/load.ts';
import type { NewOrder } from '../../src/wire/order.ts';

const MS = 1_000_000;
const VALID = { symbol: 'BTCUSD-PERP', price: '49990', quantity: 2, side: 'B', timeInForce: 'GTC' } as const;

function setup() {
  const sim = new Simulation(
    parseScenario({
      name: 'order-shape',
      instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' }],
      users: [{ username: 'alice', password: 'pw', cash: '1000000' }],
    }),
  );
  const port = new InProcessPort(sim.venue, sim.venue.account('alice')!, { orderLatency: new ConstantLatency(MS), marketDataLatency: new ConstantLatency(MS) });
  sim.start();
  return { sim, port };
}

/** Places `order` (as a JavaScript strategy could hand it over) and runs the clock until it is answered. */
async function place(order: unknown): Promise<{ ok: true; id: string } | { ok: false; error: unknown }> {
  const { sim, port } = setup();
  const answer = port.insertOrder(order as NewOrder).then(
    (id) => ({ ok: true as const, id }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  sim.clock.runUntil(sim.clock.nowNs + BigInt(10 * MS));
  const outcome = await answer;
  if (!outcome.ok) expect(sim.venue.market('BTCUSD-PERP')!.book.orderCount).toBe(0);
  return outcome;
}

describe('an order of the wrong shape handed to the in-process port', () => {
  it('is refused with a PortError naming the field, after the round trip, instead of crashing the venue', async () => {
    const missingPrice = await place({ ...VALID, price: undefined });
    expect(missingPrice.ok).toBe(false);
    expect(!missingPrice.ok && missingPrice.error).toBeInstanceOf(PortError);
    expect(!missingPrice.ok && (missingPrice.error as Error).message).toBe('invalid order: price must be a decimal string');
    const numericPrice = await place({ ...VALID, price: 49990 });
    expect(!numericPrice.ok && (numericPrice.error as Error).message).toBe('invalid order: price must be a decimal string');
    const fractionalQty = await place({ ...VALID, quantity: 1.5 });
    expect(!fractionalQty.ok && (fractionalQty.error as Error).message).toBe('invalid order: quantity must be an integer');
    expect((await place(VALID)).ok).toBe(true);
  });

  it('never throws out of the clock for any value in any field (fast-check, seeded)', async () => {
    const field = fc.constantFrom('symbol', 'price', 'quantity', 'side', 'timeInForce', 'postOnly');
    await fc.assert(
      fc.asyncProperty(field, fc.anything(), async (key, value) => {
        const outcome = await place({ ...VALID, [key]: value });
        if (!outcome.ok) expect(outcome.error).toBeInstanceOf(Error);
      }),
      { seed: 17, numRuns: 200 },
    );
  });
});
