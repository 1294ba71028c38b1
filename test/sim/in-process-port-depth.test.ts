import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InProcessPort, PortError } from '../../src/sim/in-process-port.ts';
import { aliceAndBob, BTC } from './alice-and-bob.ts';
import { bookUpdate } from '../../src/venue/wire-forms.ts';
import { MAX_MARKET_DATA_DEPTH, type BookUpdate, type MarketDataLevel, type MarketDataMessage } from '../../src/wire/market-data.ts';


function setup() {
  const sim = aliceAndBob('port-depth', '100000000');
  const port = (name: string) => new InProcessPort(sim.venue, sim.venue.account(name)!);
  const alice = port('alice');
  const bob = port('bob');
  const books: BookUpdate[] = [];
  alice.onMarketData((m: MarketDataMessage) => {
    if (m.t !== 's') books.push(JSON.parse(JSON.stringify(m)) as BookUpdate); // render the lazy levels as a strategy reading them would
  });
  const run = () => sim.clock.runUntil(sim.clock.nowNs);
  const rest = (side: 'B' | 'S', price: number, quantity: number) => {
    void bob.insertOrder({ symbol: BTC, price: String(price), quantity, side, timeInForce: 'GTC' });
    run();
  };
  const full = (level: MarketDataLevel) => bookUpdate(sim.venue.market(BTC)!, level, 0, 0);
  return { alice, books, run, rest, full };
}

/** Resting orders: side, distance from the mid in ticks, quantity. */
const restingOrders = fc.array(fc.record({ side: fc.constantFrom<'B' | 'S'>('B', 'S'), ticks: fc.integer({ min: 1, max: 12 }), qty: fc.integer({ min: 1, max: 5 }) }), { maxLength: 30 });
const priceOf = (side: 'B' | 'S', ticks: number) => (side === 'B' ? 50_000 - ticks * 0.5 : 50_000 + ticks * 0.5);

describe('InProcessPort subscribe depth (the strategy API side of the depth extension)', () => {
  it('delivers the first depth levels a side of every LEVEL_2 and LEVEL_3 update, and no update when nothing within them changed', () => {
    fc.assert(
      fc.property(fc.constantFrom<MarketDataLevel>('LEVEL_2', 'LEVEL_3'), fc.integer({ min: 1, max: 6 }), restingOrders, (level, depth, orders) => {
        const { alice, books, run, rest, full } = setup();
        void alice.subscribe(BTC, level, { depth });
        run();
        let lastLevels = JSON.stringify({ b: [], a: [] });
        for (const o of orders) {
          const before = books.length;
          rest(o.side, priceOf(o.side, o.ticks), o.qty);
          const whole = full(level);
          const expected = { b: whole.b.slice(0, depth), a: whole.a.slice(0, depth) };
          const delivered = books.slice(before);
          // L3 updates are never skipped (the queue may change behind equal quantities), L2 ones
          // are skipped exactly when the first `depth` levels a side did not change.
          const changedWithin = JSON.stringify(expected) !== lastLevels;
          expect(delivered.length).toBe(level === 'LEVEL_3' || changedWithin ? 1 : 0);
          for (const u of delivered) expect({ b: u.b, a: u.a }).toEqual(expected);
          lastLevels = JSON.stringify(expected);
        }
      }),
      { numRuns: 60, seed: 0x5eed },
    );
  });

  it('without depth delivers every level, as the interface document says', () => {
    const { alice, books, run, rest, full } = setup();
    void alice.subscribe(BTC, 'LEVEL_2');
    run();
    for (let i = 1; i <= 8; i++) rest('B', priceOf('B', i), 1);
    expect(books.at(-1)!.b).toHaveLength(8);
    expect(books.at(-1)!.b).toEqual(full('LEVEL_2').b);
  });

  it('rejects a depth outside 1 … MAX_MARKET_DATA_DEPTH with the websocket message, and keeps no subscription', async () => {
    for (const depth of [0, -1, 1.5, MAX_MARKET_DATA_DEPTH + 1, Number.NaN]) {
      const { alice, books, run, rest } = setup();
      const subscribed = alice.subscribe(BTC, 'LEVEL_2', { depth });
      run();
      await expect(subscribed).rejects.toThrow(PortError);
      await expect(subscribed).rejects.toThrow(`invalid subscribe: depth must be an integer from 1 to ${MAX_MARKET_DATA_DEPTH}`);
      rest('B', priceOf('B', 1), 1);
      expect(books).toEqual([]);
    }
  });
});
