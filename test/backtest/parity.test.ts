import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import marketMaker, { paramsSchema } from '../../examples/market-maker.ts';
import type { WireExchangePort } from '../../src/api/client/wire-exchange-port.ts';
import { runBacktest, type BacktestResult } from '../../src/backtest/runner.ts';
import { TrackedPort } from '../../src/backtest/tracked-port.ts';
import { formatMoney } from '../../src/core/money.ts';
import { joinNs } from '../../src/core/time.ts';
import { loadScenario } from '../../src/scenario/load.ts';
import { attachStrategy } from '../../src/strategy/strategy.ts';
import type { NewOrder, OrderFeed } from '../../src/wire/order.ts';
import { ADMIN_TOKEN, feedOf, recordFeeds, startClientFixture, type ClientFixture } from '../api/client/fixture.ts';

const BTC = 'BTCUSD-PERP';
const MS = 1_000_000n;
/** Bob acts every 1.1 s: never on the strategy's 250 ms requote grid, so no two things share an instant. */
const STEP_MS = 1100;
/** The wire run's clock moves in 50 ms advances, landing on every instant the strategy's timers use. */
const ADVANCE_MS = 50;
const STEPS = 12;

/**
 * The scripted counterparty: at step k (k × 1.1 s into the run), bob sends these orders. Two resting
 * orders frame the book, then IOCs lift or hit the market maker's quotes from both sides,
 * pushing its inventory one way and the other so its skew matters.
 */
const SCRIPT: NewOrder[][] = [
  [],
  [{ symbol: BTC, side: 'B', price: '49900', quantity: 1, timeInForce: 'GTC' }, { symbol: BTC, side: 'S', price: '50100', quantity: 1, timeInForce: 'GTC' }],
  [{ symbol: BTC, side: 'B', price: '50050', quantity: 1, timeInForce: 'IOC' }],
  [{ symbol: BTC, side: 'B', price: '50050', quantity: 2, timeInForce: 'IOC' }],
  [{ symbol: BTC, side: 'S', price: '49950', quantity: 1, timeInForce: 'IOC' }],
  [{ symbol: BTC, side: 'S', price: '49950', quantity: 3, timeInForce: 'IOC' }],
  [{ symbol: BTC, side: 'S', price: '49950', quantity: 2, timeInForce: 'IOC' }],
  [{ symbol: BTC, side: 'B', price: '50050', quantity: 1, timeInForce: 'IOC' }],
  [{ symbol: BTC, side: 'S', price: '49990', quantity: 1, timeInForce: 'GTC' }],
  [{ symbol: BTC, side: 'B', price: '50080', quantity: 4, timeInForce: 'IOC' }],
  [{ symbol: BTC, side: 'S', price: '49920', quantity: 1, timeInForce: 'IOC' }],
  [{ symbol: BTC, side: 'B', price: '50080', quantity: 1, timeInForce: 'IOC' }],
];
const PARAMS = paramsSchema.parse({ halfSpreadTicks: 3, skewTicksPerLot: 2, maxInventoryLots: 3, requoteMs: 250 });

/** What must match between the two runs: the fills (time, side, size, price, liquidity) and the money. */
interface Outcome {
  fills: string[];
  position: number;
  tradingPnl: string;
  fees: string;
  cash: string;
  unrealized: string;
}

async function inProcess(): Promise<{ outcome: Outcome; result: BacktestResult }> {
  const zero = { floorMs: 0, jitterMs: 0, sigma: 0 };
  const result = await runBacktest(marketMaker(PARAMS), {
    scenario: loadScenario('empty'),
    durationNs: BigInt(STEPS * STEP_MS) * MS,
    orderLatency: zero,
    marketDataLatency: zero,
    setup: (sim) => {
      const bob = sim.venue.account('bob')!;
      sim.onStart(() => {
        SCRIPT.forEach((orders, k) => {
          if (orders.length > 0) sim.clock.scheduleAt(sim.startNs + BigInt(k * STEP_MS) * MS, () => orders.forEach((o) => sim.venue.placeOrder(bob, { ...o, postOnly: false })));
        });
      });
    },
  });
  const btc = result.samples.at(-1)!.positions[0]!;
  return {
    result,
    outcome: {
      fills: result.fills.map((f) => `+${f.tNs - result.startNs} ns: ${f.side} ${f.qty} @ ${f.price} ${f.maker ? 'maker' : 'taker'}`),
      position: btc,
      tradingPnl: formatMoney(result.final.tradingPnl),
      fees: formatMoney(result.final.fees),
      cash: formatMoney(result.final.cash),
      unrealized: formatMoney(result.final.unrealized),
    },
  };
}

describe('parity: the market-maker example in-process and over the wire', () => {
  let fx: ClientFixture;
  let alice: WireExchangePort;
  let bob: WireExchangePort;

  beforeAll(async () => {
    fx = await startClientFixture(); // `empty` served on a manual clock, as `perpsim serve --manual`
    alice = await fx.connect('alice', { adminToken: ADMIN_TOKEN });
    bob = await fx.connect('bob');
  });
  afterAll(() => fx.close());

  /** Waits until the strategy's port has had no call in flight for a few polls (wall time). */
  async function settled(port: TrackedPort): Promise<void> {
    for (let quiet = 0; quiet < 4; ) {
      await new Promise((resolve) => setTimeout(resolve, 15));
      quiet = port.outstanding === 0 ? quiet + 1 : 0;
    }
  }

  it('gives identical fills and PnL against scripted counterparties', async () => {
    const { outcome: local, result } = await inProcess();
    expect(result.fills.length).toBeGreaterThanOrEqual(6); // the script does reach the quotes

    // The same strategy code over the wire, trading as alice; bob follows the script, and the
    // admin clock moves in small advances between his steps (waiting for the strategy's
    // answers, which take wall time, whenever an advance woke one of its timers).
    const port = new TrackedPort(alice);
    const aliceFeeds = recordFeeds(alice);
    const bobFeeds = recordFeeds(bob);
    const venue = fx.exchange.venue;
    await attachStrategy(marketMaker(PARAMS), port);
    await settled(port);
    for (let k = 0; k < STEPS; k++) {
      for (let t = 0; t < (k === 0 ? 0 : STEP_MS); t += ADVANCE_MS) {
        await alice.admin!.advance(ADVANCE_MS / 1000);
        if (port.outstanding > 0) await settled(port); // a timer came due: let the requote finish
      }
      for (const order of SCRIPT[k]!) {
        const oid = await bob.insertOrder(order);
        const done = (f: OrderFeed) => feedOf(order.timeInForce === 'IOC' ? 'x' : 'n', oid)(f) || feedOf('f', oid)(f);
        await bobFeeds.waitFor(done, `the outcome of bob's order ${oid}`);
      }
      await settled(port);
    }
    for (let t = 0; t < STEP_MS; t += ADVANCE_MS) {
      await alice.admin!.advance(ADVANCE_MS / 1000);
      if (port.outstanding > 0) await settled(port);
    }
    expect(venue.clock.nowNs).toBe(result.endNs);
    const account = venue.account('alice')!;
    const p = account.findPosition(venue.market(BTC)!)!;
    const wire: Outcome = {
      fills: aliceFeeds.seen.filter((f) => f.t === 'p' || f.t === 'f').map((f) => `+${joinNs(f.ts, f.tn) - result.startNs} ns: ${f.xs!.d} ${f.xs!.q} @ ${f.xs!.p} ${f.xs!.agg ? 'taker' : 'maker'}`),
      position: p.position.netLots,
      tradingPnl: formatMoney(p.tradingPnl),
      fees: formatMoney(p.fees),
      cash: formatMoney(account.cash),
      unrealized: formatMoney(p.unrealized()),
    };
    expect(wire).toEqual(local);
  }, 60_000);
});

