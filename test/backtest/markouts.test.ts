import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MARKOUT_HORIZONS_S } from '../../src/backtest/markouts.ts';
import { runBacktest, type BacktestResult } from '../../src/backtest/runner.ts';
import { TickSize } from '../../src/core/price.ts';
import { loadScenario } from '../../src/scenario/load.ts';
import type { Simulation } from '../../src/sim/simulation.ts';
import type { ExchangePort } from '../../src/strategy/exchange-port.ts';
import type { Strategy } from '../../src/strategy/strategy.ts';
import type { BookUpdate } from '../../src/wire/market-data.ts';
import type { OrderFeed } from '../../src/wire/order.ts';

// The recorder reads fill markouts from the touch kept at book changes, placed by the clock's
// insertion seqs, instead of a clock event per fill and horizon. The reference here is that
// clock event: a read scheduled at the fill, exactly as the recorder scheduled it before.

const S = 1_000_000_000n;
const SYMBOL = 'BTCUSD-PERP';
const zero = { floorMs: 0, jitterMs: 0, sigma: 0 };

/** Schedules the clock-event reads at each of the strategy's fills (the recorder's old way); returns them, in fill order. */
function referenceMarkouts(sim: Simulation, username: string): (number | null)[][] {
  const reads: (number | null)[][] = [];
  const account = sim.venue.account(username)!;
  sim.venue.subscribe({
    orderEvent: (e) => {
      if (e.userId !== account.id) return;
      const feed = e.feed();
      if (feed.t !== 'p' && feed.t !== 'f') return;
      const market = sim.venue.market(feed.xs!.s)!;
      const into: (number | null)[] = MARKOUT_HORIZONS_S.map(() => null);
      reads.push(into);
      const now = sim.clock.nowNs;
      MARKOUT_HORIZONS_S.forEach((h, k) => {
        const at = now + BigInt(h) * S;
        if (at > sim.endNs) return;
        sim.clock.scheduleAt(at, () => {
          const bid = market.book.bestBidTicks();
          const ask = market.book.bestAskTicks();
          into[k] = bid === undefined || ask === undefined ? null : bid + ask;
        });
      });
    },
  });
  return reads;
}

interface Plan {
  /** Requote period, ms. */
  everyMs: number;
  /** Quote offset from the touch, ticks (0: join it, negative: improve it). */
  offsetTicks: number;
  /** Per fill: after these whole seconds (a horizon or not), sweep the touch of one side. */
  sweepAfterS: number[];
  zeroLatency: boolean;
}

/** Quotes both sides near the touch and, after each fill, moves the book at whole seconds later (ties with the reads). */
function strategyOf(plan: Plan, symbol: string): Strategy {
  let port!: ExchangePort;
  let tick!: TickSize;
  let bid: number | undefined;
  let ask: number | undefined;
  let fills = 0;
  const place = (side: 'B' | 'S', priceTicks: number, ioc: boolean) =>
    void port.insertOrder({ symbol, side, price: tick.toPrice(priceTicks), quantity: 1, timeInForce: ioc ? 'IOC' : 'GTC', postOnly: !ioc }).catch(() => undefined);
  return {
    async onStart(p) {
      port = p;
      tick = new TickSize((await port.instruments()).find((i) => i.symbol === symbol)!.tick_size);
      await port.subscribe(symbol, 'LEVEL_1');
      const requote = (): void => {
        if (bid !== undefined && ask !== undefined) {
          void port.cancelAll().catch(() => undefined);
          place('B', bid - plan.offsetTicks, false);
          place('S', ask + plan.offsetTicks, false);
        }
        port.setTimer(plan.everyMs * 1_000_000, requote);
      };
      requote();
    },
    onBook(book: BookUpdate) {
      if (book.s !== symbol) return;
      bid = book.b[0] === undefined ? undefined : tick.toTicks(book.b[0].p);
      ask = book.a[0] === undefined ? undefined : tick.toTicks(book.a[0].p);
    },
    onOrderFeed(feed: OrderFeed) {
      if (feed.t !== 'p' && feed.t !== 'f') return;
      const n = fills++;
      const afterS = plan.sweepAfterS[n % plan.sweepAfterS.length]!;
      port.setTimer(afterS * 1_000_000_000, () => {
        // An IOC at the far touch takes its best level: the mid moves at that very instant.
        if (n % 2 === 0 ? ask !== undefined : bid !== undefined) place(n % 2 === 0 ? 'B' : 'S', n % 2 === 0 ? ask! : bid!, true);
      });
    },
  };
}

async function run(plan: Plan, [scenario, symbol]: [string, string], seed: number, withReference: boolean): Promise<{ result: BacktestResult; reference: (number | null)[][] }> {
  let reference: (number | null)[][] = [];
  const latency = plan.zeroLatency ? { orderLatency: zero, marketDataLatency: zero } : {};
  const result = await runBacktest(strategyOf(plan, symbol), {
    scenario: loadScenario(scenario),
    seed,
    durationNs: 90n * S,
    ...latency,
    setup: withReference ? (sim) => (reference = referenceMarkouts(sim, 'strategy')) : undefined,
  });
  return { result, reference };
}

describe('fill markouts without clock events', () => {
  it('equal the reads a clock event at each fill and horizon made, over random strategies that move the book at those very instants', async () => {
    let fills = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          everyMs: fc.integer({ min: 20, max: 400 }),
          offsetTicks: fc.integer({ min: -1, max: 2 }),
          sweepAfterS: fc.array(fc.constantFrom(1, 1, 10, 60, 2, 30), { minLength: 1, maxLength: 4 }),
          zeroLatency: fc.boolean(),
        }),
        fc.constantFrom<[string, string]>(['default', 'BTCUSD-PERP'], ['default', 'ETHUSD-PERP'], ['thin-book', 'ETHUSD-PERP'], ['flash-crash', 'BTCUSD-PERP']),
        fc.integer({ min: 1, max: 1_000 }),
        async (plan, scenario, seed) => {
          const plain = await run(plan, scenario, seed, false);
          const checked = await run(plan, scenario, seed, true);
          // The reference's reads are clock events of their own: same fills and state, more events.
          expect(checked.result.stateHash).toBe(plain.result.stateHash);
          expect(checked.result.fills.length).toBe(plain.result.fills.length);
          expect(plain.result.fills.map((f) => f.midAfterX2)).toEqual(checked.reference);
          expect(checked.result.fills.map((f) => f.midAfterX2)).toEqual(checked.reference);
          fills += plain.result.fills.length;
        },
      ),
      { numRuns: 6 },
    );
    expect(fills).toBeGreaterThan(30); // the runs fill: the markouts compared are not all empty
  }, 60_000);

  it('reads before the events scheduled after the fill and after those scheduled before it, at the same nanosecond', async () => {
    // empty, no latency: bob rests 49980 / 50010; the strategy bids 49990, which bob hits at 20 s.
    // At 21 s two of bob's orders move the book: one scheduled at the start (before the fill: the
    // 1 s read sees it) and one scheduled at the fill (after: the read does not see it).
    const strategy: Strategy = {
      async onStart(port) {
        await port.insertOrder({ symbol: SYMBOL, price: '49990', quantity: 2, side: 'B', timeInForce: 'GTC' });
      },
    };
    const result = await runBacktest(strategy, {
      scenario: loadScenario('empty'),
      durationNs: 60n * S,
      orderLatency: zero,
      marketDataLatency: zero,
      setup: (sim) => {
        const bob = sim.venue.account('bob')!;
        const order = (side: 'B' | 'S', price: string) => sim.venue.placeOrder(bob, { symbol: SYMBOL, side, price, quantity: 1, timeInForce: 'GTC', postOnly: false });
        sim.onStart(() => {
          order('B', '49980');
          order('S', '50010');
          sim.clock.scheduleAt(sim.startNs + 20n * S, () => sim.venue.placeOrder(bob, { symbol: SYMBOL, side: 'S', price: '49990', quantity: 2, timeInForce: 'IOC', postOnly: false }));
          sim.clock.scheduleAt(sim.startNs + 21n * S, () => order('S', '50000'));
        });
        // Subscribed after the recorder: this hears the strategy's fill after the recorder did.
        sim.venue.subscribe({
          orderEvent: (e) => {
            if (e.userId === sim.venue.account('strategy')!.id && e.feed().t === 'f') sim.clock.scheduleAt(sim.startNs + 21n * S, () => order('B', '49985'));
          },
        });
      },
    });
    expect(result.fills.map((f) => f.tNs - result.startNs)).toEqual([20n * S]);
    // 1 s: bid 49980, ask 50000 (the earlier order), not yet the 49985 bid; 10 s: both, (49985 + 50000) × 2 ticks.
    expect(result.fills[0]!.midAfterX2).toEqual([(49_980 + 50_000) * 2, (49_985 + 50_000) * 2, null]);
  });
});
