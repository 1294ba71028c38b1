import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Side } from '../../src/core/types.ts';
import type { Account } from '../../src/venue/account.ts';
import { CommandFailedError } from '../../src/venue/command-log.ts';
import type { ExternalLiquidity } from '../../src/venue/external-liquidity.ts';
import { InjectedFault, setFaultHook } from '../../src/venue/fault-points.ts';
import { makeVenue, place, type TestVenue } from './fixtures.ts';
import { outcomeFailingAt } from './fault-outcome.ts';
import { RecordedOrdersOracle } from './recorded-orders-oracle.ts';

/**
 * Recorded liquidity as per-level lot totals in the book (round 7 of issue 10) against the
 * design it replaced, kept as the oracle (`recorded-orders-oracle.ts`: one book order per
 * recorded level): the same streams of recorded level changes (increases, decreases, removals,
 * resets, levels crossing account orders and each other), account orders (resting, crossing,
 * IOC, post-only), cancels and recorded trades give the same trades, order feeds, books in
 * queue order (with ids) and venue state hash after every step. Then the undo of a failed
 * account command over levels holding recorded quantity (`undo-book.ts` on the book's
 * `restoreLevelInto`).
 */

afterEach(() => setFaultHook(undefined));

const BASE = 100_000; // 50000 at tick 0.5
const priceText = (ticks: number) => String(ticks / 2);

type Step =
  | { kind: 'levels'; reset: boolean; rows: { side: Side; depth: number; qtyLots: number }[] }
  | { kind: 'place'; user: number; side: Side; depth: number; qtyLots: number; tif: 'GTC' | 'IOC'; postOnly: boolean }
  | { kind: 'cancel'; user: number; which: number }
  | { kind: 'recorded-trade'; user: number; which: number; lots: number; print: number };

const side = fc.constantFrom<Side>('B', 'S');
/** Ticks away from the middle on the side's own side: mostly resting, crossing at depth < 1. */
const depth = fc.integer({ min: -1, max: 5 });
const priceOf = (s: Side, d: number) => (s === 'B' ? BASE - d : BASE + d);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('levels' as const), reset: fc.constant(false), rows: fc.array(fc.record({ side, depth, qtyLots: fc.integer({ min: 0, max: 6 }) }), { minLength: 1, maxLength: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('levels' as const), reset: fc.constant(true), rows: fc.array(fc.record({ side, depth, qtyLots: fc.integer({ min: 0, max: 6 }) }), { maxLength: 4 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('place' as const), user: fc.nat(1), side, depth, qtyLots: fc.integer({ min: 1, max: 8 }), tif: fc.constantFrom<'GTC' | 'IOC'>('GTC', 'GTC', 'IOC'), postOnly: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), user: fc.nat(1), which: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('recorded-trade' as const), user: fc.nat(1), which: fc.nat(), lots: fc.integer({ min: 1, max: 4 }), print: fc.integer({ min: 0, max: 3 }) }) },
);

interface Twin extends TestVenue {
  users: Account[];
}

function twin(oracle: boolean): Twin {
  const t = makeVenue();
  if (oracle) {
    const inner = t.venue as unknown as { s: never; flow: never };
    (t.venue as { external: ExternalLiquidity }).external = new RecordedOrdersOracle(inner.s, inner.flow) as unknown as ExternalLiquidity;
  }
  return { ...t, users: [t.user('alice', '10000000'), t.user('bob', '10000000')] };
}

function apply(t: Twin, s: Step): void {
  const { venue, btc } = t;
  if (s.kind === 'levels') {
    const updates = s.rows.map((r) => ({ side: r.side, priceTicks: priceOf(r.side, r.depth), qtyLots: r.qtyLots }));
    venue.exclusive(() => venue.external.applyLevels(btc, updates, s.reset));
  } else if (s.kind === 'place') {
    place(venue, t.users[s.user]!, s.side, priceText(priceOf(s.side, s.depth)), s.qtyLots, { tif: s.tif, postOnly: s.postOnly });
  } else if (s.kind === 'cancel') {
    const open = venue.openOrders(t.users[s.user]!);
    if (open.length > 0) venue.cancelOrder(t.users[s.user]!, open[s.which % open.length]!.id);
  } else {
    const open = venue.openOrders(t.users[s.user]!);
    const order = open.length > 0 ? venue.openOrder(open[s.which % open.length]!.id) : undefined;
    venue.exclusive(() => {
      if (order !== undefined) venue.external.fillFromRecordedTrade(order, Math.min(s.lots, order.qtyLots - order.filledLots), order.priceTicks);
      if (s.print > 0) venue.external.printRecordedTrade(btc, BASE, s.print, 'B');
    });
  }
}

/** What both designs must agree on after every step. */
function observed(t: Twin): unknown {
  return {
    hash: t.venue.stateHash(),
    l3: t.btc.book.l3(),
    trades: t.feeds.trades.map((x) => [x.tid, x.priceTicks, x.qtyLots, x.takerSide, x.makerOrderId, x.takerOrderId, x.makerUserId, x.takerUserId]),
    feeds: t.feeds.all.map((e) => JSON.stringify([e.userId, e.feed])),
    open: t.users.map((u) => t.venue.openOrders(u).map((o) => [o.id, o.state, o.filledLots])),
    shown: [-5, -1, 0, 1, 5].map((o) => [t.venue.external.displayedLots(t.btc, 'B', BASE + o), t.venue.external.displayedLots(t.btc, 'S', BASE + o)]),
  };
}

describe('recorded liquidity as lot totals in the book equals one book order per recorded level', () => {
  it('a failed cancel of an order queued behind recorded quantity puts it back behind it, not ahead by its smaller id', () => {
    const t = twin(false);
    const [alice] = t.users;
    t.venue.exclusive(() => t.venue.external.applyLevels(t.btc, [{ side: 'B', priceTicks: BASE - 2, qtyLots: 5 }], false));
    place(t.venue, alice!, 'B', priceText(BASE - 2), 3);
    const queue = () => t.btc.book.l3().bids.find((l) => l.priceTicks === BASE - 2)!.orders.map((o) => [o.orderId >= 2 ** 30 ? 'recorded' : 'alice', o.qtyLots]);
    expect(queue()).toEqual([['recorded', 5], ['alice', 3]]);
    const hash = t.venue.stateHash();
    setFaultHook((name) => {
      if (name === 'cancel.close') throw new InjectedFault(name); // after the book took the order out
    });
    expect(() => t.venue.cancelOrder(alice!, t.venue.openOrders(alice!)[0]!.id)).toThrow(CommandFailedError);
    setFaultHook(undefined);
    expect(queue()).toEqual([['recorded', 5], ['alice', 3]]);
    expect(t.venue.stateHash()).toBe(hash);
  });

  it('the same trades, feeds, queues, ids and state hash after every step of random streams (300 runs)', () => {
    let crossedAccounts = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        const real = twin(false);
        const oracle = twin(true);
        for (const s of steps) {
          const before = real.feeds.trades.length;
          apply(real, s);
          apply(oracle, s);
          if (s.kind === 'levels' && real.feeds.trades.length > before) crossedAccounts++;
          expect(observed(real)).toEqual(observed(oracle));
        }
      }),
      { numRuns: 300, seed: 7 },
    );
    // The streams did make recorded levels trade with account orders (not only rest beside them).
    expect(crossedAccounts).toBeGreaterThan(20);
  });

  it('an account command failing at any step over levels with recorded quantity leaves the book as before (200 runs)', () => {
    let undoneWithRecorded = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 5, maxLength: 30 }), fc.nat(), fc.nat(12), (steps, pick, failAt) => {
        const failing = twin(false);
        const other = twin(false);
        // One account command in the second half of the stream fails (the book is deeper there).
        const commands = steps.map((s, i) => (i >= steps.length / 2 && (s.kind === 'place' || s.kind === 'cancel') ? i : -1)).filter((i) => i >= 0);
        const victim = commands.length === 0 ? -1 : commands[pick % commands.length]!;
        for (const [i, s] of steps.entries()) {
          if (i !== victim) {
            apply(failing, s);
            apply(other, s);
            continue;
          }
          const recordedBefore = failing.btc.book.l3().bids.concat(failing.btc.book.l3().asks).some((l) => l.orders.some((o) => o.orderId >= 2 ** 30));
          const { failed } = outcomeFailingAt(failAt, () => apply(failing, s));
          if (!failed) apply(other, s);
          else if (recordedBefore) undoneWithRecorded++;
          expect(observed(failing)).toEqual(observed(other));
        }
      }),
      { numRuns: 200, seed: 11 },
    );
    expect(undoneWithRecorded).toBeGreaterThan(30);
  });
});
