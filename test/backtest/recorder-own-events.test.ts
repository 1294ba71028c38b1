import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import marketMaker, { paramsSchema } from '../../examples/market-maker.ts';
import { TouchTracker } from '../../src/backtest/market-watch.ts';
import type { OrderCounts } from '../../src/backtest/recorder.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { loadScenario } from '../../src/scenario/load.ts';
import type { Simulation } from '../../src/sim/simulation.ts';

// The backtest's recorder hears its account's own order events through the port hub, which
// routes each event to its user's sinks only, and reads the touch once per book change for the
// touch tracker and the markouts. The reference is the recorder as it was: a venue listener told
// every order event of the run, keeping those of the account, and a touch tracker reading the
// book itself at every book change. Same counts, fills and time at the touch.

const S = 1_000_000_000n;

interface Reference {
  orders: OrderCounts;
  fills: number;
  touch: TouchTracker[];
}

/**
 * What the recorder counted, counted by a listener that filters every order event by user, up to
 * the run's end (the recorder stops there; the strategy's onStop cancels after it, with latency).
 */
function reference(sim: Simulation, username: string): Reference {
  const account = sim.venue.account(username)!;
  const out: Reference = { orders: { submitted: 0, accepted: 0, rejected: 0, acceptedLots: 0, canceled: 0, rejectReasons: {} }, fills: 0, touch: sim.venue.markets.map((m) => new TouchTracker(m, sim.clock.nowNs)) };
  sim.venue.subscribe({
    orderEvent: (e) => {
      if (e.userId !== account.id || sim.clock.nowNs > sim.endNs) return;
      const market = e.plainMarket();
      if (market !== undefined) out.touch[market.index]!.onOrder(e, sim.clock);
      const feed = e.feed();
      if (feed.t === 'n') (out.orders.submitted++, out.orders.accepted++, (out.orders.acceptedLots += feed.o?.q ?? 0));
      else if (feed.t === 'j') {
        out.orders.submitted++;
        out.orders.rejected++;
        const reason = feed.r === undefined || feed.r === 'UNKNOWN' ? (feed.txt === undefined ? (feed.r ?? 'UNKNOWN') : `UNKNOWN (${feed.txt})`) : feed.r;
        out.orders.rejectReasons[reason] = (out.orders.rejectReasons[reason] ?? 0) + 1;
      }
      else if (feed.t === 'c') out.orders.canceled++;
      else if (feed.t === 'p' || feed.t === 'f') out.fills++;
    },
    bookChanged: (market) => {
      if (sim.clock.nowNs <= sim.endNs) out.touch[market.index]!.check(sim.clock);
    },
  });
  return out;
}

describe("the backtest recorder's own order events", () => {
  it('are the ones a listener filtering every order event by user keeps: same counts, fills and time at the touch', async () => {
    let fills = 0;
    let orders = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({ halfSpreadTicks: fc.integer({ min: 0, max: 6 }), requoteMs: fc.integer({ min: 5, max: 200 }), maxInventoryLots: fc.integer({ min: 1, max: 4 }) }),
        fc.constantFrom('default', 'thin-book'),
        fc.integer({ min: 1, max: 1_000 }),
        async (params, scenario, seed) => {
          let ref: Reference | undefined;
          const result = await runBacktest(marketMaker(paramsSchema.parse({ ...params, halfSpreadTicks: params.halfSpreadTicks + 0.5, symbol: scenario === 'thin-book' ? 'ETHUSD-PERP' : 'BTCUSD-PERP' })), {
            scenario: loadScenario(scenario),
            seed,
            durationNs: 60n * S,
            setup: (sim) => (ref = reference(sim, 'strategy')),
          });
          const endNs = result.endNs;
          for (const t of ref!.touch) t.close(endNs);
          expect(result.orders).toEqual(ref!.orders);
          expect(result.fills.length).toBe(ref!.fills);
          expect(result.touchTimes).toEqual(ref!.touch.map((t) => ({ ...t.time })));
          fills += result.fills.length;
          orders += result.orders.submitted;
        },
      ),
      { numRuns: 6, seed: 16 },
    );
    // The runs quote and fill: the counts compared are not all zero.
    expect(Math.min(fills, orders)).toBeGreaterThan(10);
  }, 120_000);
});
