import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Side, TimeInForce } from '../../src/core/types.ts';
import type { Account } from '../../src/venue/account.ts';
import { setFaultHook } from '../../src/venue/fault-points.ts';
import { setNarrowFillUndo } from '../../src/venue/fill-undo.ts';
import { expectTwinsAgree, expectTwinsEndAlike, outcomeFailingAt, withSwitch } from './fault-outcome.ts';
import { btcConfig, ethConfig, makeVenue } from './fixtures.ts';

/**
 * A usual fill's account and position are saved for the undo as numbers alone (fill-undo.ts:
 * `U_FILL`, per fill), the others with their Money (`saveAccount`, `savePosition`, once per
 * command). The same command streams through a venue saving usual fills narrowly and a twin
 * saving every fill whole give the same answers, feeds, trades, money, positions and state hash
 * after every command; and a command failed at its k-th fault point leaves both alike, and as a twin that never
 * saw it, and both run on alike. The
 * streams fill often: partial fills, both sides of one account, positions flipping through zero,
 * self-trade prevention, liquidations and funding between commands, a market at ~2^40 ticks whose
 * fills pass 2^53 (the Money path) and a micro-tick market whose fees have no whole factor.
 */

afterEach(() => {
  setFaultHook(undefined);
  setNarrowFillUndo(true);
});

type Cmd =
  | { kind: 'place'; user: number; market: number; side: Side; offset: number; lots: number; tif: TimeInForce; sweep?: boolean }
  | { kind: 'cancel'; user: number; which: number }
  | { kind: 'cancelAll'; user: number }
  | { kind: 'index'; market: number; offset: number }
  | { kind: 'liquidate' }
  | { kind: 'funding'; market: number }
  | { kind: 'time'; ms: number };

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
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
const sweepStreamArb = fc.array(fc.oneof({ arbitrary: cmdArb.map((c) => [c]), weight: 3 }, { arbitrary: sweepArb, weight: 1 }), { minLength: 6, maxLength: 20 }).map((chunks) => chunks.flat());

/**
 * Three markets (BTC with self-trade prevention and whole taker and maker fees; one at ~2^40 ticks; a micro-tick one with fee
 * rates of no whole Money factor) and users from poor (liquidated) to rich; `narrow`: whether
 * usual fills are saved as numbers.
 */
function make(narrow: boolean) {
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

/**
 * Runs `cmds` through a venue saving usual fills as numbers, a twin saving them whole and a venue
 * that never sees command `victim`, which fails on the first two at its fault point `step`:
 * equal answers (and states after every command when `observeEach`), equal outcomes of the
 * victim, then equal states, and the state of the venue that never saw it when it failed; equal
 * feeds and trades at the end. Returns the victim's outcome.
 */
function failOneOf(cmds: readonly Cmd[], victim: number, step: number, observeEach: boolean): { steps: string[]; failed: boolean } {
  const narrow = make(true);
  const whole = make(false);
  const never = make(true);
  let outcome = { steps: [] as string[], failed: false };
  for (const [i, c] of cmds.entries()) {
    if (i !== victim) {
      expect(narrow.apply(c)).toEqual(whole.apply(c));
      never.apply(c);
      if (observeEach) expect(narrow.observed()).toEqual(whole.observed());
      continue;
    }
    const run = (twin: ReturnType<typeof make>) => outcomeFailingAt(step, () => twin.apply(c));
    outcome = run(narrow);
    expect(outcome).toEqual(run(whole));
    if (!outcome.failed) never.apply(c);
    expect(narrow.observed()).toEqual(whole.observed());
    expect({ ...narrow.observed(), feeds: 0 }).toEqual({ ...never.observed(), feeds: 0 });
  }
  expectTwinsEndAlike(narrow, whole);
  return outcome;
}

describe('a fill saved for the undo as numbers', () => {
  it('gives the answers, feeds, trades, money, positions and state hash of fills saved whole, after every command (120 streams)', () => {
    let trades = 0;
    fc.assert(
      fc.property(fc.array(cmdArb, { minLength: 20, maxLength: 70 }), (cmds) => {
        const narrow = make(true);
        const whole = make(false);
        expectTwinsAgree(narrow, whole, cmds);
        trades += narrow.feeds.trades.length;
      }),
      { numRuns: 120, seed: 14 },
    );
    expect(trades).toBeGreaterThan(300);
  }, 120_000);

  it('leaves a command failed at its k-th fault point as fills saved whole leave it and as a venue that never saw it, and both run on alike (400 streams)', () => {
    const failedAt = new Set<string>();
    fc.assert(
      fc.property(fc.array(cmdArb, { minLength: 10, maxLength: 40 }), fc.nat(), fc.nat(12), (cmds, pick, step) => {
        // A place late in the stream (one that may trade, with positions and pending counters
        // grown by then), failed at a step up to the fills of its first trades.
        const places = cmds.flatMap((c, i) => (c.kind === 'place' && i >= cmds.length / 2 ? [i] : []));
        const victim = places.length === 0 ? cmds.length - 1 : places[pick % places.length]!;
        const a = failOneOf(cmds, victim, step, false);
        if (a.failed) failedAt.add(a.steps[step]!);
      }),
      { numRuns: 400, seed: 41 },
    );
    // Failures came inside both fills of a trade and after them.
    for (const s of ['fill.position', 'fill.cash', 'fill.order', 'trade.maker', 'trade.taker', 'place.done']) expect(failedAt).toContain(s);
  }, 120_000);

  it('leaves a sweep failed at any of its fault points, its taker saved once for all its fills, as fills saved whole leave it and as a venue that never saw it (300 streams)', () => {
    const failedAt = new Set<string>();
    let deepest = 0;
    fc.assert(
      fc.property(sweepStreamArb, fc.nat(), fc.nat(70), (cmds, pick, step) => {
        const sweeps = cmds.flatMap((c, i) => (c.kind === 'place' && c.sweep === true ? [i] : []));
        const victim = sweeps.length === 0 ? cmds.length - 1 : sweeps[pick % sweeps.length]!;
        const a = failOneOf(cmds, victim, step, true);
        if (!a.failed) return;
        failedAt.add(a.steps[step]!);
        // The fault came after the taker's second fill: its later fills wrote no copy of their own.
        if (a.steps.slice(0, step).filter((x) => x === 'trade.taker').length >= 2) deepest++;
      }),
      { numRuns: 300, seed: 15 },
    );
    for (const s of ['fill.position', 'fill.cash', 'fill.order', 'trade.maker', 'trade.taker', 'trade.candles', 'trade.stats', 'place.done']) expect(failedAt).toContain(s);
    expect(deepest).toBeGreaterThan(30);
  }, 120_000);

  it("counts each open order and its remaining lots in its account's row after sweeps, fills and cancels, as the open orders themselves say (150 streams)", () => {
    let filledMakers = 0;
    fc.assert(
      fc.property(sweepStreamArb, (cmds) => {
        const twin = make(true);
        const v = twin.t.venue;
        for (const c of cmds) {
          twin.apply(c);
          for (const a of v.accounts) {
            const open = v.openOrders(a);
            for (const m of v.markets) {
              const here = open.filter((o) => o.market === m);
              expect([a.openCountIn(m), a.openLotsIn(m)]).toEqual([here.length, here.reduce((sum, o) => sum + o.qtyLots - o.filledLots, 0)]);
            }
          }
        }
        filledMakers += twin.feeds.all.filter((f) => f.feed.t === 'f' && f.feed.xs?.agg === false).length;
      }),
      { numRuns: 150, seed: 16 },
    );
    expect(filledMakers).toBeGreaterThan(200);
  }, 120_000);
});
