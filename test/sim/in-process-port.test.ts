import { describe, expect, it } from 'vitest';
import { ConstantLatency } from '../../src/sim/latency.ts';
import { InProcessPort, PortError } from '../../src/sim/in-process-port.ts';
import { Simulation } from '../../src/sim/simulation.ts';
import { parseScenario } from '../../src/scenario/load.ts';
import type { MarketDataMessage } from '../../src/wire/market-data.ts';
import type { OrderFeed } from '../../src/wire/order.ts';

const MS = 1_000_000;

function setup(orderLatencyNs = 5 * MS, mdLatencyNs = 2 * MS) {
  const sim = new Simulation(
    parseScenario({
      name: 'port-test',
      instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' }],
      users: [
        { username: 'alice', password: 'pw', cash: '1000000' },
        { username: 'bob', password: 'pw', cash: '1000000' },
      ],
    }),
  );
  const port = (name: string) =>
    new InProcessPort(sim.venue, sim.venue.account(name)!, { orderLatency: new ConstantLatency(orderLatencyNs), marketDataLatency: new ConstantLatency(mdLatencyNs) });
  sim.start();
  return { sim, alice: port('alice'), bob: port('bob') };
}

describe('InProcessPort', () => {
  it('delivers an order to the venue one latency later and acknowledges it one more latency later', async () => {
    const { sim, alice } = setup();
    const t0 = sim.clock.nowNs;
    const feeds: { t: string; atNs: bigint }[] = [];
    alice.onOrderFeed((f: OrderFeed) => feeds.push({ t: f.t, atNs: sim.clock.nowNs }));
    let ackAt: bigint | undefined;
    const ack = alice.insertOrder({ symbol: 'BTCUSD-PERP', price: '49990', quantity: 2, side: 'B', timeInForce: 'GTC' }).then((id) => {
      ackAt = sim.clock.nowNs;
      return id;
    });
    sim.clock.runUntil(t0 + BigInt(4 * MS));
    expect(sim.venue.market('BTCUSD-PERP')!.book.orderCount).toBe(0); // still in flight
    sim.clock.runUntil(t0 + BigInt(5 * MS));
    expect(sim.venue.market('BTCUSD-PERP')!.book.orderCount).toBe(1);
    sim.clock.runUntil(t0 + BigInt(10 * MS));
    const id = await ack;
    expect(id).toMatch(/^O-[0-9A-Z]{26}$/);
    expect(ackAt).toBe(t0 + BigInt(10 * MS));
    expect(feeds).toEqual([{ t: 'n', atNs: t0 + BigInt(10 * MS) }]);
  });

  it('answers every insert with the id its feeds carry, also for orders that ended within their command (filled IOC, rejected)', async () => {
    const { sim, alice, bob } = setup(MS, MS);
    const feeds: OrderFeed[] = [];
    bob.onOrderFeed((f: OrderFeed) => feeds.push(f));
    void alice.insertOrder({ symbol: 'BTCUSD-PERP', price: '49990', quantity: 3, side: 'S', timeInForce: 'GTC' });
    sim.clock.runUntil(sim.clock.nowNs + BigInt(MS));
    const ids = [
      bob.insertOrder({ symbol: 'BTCUSD-PERP', price: '49990', quantity: 2, side: 'B', timeInForce: 'IOC' }), // filled at once
      bob.insertOrder({ symbol: 'BTCUSD-PERP', price: '49990.25', quantity: 1, side: 'B', timeInForce: 'GTC' }), // off the tick grid: rejected
      bob.insertOrder({ symbol: 'BTCUSD-PERP', price: '49000', quantity: 1, side: 'B', timeInForce: 'GTC' }), // rests
    ];
    sim.clock.runUntil(sim.clock.nowNs + BigInt(3 * MS));
    const [filled, rejected, resting] = await Promise.all(ids);
    const idsOf = (t: string) => feeds.filter((f) => f.t === t).map((f) => f.o!.oid);
    expect(idsOf('f')).toEqual([filled]);
    expect(idsOf('j')).toEqual([rejected]);
    expect(idsOf('n')).toEqual([filled, resting]);
    expect(new Set([filled, rejected, resting]).size).toBe(3);
    expect(sim.venue.findOpenOrder(sim.venue.account('bob')!, resting!)?.id).toBe(resting);
  });

  it('sends stats and the book after subscribe, then one coalesced update per instant', () => {
    const { sim, alice, bob } = setup(0, 0);
    const seen: MarketDataMessage[] = [];
    alice.onMarketData((m) => seen.push(m));
    void alice.subscribe('BTCUSD-PERP', 'LEVEL_2');
    sim.clock.runUntil(sim.clock.nowNs);
    expect(seen.map((m) => m.t)).toEqual(['s', '2']);
    void bob.insertOrder({ symbol: 'BTCUSD-PERP', price: '50010', quantity: 1, side: 'S', timeInForce: 'GTC' });
    void bob.insertOrder({ symbol: 'BTCUSD-PERP', price: '50020', quantity: 3, side: 'S', timeInForce: 'GTC' });
    sim.clock.runUntil(sim.clock.nowNs);
    const books = seen.filter((m) => m.t === '2');
    expect(books).toHaveLength(2);
    expect(books[1]).toMatchObject({ s: 'BTCUSD-PERP', b: [], a: [{ p: '50010', q: 1 }, { p: '50020', q: 3 }] });
  });

  it('rejects the promise of a query the venue refuses', async () => {
    const { sim, alice } = setup(0, 0);
    const result = alice.subscribe('NOPE-PERP', 'LEVEL_1').catch((e: unknown) => e);
    sim.clock.runUntil(sim.clock.nowNs);
    expect(await result).toBeInstanceOf(PortError);
  });

  it('runs timers on the sim clock and lets them be canceled', () => {
    const { sim, alice } = setup();
    const fired: string[] = [];
    alice.setTimer(1000, () => fired.push('a'));
    const cancel = alice.setTimer(2000, () => fired.push('b'));
    cancel();
    sim.clock.runUntil(sim.clock.nowNs + 5000n);
    expect(fired).toEqual(['a']);
  });
});
