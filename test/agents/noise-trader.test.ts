import { describe, expect, it } from 'vitest';
import type { OrderFeed } from '../../src/wire/order.ts';
import { runFor, smallScenario, started } from './fixtures.ts';

describe('a noise trader', () => {
  it('arrives as a Poisson process with marketable and passive orders of heavy-tailed size', () => {
    const built = started(
      smallScenario({
        agents: [
          { kind: 'market-maker', name: 'mm', symbols: ['BTCUSD-PERP'], params: { levels: 5, sizeLots: 20, maxInventoryLots: 100000 } },
          { kind: 'noise-trader', name: 'noise', symbols: ['BTCUSD-PERP'], params: { ratePerSec: 2, marketableProbability: 0.5, sizeMinLots: 1, sizeAlpha: 1.2, sizeMaxLots: 100 } },
        ],
      }),
    );
    const noise = built.sim.venue.account('noise-1')!;
    const accepted: OrderFeed[] = [];
    let takerTrades = 0;
    let canceled = 0;
    built.sim.venue.subscribe({
      orderFeed: (user, feed) => {
        if (user !== noise.id) return;
        if (feed.t === 'n') accepted.push(feed);
        if (feed.t === 'c') canceled++;
      },
      trade: (t) => void (t.takerUserId === noise.id && takerTrades++),
    });
    runFor(built, 600);
    // About 2 per second over 600 s, Poisson: 1200 ± 3·√1200.
    expect(accepted.length).toBeGreaterThan(1100);
    expect(accepted.length).toBeLessThan(1300);
    const ioc = accepted.filter((f) => f.o!.tif === 'IOC');
    const gtc = accepted.filter((f) => f.o!.tif === 'GTC');
    expect(ioc.length / accepted.length).toBeGreaterThan(0.4);
    expect(gtc.length / accepted.length).toBeGreaterThan(0.35); // some passive orders are rejected as post-only crossers
    expect(takerTrades).toBeGreaterThan(ioc.length * 0.9);
    expect(canceled).toBeGreaterThan(gtc.length * 0.5); // passive orders expire after their lifetime
    const sizes = accepted.map((f) => f.o!.q).sort((a, b) => a - b);
    const median = sizes[Math.floor(sizes.length / 2)]!;
    expect(median).toBeLessThanOrEqual(2);
    expect(sizes[sizes.length - 1]!).toBeGreaterThan(20 * median); // a heavy tail
  });

  it('leans to one side when given a buying bias', () => {
    const built = started(
      smallScenario({
        agents: [
          { kind: 'market-maker', name: 'mm', symbols: ['BTCUSD-PERP'], params: { sizeLots: 20, maxInventoryLots: 100000 } },
          { kind: 'noise-trader', name: 'noise', symbols: ['BTCUSD-PERP'], params: { ratePerSec: 2, buyProbability: 0.8, marketableProbability: 1 } },
        ],
      }),
    );
    runFor(built, 300);
    const mm = built.sim.venue.account('mm-1')!;
    const position = mm.positionList[0]!.position.netLots;
    expect(position).toBeLessThan(-50); // the maker sold what the noise bought
  });
});
