import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Money } from '../../src/core/money.ts';
import type { Side } from '../../src/core/types.ts';
import type { Account } from '../../src/venue/account.ts';
import { CommandFailedError } from '../../src/venue/command-log.ts';
import { InjectedFault, setFaultHook } from '../../src/venue/fault-points.ts';
import type { InstrumentConfig } from '../../src/venue/instrument.ts';
import type { Market } from '../../src/venue/market.ts';
import type { Venue } from '../../src/venue/venue.ts';
import { BigintPosition } from './bigint-position.ts';
import { modelFee } from './money-model.ts';
import { makeVenue } from './fixtures.ts';

/** What the oracle expects of one account: cash, trading PnL and fees, all from the trades in bigints. */
interface Expected {
  position: BigintPosition;
  cash: Money;
  tradingPnl: Money;
  fees: Money;
}

/**
 * A venue whose trades the oracle books in bigints, fill by fill, each fee rounded on its own
 * (`modelFee`, not the venue's `tickLotsAtRate`): the venue's tick·lot counters must read the same.
 */
function oracleVenue(config: InstrumentConfig, users: number) {
  const t = makeVenue({ instruments: [config] });
  const m = t.btc;
  const inst = m.instrument;
  const accounts: Account[] = [];
  const expected = new Map<number, Expected>();
  const cash = 10n ** 40n;
  for (let u = 0; u < users; u++) {
    const a = t.venue.addUser(`u${u}`, cash);
    accounts.push(a);
    expected.set(a.id, { position: new BigintPosition(), cash, tradingPnl: 0n, fees: 0n });
  }
  let feesCollected = 0n;
  const book = (userId: number, side: Side, priceTicks: number, qty: number, aggressor: boolean) => {
    const e = expected.get(userId)!;
    const realized = e.position.fill(side, priceTicks, qty) * inst.tickLotMoney;
    const fee = modelFee(inst, priceTicks, qty, aggressor);
    e.tradingPnl += realized;
    e.fees += fee;
    e.cash += realized - fee;
    feesCollected += fee;
  };
  t.venue.subscribe({
    trade: (tr) => {
      book(tr.makerUserId, tr.takerSide === 'B' ? 'S' : 'B', tr.priceTicks, tr.qtyLots, false);
      book(tr.takerUserId, tr.takerSide, tr.priceTicks, tr.qtyLots, true);
    },
  });
  const check = () => {
    for (const a of accounts) {
      const e = expected.get(a.id)!;
      const p = a.findPosition(m);
      expect(a.cash).toBe(e.cash);
      expect(p?.tradingPnl ?? 0n).toBe(e.tradingPnl);
      expect(p?.fees ?? 0n).toBe(e.fees);
    }
    expect(t.venue.feesCollected).toBe(feesCollected);
  };
  return { ...t, market: m, accounts, check };
}

const order: fc.Arbitrary<Order> = fc.record({
  maker: fc.nat(3),
  taker: fc.nat(3),
  side: fc.constantFrom<Side>('B', 'S'),
  offsetTicks: fc.integer({ min: -50, max: 50 }),
  // Small sizes, and sizes whose notionals pass 2^53 within a few fills (or at once).
  lots: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 10_000, max: 60_000 }), fc.integer({ min: 60_000, max: 200_000 })),
});

interface Order {
  maker: number;
  taker: number;
  side: Side;
  offsetTicks: number;
  lots: number;
}

/** Rests `lots` for the maker and sends the taker's IOC through it. */
function trade(venue: Venue, accounts: Account[], market: Market, o: Order) {
  const price = market.indexTicks + o.offsetTicks;
  venue.placeOrderTicks(accounts[o.maker]!, market, o.side === 'B' ? 'S' : 'B', price, o.lots);
  venue.placeOrderTicks(accounts[o.taker]!, market, o.side, price, o.lots, 'IOC');
}

describe('fill money as tick·lot counters', () => {
  afterEach(() => setFaultHook(undefined));

  // Index 10^9 at tick 0.01: 10^11 ticks, so 10^5 lots are ~10^16 tick·lots (past 2^53).
  const big = { symbol: 'BTCUSD-PERP', tickSize: '0.01', indexPrice: '1000000000' };
  const configs: [string, InstrumentConfig][] = [
    ['whole fee factors, a maker rebate', { ...big, takerFee: '0.0004', makerFee: '-0.0001' }],
    ['fee rates without a whole factor (the exact, rounded path)', { ...big, takerFee: '0.000000000000000007', makerFee: '-0.000000000000000003' }],
  ];
  for (const [name, config] of configs) {
    it(`read exactly what bigints fill by fill give, across 2^53 (${name})`, () => {
      fc.assert(
        fc.property(fc.array(order, { minLength: 1, maxLength: 25 }), (orders) => {
          const t = oracleVenue(config, 4);
          for (const o of orders) {
            trade(t.venue, t.accounts, t.market, o);
            t.check();
          }
        }),
        { numRuns: 60 },
      );
    });
  }

  it('a command that fails after the counters moved (or were folded into Money) leaves every amount as it was', () => {
    const t = oracleVenue({ symbol: 'BTCUSD-PERP', tickSize: '0.01', indexPrice: '1000000000', takerFee: '0.0004', makerFee: '-0.0001' }, 3);
    const [a, b, c] = t.accounts as [Account, Account, Account];
    const m = t.market;
    // Alternate buys and sells of ~10^15 tick·lots at one price: the positions stay small and in
    // numbers, but each account's fee counter sums both sides and nears 2^53 after nine fills:
    // the tenth must fold it into Money first. Odd notionals: a sum past 2^53 would round.
    const PRICE = m.indexTicks + 1;
    const LOTS = 9_999;
    const fill = (maker: Account, side: Side) => {
      t.venue.placeOrderTicks(maker, m, side === 'B' ? 'S' : 'B', PRICE, LOTS);
      t.venue.placeOrderTicks(c, m, side, PRICE, LOTS, 'IOC');
    };
    for (let i = 0; i < 9; i++) fill(i % 2 === 0 ? a : b, i % 2 === 0 ? 'B' : 'S');
    t.check();
    const snapshot = () => [a, b, c].map((x) => [x.cash, x.findPosition(m)?.tradingPnl, x.findPosition(m)?.fees, x.initialMarginFits(0)]).concat([[t.venue.feesCollected]]);
    let failures = 0;
    for (const step of ['fill.position', 'fill.cash', 'fill.order', 'trade.taker', 'trade.stats', 'place.done']) {
      for (const nth of [1, 2]) {
        t.venue.placeOrderTicks(b, m, 'B', PRICE, LOTS);
        const before = snapshot();
        let seen = 0;
        setFaultHook((s) => {
          if (s === step && ++seen === nth) throw new InjectedFault(s);
        });
        try {
          t.venue.placeOrderTicks(c, m, 'S', PRICE, LOTS, 'IOC');
          expect(seen).toBeLessThan(nth); // the step came fewer times than `nth`: nothing failed
          t.check();
        } catch (e) {
          expect(e).toBeInstanceOf(CommandFailedError);
          expect(snapshot()).toEqual(before);
          failures++;
        } finally {
          setFaultHook(undefined);
        }
        for (const o of t.venue.openOrders(b)) t.venue.cancelOrder(b, o.id);
      }
    }
    expect(failures).toBeGreaterThanOrEqual(7);
    // The tenth to twelfth fills: folds, and sums that would round past 2^53 without them.
    for (const [maker, side] of [[b, 'S'], [a, 'B'], [b, 'S']] as const) {
      fill(maker, side);
      t.check();
    }
    t.check();
  });
});
