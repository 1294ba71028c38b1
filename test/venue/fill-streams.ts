import fc from 'fast-check';
import type { Side, TimeInForce } from '../../src/core/types.ts';
import type { Account } from '../../src/venue/account.ts';
import { setNarrowFillUndo } from '../../src/venue/fill-undo.ts';
import { withSwitch } from './fault-outcome.ts';
import { btcConfig, ethConfig, makeVenue } from './fixtures.ts';

/**
 * Command streams that fill often, and the venue they run on, for the tests of a fill's
 * settlement (fill-undo, position-rows): partial fills, both sides of one account, positions
 * flipping through zero, sweeps, self-trade prevention, liquidations and funding between
 * commands, a market at ~2^40 ticks whose fills pass 2^53 (the Money path) and a micro-tick
 * market whose fees have no whole factor.
 */

export type Cmd =
  | { kind: 'place'; user: number; market: number; side: Side; offset: number; lots: number; tif: TimeInForce; sweep?: boolean }
  | { kind: 'cancel'; user: number; which: number }
  | { kind: 'cancelAll'; user: number }
  | { kind: 'index'; market: number; offset: number }
  | { kind: 'liquidate' }
  | { kind: 'funding'; market: number }
  | { kind: 'time'; ms: number };

export const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      user: fc.nat(3),
      market: fc.nat(2),
      side: fc.constantFrom<Side>('B', 'S'),
      // Ticks past the index toward the other side (a buy above it, a sell below): most cross (the
      // mark follows the touch: prices off the mark would chase it).
      offset: fc.integer({ min: -3, max: 4 }),
      lots: fc.oneof({ arbitrary: fc.integer({ min: 1, max: 6 }), weight: 8 }, { arbitrary: fc.integer({ min: 1, max: 2 ** 14 }), weight: 1 }),
      tif: fc.constantFrom<TimeInForce>('GTC', 'GTC', 'IOC'),
    }),
    weight: 14,
  },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), user: fc.nat(3), which: fc.nat(30) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('cancelAll' as const), user: fc.nat(3) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('index' as const), market: fc.nat(2), offset: fc.integer({ min: -60, max: 60 }) }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'liquidate' as const }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('funding' as const), market: fc.nat(2) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('time' as const), ms: fc.integer({ min: 1, max: 5000 }) }), weight: 1 },
);

/**
 * A sweep: the taker trading a lot in its market first (so the last usual fill a taker copied,
 * in an earlier command, is its own there), then `makers` small orders of other users resting
 * one tick apart on the side it will take (each placed as a command of the stream), then the
 * taker's order through all of them (marked `sweep`), bigger than their sum or not: a trade per
 * maker in one command.
 */
const sweepArb: fc.Arbitrary<Cmd[]> = fc
  .record({
    user: fc.nat(3),
    market: fc.nat(2),
    side: fc.constantFrom<Side>('B', 'S'),
    makers: fc.array(fc.record({ user: fc.nat(2), lots: fc.oneof({ arbitrary: fc.integer({ min: 1, max: 3 }), weight: 6 }, { arbitrary: fc.integer({ min: 1, max: 2 ** 13 }), weight: 1 }) }), { minLength: 2, maxLength: 6 }),
    extra: fc.integer({ min: -2, max: 3 }),
    tif: fc.constantFrom<TimeInForce>('GTC', 'IOC'),
  })
  .map((w) => {
    const makerSide: Side = w.side === 'B' ? 'S' : 'B';
    // A maker's price `i` ticks past the index away from the taker (offsets count toward the other side: negative here).
    const makers = w.makers.map((m, i): Cmd => ({ kind: 'place', user: (w.user + 1 + m.user) % 4, market: w.market, side: makerSide, offset: -i, lots: m.lots, tif: 'GTC' }));
    const lots = Math.max(1, w.makers.reduce((sum, m) => sum + m.lots, 0) + w.extra);
    const warm: Cmd[] = [
      { kind: 'place', user: (w.user + 1) % 4, market: w.market, side: makerSide, offset: 0, lots: 1, tif: 'GTC' },
      { kind: 'place', user: w.user, market: w.market, side: w.side, offset: 0, lots: 1, tif: 'IOC' },
    ];
    return [...warm, ...makers, { kind: 'place', user: w.user, market: w.market, side: w.side, offset: w.makers.length, lots, tif: w.tif, sweep: true }];
  });

/** Streams of commands with sweeps among them. */
export const sweepStreamArb = fc.array(fc.oneof({ arbitrary: cmdArb.map((c) => [c]), weight: 3 }, { arbitrary: sweepArb, weight: 1 }), { minLength: 6, maxLength: 20 }).map((chunks) => chunks.flat());

/**
 * Three markets (BTC with self-trade prevention and whole taker and maker fees; one at ~2^40 ticks; a micro-tick one with fee
 * rates of no whole Money factor) and users from poor (liquidated) to rich; `narrow`: whether
 * usual fills are saved as numbers.
 */
export function make(narrow: boolean) {
  const t = makeVenue({
    instruments: [
      btcConfig({ selfTradePrevention: true, takerFee: '0.0004', makerFee: '0.0001' }),
      btcConfig({ symbol: 'BIGUSD-PERP', indexPrice: '500000000000', initialMarginPct: '10' }),
      ethConfig({ symbol: 'MICROUSD-PERP', tickSize: '0.000000000000001', indexPrice: '0.000000001', initialMarginPct: '12.3456', takerFee: '0.00033', makerFee: '-0.00011' }),
    ],
  });
  const users = [t.user('poor', '20000'), t.user('modest', '2000000'), t.user('rich', '1' + '0'.repeat(20)), t.user('richer', '1' + '0'.repeat(33))];
  // Every user trades a lot in every market first: a fill to an account without a position in
  // its market is saved whole (the position is new), so most fills of the streams are usual ones.
  for (const m of t.venue.markets) {
    for (const u of users.slice(0, 3)) {
      t.venue.placeOrderTicks(users[3]!, m, 'S', m.indexTicks, 1, 'GTC', false);
      t.venue.placeOrderTicks(u, m, 'B', m.indexTicks, 1, 'IOC', false);
    }
  }
  const run = withSwitch(setNarrowFillUndo, narrow);
  const apply = (c: Cmd): unknown => run(() => applyCmd(c));
  function applyCmd(c: Cmd): unknown {
    const v = t.venue;
    switch (c.kind) {
      case 'place': {
        const m = v.markets[c.market]!;
        const o = v.placeOrderTicks(users[c.user]!, m, c.side, Math.max(1, m.indexTicks + (c.side === 'B' ? c.offset : -c.offset)), c.lots, c.tif, false);
        return [o.id, o.state, o.filledLots];
      }
      case 'cancel': {
        const a = users[c.user]!;
        const open = v.openOrders(a);
        return open.length === 0 ? false : v.cancelOrder(a, open[c.which % open.length]!.id);
      }
      case 'cancelAll':
        return v.cancelAll(users[c.user]!);
      case 'index': {
        const m = v.markets[c.market]!;
        v.setIndexPrice(m, Math.max(1, m.indexTicks + c.offset * Math.max(1, Math.floor(m.indexTicks / 4000))));
        return undefined;
      }
      case 'liquidate':
        v.checkLiquidations();
        return v.liquidationCount;
      case 'funding':
        v.settleFundingNow(v.markets[c.market]!);
        return undefined;
      case 'time':
        t.clock.runUntil(t.clock.nowNs + BigInt(c.ms) * 1_000_000n);
        return undefined;
    }
  }
  const observed = () => ({
    hash: t.venue.stateHash(),
    totals: t.venue.moneyTotals(),
    fees: t.venue.feesCollected,
    markets: t.venue.markets.map((m) => [m.markTicks, m.book.l3(), m.stats.snapshot(), m.candles.last('1s'), m.candles.count('1s')]),
    accounts: users.map((a: Account) => ({
      cash: a.cash,
      im: a.openOrdersIm,
      open: t.venue.openOrders(a).map((o) => [o.id, o.state, o.filledLots, o.reservedIm]),
      rows: t.venue.markets.map((m) => [a.openCountIn(m), a.openLotsIn(m), a.tradedLotsIn(m), a.pendingOf(m.index)]),
      positions: a.positionList.map((p) => [p.market.symbol, p.position.netLots, p.position.buyLots, p.position.sellLots, p.position.openLots(), p.position.realizedTicks, p.position.openCostTicks, p.position.buyNotionalTicks, p.position.sellNotionalTicks, p.tradingPnl, p.fees, p.funding, p.unrealized()]),
      risk: t.venue.riskSnapshot(a),
    })),
    feeds: t.feeds.all.length,
    trades: t.feeds.trades.length,
  });
  return { t, apply, observed, feeds: t.feeds };
}

