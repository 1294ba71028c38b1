import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.ts';
import { buildSimulationParts } from '../../src/sim/build.ts';

const MIN = 60_000_000_000n;

describe('the flash-crash scenario', () => {
  it('liquidates a leveraged crowd in a crash, then recovers', { timeout: 60_000 }, () => {
    const { sim, agents } = buildSimulationParts(loadScenario('flash-crash'), { durationNs: 55n * MIN });
    const market = sim.venue.market('BTCUSD-PERP')!;
    const crowd = agents.filter((a) => a.kind === 'crowd');
    const crowdIds = new Set(crowd.map((a) => sim.venue.account(a.name)!.id));
    let liquidationOrders = 0;
    let lowestTrade = Infinity;
    sim.venue.subscribe({
      orderFeed: (user, feed) => void (feed.t === 'n' && feed.o?.liq && crowdIds.has(user) && liquidationOrders++),
      trade: (t) => void (lowestTrade = Math.min(lowestTrade, t.priceTicks)),
    });
    const net = () => crowd.reduce((n, a) => n + (sim.venue.account(a.name)!.positionList[0]?.position.netLots ?? 0), 0);

    sim.runUntil(sim.startNs + 44n * MIN);
    const before = market.indexTicks;
    expect(crowd).toHaveLength(40);
    expect(net()).toBeGreaterThan(150); // the crowd is in, long
    expect(sim.venue.liquidationCount).toBe(0);

    sim.runUntil(sim.startNs + 47n * MIN);
    expect(market.indexTicks).toBeLessThan(before * 0.97);
    expect(liquidationOrders).toBeGreaterThan(5);
    const liquidated = crowd.filter((a) => (sim.venue.account(a.name)!.positionList[0]?.position.netLots ?? 0) < 5).length;
    expect(liquidated).toBeGreaterThanOrEqual(5);
    expect(lowestTrade).toBeLessThan(before * 0.965);

    sim.runToEnd();
    expect(market.indexTicks).toBeGreaterThan(before * 0.98); // the rebound
    expect(Math.abs(market.markTicks - market.indexTicks) / market.indexTicks).toBeLessThan(0.001);
    const { bid, ask } = market.book.l1();
    expect(ask!.priceTicks - bid!.priceTicks).toBeLessThan(10);
  });
});
