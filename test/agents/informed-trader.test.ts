import { describe, expect, it } from 'vitest';
import type { InformedTrader } from '../../src/agents/informed-trader.ts';
import { runFor, smallScenario, started, touch } from './fixtures.ts';

/** A mid-anchored maker that ignores the index: only trades move its quotes. */
const sluggishMaker = { kind: 'market-maker', name: 'mm', symbols: ['BTCUSD-PERP'], params: { anchor: 'mid', indexWeight: 0, midSmoothingSec: 5, levels: 5, sizeLots: 5, maxInventoryLots: 400, skewTicks: 40 } };
const informed = { kind: 'informed-trader', name: 'arb', symbols: ['BTCUSD-PERP'], params: { lookaheadSec: 2, thresholdBps: 2, sizeLots: 5, maxPositionLots: 200 } };
const jump = [{ kind: 'index-jump', at: '1m', pct: 1 }];

function midBpsFromIndexAfter(agents: unknown[], sec: number): { bps: number; built: ReturnType<typeof started> } {
  const built = started(smallScenario({ agents, shocks: jump }));
  runFor(built, sec);
  const market = built.sim.venue.market('BTCUSD-PERP')!;
  const { bid, ask } = touch(market);
  return { bps: (((bid! + ask!) / 2 - market.indexTicks) / market.indexTicks) * 1e4, built };
}

describe('an informed trader', () => {
  it('pulls the perp toward an index that moved', () => {
    const without = midBpsFromIndexAfter([sluggishMaker], 500);
    expect(without.bps).toBeLessThan(-95); // nothing moved the book: 1 % below the new index
    const halfway = midBpsFromIndexAfter([sluggishMaker, informed], 200);
    const arb = halfway.built.agents.find((a) => a.name === 'arb-1')!.strategy as InformedTrader;
    expect(arb.position('BTCUSD-PERP')).toBeGreaterThan(0); // it bought the cheap perp…
    expect(halfway.bps).toBeGreaterThan(-90); // …and the maker's quotes follow its buying
    const settled = midBpsFromIndexAfter([sluggishMaker, informed], 500);
    expect(Math.abs(settled.bps)).toBeLessThan(3);
  });

  it('trades before the venue sees the move (it sees the index ahead)', () => {
    const built = started(smallScenario({ agents: [sluggishMaker, informed], shocks: jump }));
    const arb = built.sim.venue.account('arb-1')!;
    let firstBuyAt: bigint | undefined;
    built.sim.venue.subscribe({ trade: (t) => void (t.takerUserId === arb.id && firstBuyAt === undefined && (firstBuyAt = built.sim.clock.nowNs)) });
    runFor(built, 90);
    expect(firstBuyAt).toBeDefined();
    const jumpAt = built.sim.startNs + 60_000_000_000n;
    expect(firstBuyAt!).toBeLessThan(jumpAt);
    expect(firstBuyAt!).toBeGreaterThan(jumpAt - 3_000_000_000n);
  });
});
