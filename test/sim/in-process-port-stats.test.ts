import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RandomStream } from '../../src/random/random-stream.ts';
import { InProcessPort } from '../../src/sim/in-process-port.ts';
import { LogNormalLatency } from '../../src/sim/latency.ts';
import { aliceAndBob, BTC } from './alice-and-bob.ts';
import { attachStrategy } from '../../src/strategy/strategy.ts';
import type { MarketDataLevel } from '../../src/wire/market-data.ts';

const MS = 1_000_000;
const SYMBOL = BTC;

/** Orders bob sends at given milliseconds: resting and crossing, so trades (stats) and book changes mix. */
const orders = fc.array(
  fc.record({ atMs: fc.integer({ min: 0, max: 30 }), side: fc.constantFrom<'B' | 'S'>('B', 'S'), offsetTicks: fc.integer({ min: -4, max: 4 }), qty: fc.integer({ min: 1, max: 3 }) }),
  { minLength: 1, maxLength: 30 },
);

/**
 * Alice subscribes at `level` and listens with stats or without; bob trades. Returns what
 * alice heard (with arrival times) and the venue's state hash.
 */
function run(script: { atMs: number; side: 'B' | 'S'; offsetTicks: number; qty: number }[], level: MarketDataLevel, stats: boolean): { heard: string[]; hash: string } {
  const sim = aliceAndBob('stats');
  const alice = new InProcessPort(sim.venue, sim.venue.account('alice')!, { marketDataLatency: new LogNormalLatency(new RandomStream('md'), 1 * MS, 0.5 * MS) });
  const heard: string[] = [];
  alice.onMarketData((m) => heard.push(`${sim.clock.nowNs} ${JSON.stringify(m)}`), { stats });
  void alice.subscribe(SYMBOL, level);
  const bob = sim.venue.account('bob')!;
  const market = sim.venue.market(SYMBOL)!;
  const start = sim.clock.nowNs;
  for (const o of script) sim.clock.scheduleAt(start + BigInt(o.atMs * MS), () => void sim.venue.placeOrderTicks(bob, market, o.side, 100_000 + o.offsetTicks, o.qty));
  sim.clock.runUntil(start + BigInt(100 * MS));
  return { heard, hash: sim.venue.stateHash() };
}

describe('market data for a handler that takes no stats', () => {
  it('is every other message, at the same sim times, as if stats had been sent and ignored', () => {
    fc.assert(
      fc.property(orders, fc.constantFrom<MarketDataLevel>('LEVEL_1', 'LEVEL_2'), (script, level) => {
        const all = run(script, level, true);
        const noStats = run(script, level, false);
        expect(all.heard.some((m) => m.includes('"t":"s"'))).toBe(true); // the subscription's stats at least
        expect(noStats.heard).toEqual(all.heard.filter((m) => !m.includes('"t":"s"')));
        expect(noStats.hash).toBe(all.hash);
      }),
      { numRuns: 120, seed: 0x57a7 },
    );
  });

  it('is asked for by attachStrategy exactly when the strategy has no onStats', async () => {
    const seen: (boolean | undefined)[] = [];
    const port = { onOrderFeed: () => () => {}, onMarketData: (_h: unknown, o?: { stats?: boolean }) => (seen.push(o?.stats), () => {}) };
    await attachStrategy({ onStart() {} }, port as never);
    await attachStrategy({ onStart() {}, onStats() {} }, port as never);
    expect(seen).toEqual([false, true]);
  });
});
