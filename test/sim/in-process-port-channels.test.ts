import { describe, expect, it } from 'vitest';
import { InProcessPort } from '../../src/sim/in-process-port.ts';
import type { LatencyModel } from '../../src/sim/latency.ts';
import { aliceAndBob } from './alice-and-bob.ts';
import type { MarketDataMessage } from '../../src/wire/market-data.ts';
import type { OrderFeed } from '../../src/wire/order.ts';

const MS = 1_000_000;

/** Latencies taken in turn from a list (then the last one forever). */
class ScriptedLatency implements LatencyModel {
  private i = 0;
  constructor(private readonly ns: number[]) {}
  sampleNs(): number {
    return this.ns[Math.min(this.i++, this.ns.length - 1)]!;
  }
}

function setup(orderLatency: LatencyModel, marketDataLatency: LatencyModel) {
  const sim = aliceAndBob('channels');
  const alice = new InProcessPort(sim.venue, sim.venue.account('alice')!, { orderLatency, marketDataLatency });
  return { sim, alice };
}

describe('InProcessPort channels', () => {
  it('delivers requests in the order they were sent, even when a later one drew a shorter latency', () => {
    // Request 1 draws 9 ms, request 2 draws 1 ms: request 2 still reaches the venue after request 1.
    const { sim, alice } = setup(new ScriptedLatency([9 * MS, 1 * MS, 1 * MS]), new ScriptedLatency([0]));
    const prices: string[] = [];
    alice.onOrderFeed((f: OrderFeed) => void (f.t === 'n' && prices.push(f.o!.p)));
    void alice.insertOrder({ symbol: 'BTCUSD-PERP', price: '49000', quantity: 1, side: 'B', timeInForce: 'GTC' });
    void alice.insertOrder({ symbol: 'BTCUSD-PERP', price: '49001', quantity: 1, side: 'B', timeInForce: 'GTC' });
    sim.clock.runUntil(sim.clock.nowNs + BigInt(50 * MS));
    expect(prices).toEqual(['49000', '49001']);
  });

  it('delivers an order’s feeds in the order the venue produced them', () => {
    // The request draws 0, the acknowledgement 8 ms, the fill 1 ms: the fill would otherwise overtake it.
    const lat = new ScriptedLatency([0, 8 * MS, 1 * MS, 1 * MS]);
    const { sim, alice } = setup(lat, new ScriptedLatency([0]));
    const bob = sim.venue.account('bob')!;
    const market = sim.venue.market('BTCUSD-PERP')!;
    sim.venue.placeOrderTicks(bob, market, 'S', 100_000, 5);
    const feeds: string[] = [];
    alice.onOrderFeed((f: OrderFeed) => feeds.push(f.t));
    void alice.insertOrder({ symbol: 'BTCUSD-PERP', price: '50000', quantity: 2, side: 'B', timeInForce: 'IOC' });
    sim.clock.runUntil(sim.clock.nowNs + BigInt(50 * MS));
    expect(feeds).toEqual(['n', 'f']);
  });

  it('skips a LEVEL_1 update when the top of book did not change', () => {
    const { sim, alice } = setup(new ScriptedLatency([0]), new ScriptedLatency([0]));
    const bob = sim.venue.account('bob')!;
    const market = sim.venue.market('BTCUSD-PERP')!;
    const books: MarketDataMessage[] = [];
    alice.onMarketData((m) => void (m.t === '1' && books.push(m)));
    void alice.subscribe('BTCUSD-PERP', 'LEVEL_1');
    sim.clock.runUntil(sim.clock.nowNs + 1n);
    expect(books).toHaveLength(1); // the snapshot after subscribing
    const step = () => sim.clock.runUntil(sim.clock.nowNs + 1000n);
    sim.clock.scheduleIn(10, () => sim.venue.placeOrderTicks(bob, market, 'S', 100_010, 1)); // new top
    step();
    sim.clock.scheduleIn(10, () => sim.venue.placeOrderTicks(bob, market, 'S', 100_020, 1)); // deeper: top unchanged
    step();
    sim.clock.scheduleIn(10, () => sim.venue.placeOrderTicks(bob, market, 'S', 100_010, 2)); // more at the top
    step();
    expect(books.map((b) => (b.t === '1' ? b.a : []))).toEqual([[], [{ p: '50005', q: 1 }], [{ p: '50005', q: 3 }]]);
  });
});
