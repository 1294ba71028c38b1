import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../../src/backtest/all-metrics.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { loadScenario } from '../../src/scenario/load.ts';
import type { Simulation } from '../../src/sim/simulation.ts';
import type { Strategy } from '../../src/strategy/strategy.ts';

const S = 1_000_000_000n;
const zero = { floorMs: 0, jitterMs: 0, sigma: 0 };

/** `strategy` on `empty` for 60 s without latency; `setup` adds bob's orders. */
const runOnEmpty = (strategy: Strategy, setup: (sim: Simulation) => void) =>
  runBacktest(strategy, { scenario: loadScenario('empty'), durationNs: 60n * S, orderLatency: zero, marketDataLatency: zero, setup });

describe('maker statistics measured in a run', () => {
  it('times the quotes at the touch and marks a maker fill out against the later mid, exactly', async () => {
    // empty, 60 s, no latency. bob rests a bid at 49980 and an ask at 50010; the strategy joins
    // the ask (50010) and improves the bid (49990) at the start; at 20 s bob sells 2 at 49990
    // into the strategy's bid. So the strategy is at the best bid 0 → 20 s and at the best ask
    // all 60 s; after the fill the mid is (49980 + 50010) / 2 = 49995, 5 above the fill price.
    const strategy: Strategy = {
      async onStart(port) {
        await port.insertOrder({ symbol: 'BTCUSD-PERP', price: '49990', quantity: 2, side: 'B', timeInForce: 'GTC' });
        await port.insertOrder({ symbol: 'BTCUSD-PERP', price: '50010', quantity: 1, side: 'S', timeInForce: 'GTC' });
      },
    };
    const result = await runOnEmpty(strategy, (sim) => {
      const bob = sim.venue.account('bob')!;
      const order = (side: 'B' | 'S', price: string, quantity: number, timeInForce: 'GTC' | 'IOC') =>
        sim.venue.placeOrder(bob, { symbol: 'BTCUSD-PERP', side, price, quantity, timeInForce, postOnly: false });
      sim.onStart(() => {
        order('B', '49980', 5, 'GTC');
        order('S', '50010', 5, 'GTC');
        sim.clock.scheduleAt(sim.startNs + 20n * S, () => order('S', '49990', 2, 'IOC'));
      });
    });
    expect(result.fills.map((f) => [f.tNs - result.startNs, f.side, f.price, f.qty, f.maker])).toEqual([[20n * S, 'B', '49990', 2, true]]);
    // the touch right after the fill, and the mid × 2 in ticks (tick 0.5) 1 s and 10 s later; 60 s is past the end
    expect([result.fills[0]!.bid, result.fills[0]!.ask]).toEqual(['49980', '50010']);
    expect(result.fills[0]!.midAfterX2).toEqual([199_980, 199_980, null]);
    expect(result.touchTimes[0]).toEqual({ bidNs: 20n * S, askNs: 60n * S, bothNs: 20n * S });
    const m = computeMetrics(result);
    expect(m.markout_1s_bps).toBeCloseTo((5 / 49990) * 1e4, 12);
    expect(m.markout_10s_bps).toBeCloseTo((5 / 49990) * 1e4, 12);
    expect(m.markout_60s_bps).toBeNull();
    expect(m.touch_share_bid).toEqual({ 'BTCUSD-PERP': 0.333333, 'ETHUSD-PERP': 0 });
    expect(m.touch_share_ask).toEqual({ 'BTCUSD-PERP': 1, 'ETHUSD-PERP': 0 });
    expect(m.time_long).toBeCloseTo(40 / 60, 5);
  });

  it('counts a quote that joins the best level and leaves it while the best price stays as time at the touch', async () => {
    // empty, 60 s, no latency. bob's bid at 49990 is the best bid all along. The strategy bids
    // 49980 from the start (below the touch), joins bob at 49990 at 10 s and cancels that bid at
    // 30 s: its orders change while the book's best prices do not, so it is at the best bid
    // exactly 10 → 30 s (the tracker must look again when its own orders change, not only when
    // the touch moves).
    let joined: string | undefined;
    const strategy: Strategy = {
      async onStart(port) {
        await port.insertOrder({ symbol: 'BTCUSD-PERP', price: '49980', quantity: 1, side: 'B', timeInForce: 'GTC' });
        port.setTimer(10_000_000_000, async () => {
          joined = await port.insertOrder({ symbol: 'BTCUSD-PERP', price: '49990', quantity: 1, side: 'B', timeInForce: 'GTC' });
          port.setTimer(20_000_000_000, async () => await port.cancelOrder(joined!));
        });
      },
    };
    const result = await runOnEmpty(strategy, (sim) => {
      const bob = sim.venue.account('bob')!;
      sim.onStart(() => {
        sim.venue.placeOrder(bob, { symbol: 'BTCUSD-PERP', side: 'B', price: '49990', quantity: 5, timeInForce: 'GTC', postOnly: false });
        sim.venue.placeOrder(bob, { symbol: 'BTCUSD-PERP', side: 'S', price: '50010', quantity: 5, timeInForce: 'GTC', postOnly: false });
      });
    });
    expect(joined).toBeDefined();
    expect(result.touchTimes[0]).toEqual({ bidNs: 20n * S, askNs: 0n, bothNs: 0n });
  });
});
