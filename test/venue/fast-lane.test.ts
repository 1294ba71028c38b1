import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Side, TimeInForce } from '../../src/core/types.ts';
import type { Account } from '../../src/venue/account.ts';
import { setFaultHook } from '../../src/venue/fault-points.ts';
import { setFastLane } from '../../src/venue/order-fast-lane.ts';
import type { Order } from '../../src/venue/order.ts';
import { liveSlots } from '../../src/venue/order-scans.ts';
import type { VenueState } from '../../src/venue/venue-state.ts';
import { expectTwinsAgree, expectTwinsEndAlike, outcomeFailingAt, withSwitch } from './fault-outcome.ts';
import { btcConfig, ethConfig, makeVenue, money } from './fixtures.ts';

/**
 * The fast lane (order-fast-lane.ts) is the general path's result by another route: the same
 * command streams through a venue with the lane on and a twin with it off give the same answers,
 * order feeds (every field, in order), trades, book changes, marks, money, books and state hash,
 * after every command; and a command failed at its k-th fault point on both leaves both alike.
 * The streams mix what the lane takes (plain GTC / IOC orders that rest, miss, trade or are
 * self-trade canceled, cancels by engine and wire id) with what it hands on (post-only, off-band
 * and off-grid prices, margin too small or too close to call, too many open orders, unknown ids).
 */

afterEach(() => {
  setFaultHook(undefined);
  setFastLane(true);
});

type Cmd =
  | { kind: 'place'; via: 'seq' | 'ticks' | 'wire'; user: number; eth: boolean; side: Side; offset: number; lots: number; tif: TimeInForce; postOnly: boolean }
  | { kind: 'cancel'; via: 'seq' | 'wire'; user: number; which: number; unknown: boolean }
  | { kind: 'cancelAll'; user: number }
  | { kind: 'index'; eth: boolean; offset: number }
  | { kind: 'time'; ms: number };

const placeArb = fc.record({
  kind: fc.constant('place' as const),
  via: fc.constantFrom('seq' as const, 'ticks' as const, 'wire' as const),
  user: fc.nat(3),
  eth: fc.boolean(),
  side: fc.constantFrom<Side>('B', 'S'),
  // Mostly near the touch; now and then past the price band (the band is 5 % of the mark).
  offset: fc.oneof({ arbitrary: fc.integer({ min: -12, max: 12 }), weight: 9 }, { arbitrary: fc.integer({ min: -20_000, max: 20_000 }), weight: 1 }),
  lots: fc.oneof({ arbitrary: fc.integer({ min: 1, max: 12 }), weight: 8 }, { arbitrary: fc.integer({ min: 1, max: 4000 }), weight: 1 }),
  tif: fc.constantFrom<TimeInForce>('GTC', 'GTC', 'IOC'),
  postOnly: fc.oneof({ arbitrary: fc.constant(false), weight: 6 }, { arbitrary: fc.constant(true), weight: 1 }),
});
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  { arbitrary: placeArb, weight: 12 },
  {
    arbitrary: fc.record({ kind: fc.constant('cancel' as const), via: fc.constantFrom('seq' as const, 'wire' as const), user: fc.nat(3), which: fc.nat(30), unknown: fc.oneof({ arbitrary: fc.constant(false), weight: 8 }, { arbitrary: fc.constant(true), weight: 1 }) }),
    weight: 5,
  },
  { arbitrary: fc.record({ kind: fc.constant('cancelAll' as const), user: fc.nat(3) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('index' as const), eth: fc.boolean(), offset: fc.integer({ min: -30, max: 30 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('time' as const), ms: fc.integer({ min: 1, max: 5000 }) }), weight: 1 },
);

/** A venue with two markets (self-trade prevention in one, 3 open orders at most in the other) and users from poor to rich. */
function make(fast: boolean) {
  const t = makeVenue({ instruments: [btcConfig({ selfTradePrevention: true }), ethConfig({ maxOpenOrders: 3, minimumTradeQuantity: 1 })] });
  const users = [t.user('poor', '300'), t.user('modest', '20000'), t.user('rich', '100000000'), t.user('richer', '1000000000')];
  let bookChanges = 0;
  let placeCalls = 0;
  t.venue.subscribe({ bookChanged: () => void bookChanges++ });
  for (const m of t.venue.markets) {
    const placeInto = m.book.placeInto.bind(m.book);
    m.book.placeInto = (cmd, out) => {
      placeCalls++;
      placeInto(cmd, out);
    };
  }
  const seqs: number[][] = users.map(() => []);
  // Every order view handed out: an ended order's view keeps showing it after later commands
  // (an IOC that could not cross had the scratch record, which later orders rewrite).
  const views: Order[] = [];
  const store = (t.venue as unknown as { s: VenueState }).s.orders;
  const run = withSwitch(setFastLane, fast);
  const apply = (c: Cmd): unknown => run(() => applyCmd(c));
  function applyCmd(c: Cmd): unknown {
    const v = t.venue;
    switch (c.kind) {
      case 'place': {
        const m = v.markets[c.eth ? 1 : 0]!;
        const a = users[c.user]!;
        const priceTicks = Math.max(1, m.markTicks + c.offset);
        if (c.via === 'wire') {
          const o = v.placeOrder(a, { symbol: m.symbol, price: m.instrument.tick.toPrice(priceTicks), quantity: c.lots, side: c.side, timeInForce: c.tif, postOnly: c.postOnly });
          views.push(o);
          return [o.id, o.state, o.filledLots];
        }
        if (c.via === 'ticks') {
          const o = v.placeOrderTicks(a, m, c.side, priceTicks, c.lots, c.tif, c.postOnly);
          views.push(o);
          return [o.id, o.state, o.filledLots];
        }
        const seq = v.placeOrderSeq(a, m, c.side, priceTicks, c.lots, c.tif, c.postOnly);
        seqs[c.user]!.push(seq);
        return seq;
      }
      case 'cancel': {
        const a = users[c.user]!;
        if (c.via === 'wire') {
          const open = v.openOrders(a);
          return v.cancelOrder(a, c.unknown || open.length === 0 ? 'O-0000000000000000000000000' : open[c.which % open.length]!.id);
        }
        const mine = seqs[c.user]!;
        return v.cancelOrderSeq(a, c.unknown || mine.length === 0 ? 1e6 + c.which : mine[c.which % mine.length]!);
      }
      case 'cancelAll':
        return v.cancelAll(users[c.user]!);
      case 'index': {
        const m = v.markets[c.eth ? 1 : 0]!;
        v.setIndexPrice(m, Math.max(1, m.indexTicks + c.offset));
        return undefined;
      }
      case 'time':
        t.clock.runUntil(t.clock.nowNs + BigInt(c.ms) * 1_000_000n);
        return undefined;
    }
  }
  const observed = () => ({
    hash: t.venue.stateHash(),
    totals: t.venue.moneyTotals(),
    marks: t.venue.markets.map((m) => [m.markTicks, m.bandEdgeTicks('B'), m.bandEdgeTicks('S'), m.book.l3()]),
    accounts: users.map((a: Account) => ({
      cash: a.cash,
      im: a.openOrdersIm,
      open: t.venue.openOrders(a).map((o) => [o.id, o.state, o.filledLots, o.reservedIm]),
      rows: t.venue.markets.map((m) => [a.openCountIn(m), a.openLotsIn(m), a.tradedLotsIn(m)]),
      positions: a.positionList.map((p) => [p.market.symbol, p.position.netLots, p.position.openLots(), p.tradingPnl, p.fees]),
      risk: t.venue.riskSnapshot(a),
    })),
    // The records in use are the resting orders' (none left owned by an order that ended).
    live: liveSlots(store).map((slot) => store.seq(slot)).sort((a, b) => a - b),
    views: views.map((o) => [o.id, o.state, o.filledLots, o.side, o.priceTicks, o.qtyLots]),
    feeds: t.feeds.all.length,
    trades: t.feeds.trades.length,
    bookChanges,
  });
  return { t, apply, observed, feeds: t.feeds, placeCalls: () => placeCalls };
}

describe('the fast lane', () => {
  it('gives the general path\'s answers, feeds, trades, money, books and state hash after every command (150 streams)', () => {
    let fewerBookCalls = 0;
    let fills = 0;
    fc.assert(
      fc.property(fc.array(cmdArb, { minLength: 20, maxLength: 80 }), (cmds) => {
        const fast = make(true);
        const general = make(false);
        expectTwinsAgree(fast, general, cmds);
        if (fast.placeCalls() < general.placeCalls()) fewerBookCalls++;
        fills += fast.feeds.trades.length;
      }),
      { numRuns: 150, seed: 13 },
    );
    // The lane did run (it does not ask the book about an IOC that cannot cross), and orders traded.
    expect(fewerBookCalls).toBeGreaterThan(50);
    expect(fills).toBeGreaterThan(300);
  });

  it('leaves a command failed at its k-th fault point as the general path leaves it, and both run on alike (400 streams)', () => {
    const failedAt = new Set<string>();
    fc.assert(
      fc.property(fc.array(cmdArb, { minLength: 10, maxLength: 40 }), fc.nat(), fc.nat(10), (cmds, pick, step) => {
        const fast = make(true);
        const general = make(false);
        const victim = pick % cmds.length;
        for (const [i, c] of cmds.entries()) {
          if (i !== victim) {
            expect(fast.apply(c)).toEqual(general.apply(c));
            continue;
          }
          const outcome = (twin: ReturnType<typeof make>) => outcomeFailingAt(step, () => twin.apply(c));
          const a = outcome(fast);
          const b = outcome(general);
          expect(a).toEqual(b);
          if (a.failed) failedAt.add(a.steps[step]!);
          expect(fast.observed()).toEqual(general.observed());
        }
        expectTwinsEndAlike(fast, general);
      }),
      { numRuns: 400, seed: 31 },
    );
    for (const s of ['place.accepted', 'place.book', 'place.rested', 'place.done', 'cancel.book', 'cancel.close', 'fill.position']) expect(failedAt).toContain(s);
  });
});
