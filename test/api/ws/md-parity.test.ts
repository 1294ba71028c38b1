import { afterEach, describe, expect, it } from 'vitest';
import type { SimClock } from '../../../src/clock/sim-clock.ts';
import { InProcessPort } from '../../../src/sim/in-process-port.ts';
import { Simulation } from '../../../src/sim/simulation.ts';
import type { Venue } from '../../../src/venue/venue.ts';
import type { MarketDataLevel, MarketDataMessage } from '../../../src/wire/market-data.ts';
import type { OrderRequest } from '../../../src/venue/venue.ts';
import { emptyScenario, startFixture, type Fixture, type Msg, type TestSocket } from './helpers.ts';

const BTC = 'BTCUSD-PERP';
const ETH = 'ETHUSD-PERP';
const SECOND = 1_000_000_000n;
const LEVELS: MarketDataLevel[] = ['LEVEL_1', 'LEVEL_2', 'LEVEL_3'];

const order = (side: 'B' | 'S', quantity: number, price: string, timeInForce: 'GTC' | 'IOC' = 'GTC', symbol = BTC): OrderRequest => ({ symbol, side, quantity, price, timeInForce, postOnly: false });

/**
 * The same venue commands for both runs, several sharing each instant: a book built in one
 * instant, one IOC lifting three asks (three prints) with a new ask after it, a print on
 * the bid, an order placed and canceled within one instant (the book ends as it began),
 * and a trade on another symbol.
 */
function script(venue: Venue, clock: SimClock): void {
  const alice = venue.account('alice')!;
  const bob = venue.account('bob')!;
  const at = (sec: bigint, fn: () => void) => clock.scheduleAt(clock.nowNs + sec * SECOND, fn);
  at(1n, () => {
    for (const p of ['50010', '50020', '50030', '50040']) venue.placeOrder(alice, order('S', 1, p));
    venue.placeOrder(alice, order('B', 2, '49990'));
  });
  at(2n, () => {
    venue.placeOrder(bob, order('B', 3, '50030', 'IOC'));
    venue.placeOrder(alice, order('S', 2, '50050'));
  });
  at(3n, () => venue.placeOrder(bob, order('S', 1, '49990')));
  at(4n, () => {
    const o = venue.placeOrder(alice, order('B', 1, '49980'));
    venue.cancelOrder(alice, o.id);
  });
  at(5n, () => {
    venue.placeOrder(alice, order('S', 1, '3000', 'GTC', ETH));
    venue.placeOrder(bob, order('B', 1, '3000', 'IOC', ETH));
    venue.placeOrder(bob, order('B', 1, '50040', 'IOC'));
  });
}

/** What in-process ports (zero latency) deliver per level, subscribed at the start. */
async function inProcessStreams(): Promise<MarketDataMessage[][]> {
  const sim = new Simulation(emptyScenario());
  const streams = LEVELS.map(() => [] as MarketDataMessage[]);
  const ports = LEVELS.map((level, i) => {
    const port = new InProcessPort(sim.venue, sim.venue.account('alice')!);
    port.onMarketData((m) => streams[i]!.push(m));
    return port;
  });
  sim.start();
  const subscribed = Promise.all(ports.map((p, i) => p.subscribe(BTC, LEVELS[i]!)));
  sim.clock.runUntil(sim.clock.nowNs); // the zero-latency subscriptions run now
  await subscribed;
  script(sim.venue, sim.clock);
  sim.clock.runUntil(sim.clock.nowNs + 6n * SECOND);
  ports.forEach((p) => p.close());
  return streams;
}

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

describe('market data in-process and on the websocket', () => {
  it('is the same, message for message, when several trades and book changes share an instant', async () => {
    const expected = await inProcessStreams();
    fx = await startFixture({ heartbeatMs: 60_000 });
    const sockets: TestSocket[] = [];
    for (const [i, level] of LEVELS.entries()) {
      const ws = await fx.mdSocket();
      expect(await ws.request({ request_id: 1 + i, type: 'subscribe', symbol: BTC, level }, 'request_id')).toMatchObject({ result: { subscribed: BTC } });
      sockets.push(ws);
    }
    script(fx.exchange.venue, fx.exchange.clock);
    fx.exchange.driver.advance(6);
    for (const [i, ws] of sockets.entries()) {
      const got: Msg[] = [];
      for (let k = 0; k < expected[i]!.length; k++) got.push(await ws.next());
      got.push(...(await ws.drain()));
      expect(got, LEVELS[i]).toEqual(expected[i]);
    }
    // The stream the test compares has what it is about: per-trade stats before the instant's book.
    const l2 = expected[1]!.map((m) => `${m.t}@${m.ts - expected[1]![0]!.ts}`);
    expect(l2).toEqual(['s@0', '2@0', '2@1', 's@2', 's@2', 's@2', '2@2', 's@3', '2@3', 's@5', '2@5']);
  });
});
