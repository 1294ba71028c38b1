import { describe, expect, it } from 'vitest';
import type { MarketMaker } from '../../src/agents/market-maker.ts';
import { parseMoney } from '../../src/core/money.ts';
import { runFor, smallScenario, started, touch } from './fixtures.ts';

const maker = (params: Record<string, unknown> = {}) => ({ kind: 'market-maker', name: 'mm', symbols: ['BTCUSD-PERP'], params: { levels: 4, halfSpreadTicks: 1, levelSpacingTicks: 2, sizeLots: 2, ...params } });

describe('a market maker', () => {
  it('keeps a two-sided ladder of quotes around the index', () => {
    const built = started(smallScenario({ agents: [maker()] }));
    runFor(built, 5);
    const market = built.sim.venue.market('BTCUSD-PERP')!;
    const { bids, asks } = market.book.l2();
    expect(bids).toHaveLength(4);
    expect(asks).toHaveLength(4);
    expect(bids[0]!.priceTicks).toBe(market.indexTicks - 1);
    expect(asks[0]!.priceTicks).toBe(market.indexTicks + 1);
    expect(asks.map((l) => l.priceTicks)).toEqual([100_001, 100_003, 100_005, 100_007]);
    expect(built.sim.venue.openOrders(built.sim.venue.account('mm-1')!)).toHaveLength(8);
  });

  it('follows a moving index and replaces filled quotes', () => {
    const built = started(smallScenario({ index: { kind: 'gbm', volAnnual: 0.8 }, agents: [maker()] }));
    const market = built.sim.venue.market('BTCUSD-PERP')!;
    runFor(built, 0.5); // between index steps (every whole second)
    for (let i = 0; i < 20; i++) {
      runFor(built, 30);
      const { bid, ask } = touch(market);
      expect(bid).toBeDefined();
      expect(ask).toBeDefined();
      expect(Math.abs((bid! + ask!) / 2 - market.indexTicks)).toBeLessThanOrEqual(2);
    }
    const alice = built.sim.venue.account('alice')!;
    const bestAsk = touch(market).ask!;
    built.sim.venue.placeOrderTicks(alice, market, 'B', bestAsk, 2, 'IOC');
    runFor(built, 0.1);
    expect(touch(market).ask).toBe(bestAsk); // replenished at the same price
  });

  it('skews its quotes against its inventory', () => {
    const built = started(smallScenario({ agents: [maker({ maxInventoryLots: 20, skewTicks: 8, levels: 6, sizeLots: 4, sizeGrowth: 1 })] }));
    const market = built.sim.venue.market('BTCUSD-PERP')!;
    runFor(built, 2);
    const before = touch(market);
    const alice = built.sim.venue.account('alice')!;
    // Alice sells 12 lots into the maker's bids: the maker is now long.
    built.sim.venue.placeOrderTicks(alice, market, 'S', market.indexTicks - 20, 12, 'IOC');
    runFor(built, 2);
    const mm = built.agents[0]!.strategy as MarketMaker;
    expect(mm.inventory('BTCUSD-PERP')).toBe(12);
    const after = touch(market);
    expect((before.bid! + before.ask!) / 2).toBe(market.indexTicks);
    // 12/20 of an 8-tick skew: quotes about 5 ticks lower, the ask now below the index.
    expect((after.bid! + after.ask!) / 2).toBeLessThanOrEqual(market.indexTicks - 4);
    expect(after.ask!).toBeLessThan(market.indexTicks);
    const bidLots = market.book.l2().bids.reduce((n, l) => n + l.qtyLots, 0);
    const askLots = market.book.l2().asks.reduce((n, l) => n + l.qtyLots, 0);
    expect(bidLots).toBeLessThan(askLots); // it also bids less
  });

  it('pulls every quote right after an index jump and quotes again a few seconds later', () => {
    const built = started(
      smallScenario({
        index: { kind: 'gbm', volAnnual: 0.3 },
        agents: [maker({ pullSec: 5 })],
        shocks: [{ kind: 'index-jump', at: '2m', pct: -2 }],
      }),
    );
    const venue = built.sim.venue;
    const mm = venue.account('mm-1')!;
    runFor(built, 120.5);
    expect(venue.openOrders(mm)).toHaveLength(0);
    runFor(built, 6);
    expect(venue.openOrders(mm).length).toBe(8);
    const market = venue.market('BTCUSD-PERP')!;
    expect(market.indexTicks).toBeLessThan(99_000);
    expect(touch(market).bid!).toBeLessThan(99_000);
  });

  it('widens and thins its quotes during a liquidity withdrawal', () => {
    const built = started(
      smallScenario({
        agents: [maker()],
        shocks: [{ kind: 'liquidity-withdrawal', at: '1m', durationSec: 60, spreadFactor: 5, sizeFactor: 0.5 }],
      }),
    );
    const market = built.sim.venue.market('BTCUSD-PERP')!;
    const depth = () => market.book.l2().asks.reduce((n, l) => n + l.qtyLots, 0);
    runFor(built, 59);
    const normal = { ...touch(market), depth: depth() };
    runFor(built, 30);
    const shocked = { ...touch(market), depth: depth() };
    runFor(built, 60);
    const after = touch(market);
    expect(normal.ask! - normal.bid!).toBe(2);
    expect(shocked.ask! - shocked.bid!).toBe(10);
    expect(shocked.depth).toBeLessThan(normal.depth);
    expect(after.ask! - after.bid!).toBe(2);
  });

  it('never trades with itself while requoting through a fast market', () => {
    const built = started(smallScenario({ index: { kind: 'gbm', volAnnual: 1.5 }, agents: [maker()] }));
    const mm = built.sim.venue.account('mm-1')!;
    let selfTrades = 0;
    let inserts = 0;
    built.sim.venue.subscribe({
      trade: (t) => void (t.makerUserId === t.takerUserId && selfTrades++),
      orderFeed: (user, feed) => void (user === mm.id && feed.t === 'n' && inserts++),
    });
    runFor(built, 600);
    expect(inserts).toBeGreaterThan(2000); // it was busy: ~20 ticks a second of index moves
    expect(selfTrades).toBe(0);
    expect(mm.cash).toBe(parseMoney('100000000')); // and never paid a taker fee
  });
});
