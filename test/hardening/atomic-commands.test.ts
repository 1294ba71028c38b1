import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { CANDLE_INTERVALS, type CandleInterval } from '../../src/market/candles.ts';
import type { Position } from '../../src/risk/position.ts';
import type { Account } from '../../src/venue/account.ts';
import { CommandFailedError } from '../../src/venue/command-log.ts';
import { InjectedFault, setFaultHook } from '../../src/venue/fault-points.ts';
import type { Venue } from '../../src/venue/venue.ts';
import { btcConfig, ethConfig, makeVenue, place, type TestVenue } from '../venue/fixtures.ts';

/**
 * Commands apply fully or not at all. A test-only hook throws at the k-th step a command
 * reaches (every fault point of order entry, matching, each fill, candles, stats, cancels,
 * funding, liquidation), for every k; the command must then throw `CommandFailedError`, tell
 * no listener anything, and leave the venue exactly as before: state hash, books in queue
 * order, candles, stats, positions with their FIFO lots, open orders, histories. The oracle:
 * the same command run afterwards without the fault gives the same venue as on a twin that
 * never saw the failure (so ids, trade ids and execution ids were taken back too).
 */

afterEach(() => setFaultHook(undefined));

/** Everything observable about a venue, as plain data. */
function fingerprint(venue: Venue): unknown {
  return {
    hash: venue.stateHash(),
    totals: venue.moneyTotals(),
    markets: venue.markets.map((m) => ({
      state: m.state,
      mark: m.markTicks,
      index: m.indexTicks,
      l3: m.book.l3(),
      candles: (Object.keys(CANDLE_INTERVALS) as CandleInterval[]).map((i) => m.candles.query(i, -Infinity, Infinity)),
      stats: m.stats.snapshot(),
      marks: m.markHistory.map((r) => ({ ...r })),
      funding: m.fundingHistory.map((r) => ({ ...r })),
      band: [m.bandEdgeTicks('B'), m.bandEdgeTicks('S')],
    })),
    accounts: venue.accounts.map((a) => ({
      cash: a.cash,
      im: a.openOrdersIm,
      open: venue.openOrders(a).map((o) => ({ id: o.id, state: o.state, filled: o.filledLots, im: o.reservedIm })),
      openIn: venue.markets.map((m) => [a.openCountIn(m), a.openLotsIn(m)]),
      positions: a.positionList.map((p) => ({ ...positionState(p.position), lots: p.position.openLots(), pnl: [p.tradingPnl, p.fees, p.funding] })),
      risk: venue.riskSnapshot(a),
    })),
    liquidations: venue.liquidationCount,
    fees: venue.feesCollected,
  };
}

/**
 * A position's numbers but the layout of its lot storage (which pairs of which array, and the
 * save holding it): the next command's save may reclaim that in place, which is no change of
 * state. The lots themselves are compared through `openLots`.
 */
function positionState(p: Position): Record<string, unknown> {
  return {
    net: p.netLots,
    bought: p.buyLots,
    sold: p.sellLots,
    version: p.version,
    buy: p.buyNotionalTicks,
    sell: p.sellNotionalTicks,
    realized: p.realizedTicks,
    openCost: p.openCostTicks,
  };
}

/** Counts the steps a command reaches, or throws at step `failAt` (1-based). */
function armFault(failAt: number): { steps: string[] } {
  const seen = { steps: [] as string[] };
  setFaultHook((step) => {
    seen.steps.push(step);
    if (seen.steps.length === failAt) throw new InjectedFault(step);
  });
  return seen;
}

/**
 * Runs `command` on fresh twins of `setup`, failing at every step in turn. Returns the steps
 * of the whole command (for the caller to check that the interesting ones were covered).
 */
function failEveryStep<T extends TestVenue>(setup: () => T, command: (t: T) => unknown): string[] {
  const clean = setup();
  const all = armFault(0);
  command(clean);
  setFaultHook(undefined);
  const after = fingerprint(clean.venue);
  expect(all.steps.length).toBeGreaterThan(0);

  for (let k = 1; k <= all.steps.length; k++) {
    const t = setup();
    const before = fingerprint(t.venue);
    const heard = t.feeds.all.length + t.feeds.trades.length;
    armFault(k);
    let error: unknown;
    try {
      command(t);
    } catch (e) {
      error = e;
    }
    setFaultHook(undefined);
    const where = `failure at step ${k} (${all.steps[k - 1]})`;
    expect(error, where).toBeInstanceOf(CommandFailedError);
    expect((error as Error).message, where).toBe(`command not applied: injected failure at ${all.steps[k - 1]}`);
    expect(t.feeds.all.length + t.feeds.trades.length, `${where}: listeners heard of it`).toBe(heard);
    expect(fingerprint(t.venue), where).toEqual(before);
    // Afterwards the same command applies as if the failure had never happened.
    command(t);
    expect(fingerprint(t.venue), `${where}, then rerun`).toEqual(after);
  }
  return all.steps;
}

/**
 * Three makers on four ask levels (one level with two queued orders of different owners),
 * a position for the taker to close part of with FIFO lots, trades already in the candles.
 */
function tradeSetup(options: { selfTrade?: boolean } = {}) {
  const t = makeVenue({ instruments: [btcConfig({ selfTradePrevention: options.selfTrade ?? false }), ethConfig()] });
  const [taker, m1, m2, m3] = ['taker', 'm1', 'm2', 'm3'].map((n) => t.user(n, '10000000')) as [Account, Account, Account, Account];
  // The taker is short 3 (two FIFO lots), so its buy closes lots, then opens a long.
  place(t.venue, m1, 'B', '50000', 2);
  place(t.venue, taker, 'S', '50000', 2);
  place(t.venue, m2, 'B', '49990', 1);
  place(t.venue, taker, 'S', '49990', 1);
  place(t.venue, m1, 'S', '50010', 2);
  place(t.venue, m2, 'S', '50010', 3);
  place(t.venue, m3, 'S', '50020', 1);
  place(t.venue, taker, 'S', '50030', 2); // the taker's own ask (self-trade prevention cancels it)
  place(t.venue, m3, 'S', '50030', 4);
  place(t.venue, m2, 'S', '50040', 5);
  place(t.venue, m1, 'S', '50040', 1);
  place(t.venue, m1, 'B', '95', 1, { symbol: 'ETHUSD-PERP' });
  return { ...t, taker, m1, m2, m3 };
}

describe('commands apply fully or not at all', () => {
  it('a taker sweeping four levels, partly filling the last, leaves nothing behind when any step fails', () => {
    const steps = failEveryStep(tradeSetup, (t) => place(t.venue, t.taker, 'B', '50040', 14));
    for (const step of ['place.accepted', 'place.book', 'trade.maker', 'trade.taker', 'trade.candles', 'trade.stats', 'fill.position', 'fill.cash', 'fill.order', 'place.done']) {
      expect(steps).toContain(step);
    }
    expect(steps.filter((s) => s === 'trade.stats').length).toBe(6);
  });

  it('a taker that trades and then rests its remainder, with self-trade prevention canceling its own ask', () => {
    const steps = failEveryStep(() => tradeSetup({ selfTrade: true }), (t) => place(t.venue, t.taker, 'B', '50030', 20));
    expect(steps).toContain('place.self-trade');
    expect(steps).toContain('place.rested');
  });

  it('an IOC taker whose remainder expires', () => {
    failEveryStep(tradeSetup, (t) => place(t.venue, t.taker, 'B', '50020', 9, { tif: 'IOC' }));
  });

  it('a resting order, a cancel and a cancel-all', () => {
    failEveryStep(tradeSetup, (t) => place(t.venue, t.m3, 'S', '50010', 1));
    failEveryStep(tradeSetup, (t) => t.venue.cancelOrder(t.m2, t.venue.openOrders(t.m2)[0]!.id));
    const steps = failEveryStep(tradeSetup, (t) => t.venue.cancelAll(t.m1));
    expect(steps.filter((s) => s === 'cancel.book').length).toBe(3);
  });

  it('an order that moves the mark (the touch sits above the index) leaves mark, band and funding averages as they were', () => {
    const setup = () => {
      const t = makeVenue();
      const [a, b] = ['a', 'b'].map((n) => t.user(n, '10000000')) as [Account, Account];
      place(t.venue, a, 'B', '50010', 1);
      place(t.venue, b, 'S', '50030', 1);
      return { ...t, a, b };
    };
    // The mark is the median of index 50,000, bid and ask: 50,010 now, 50,020 once the bid rests.
    expect(setup().btc.markTicks).toBe(100_020);
    const moved = setup();
    place(moved.venue, moved.b, 'B', '50020', 1);
    expect(moved.btc.markTicks).toBe(100_040);
    const steps = failEveryStep(setup, (t) => place(t.venue, t.b, 'B', '50020', 1));
    // A step after the mark moved (the command's last) was among those failed.
    expect(steps[steps.length - 1]).toBe('place.done');
  });

  it('a funding settlement paying and charging several accounts', () => {
    const steps = failEveryStep(
      () => {
        const t = tradeSetup();
        place(t.venue, t.taker, 'B', '50040', 12);
        t.clock.runUntil(t.clock.nowNs + 3_600_000_000_000n);
        return t;
      },
      (t) => t.venue.settleFundingNow(t.btc),
    );
    expect(steps.filter((s) => s === 'funding.cash').length).toBe(3);
    expect(steps).toContain('funding.mark');
  });

  it('a liquidation: its cancels, its closing IOC order and that order\'s fills', () => {
    const steps = failEveryStep(
      () => {
        const t = makeVenue({ instruments: [btcConfig(), ethConfig()] });
        const alice = t.user('alice', '8000');
        const bob = t.user('bob');
        place(t.venue, bob, 'S', '50000', 1);
        place(t.venue, alice, 'B', '50000', 1);
        place(t.venue, alice, 'B', '95', 1, { symbol: 'ETHUSD-PERP' });
        place(t.venue, alice, 'B', '40000', 1);
        place(t.venue, bob, 'B', '46000', 2);
        place(t.venue, bob, 'S', '47000', 1);
        t.venue.setIndexPrice(t.btc, t.btc.instrument.tick.toTicks('46200')!);
        return t;
      },
      (t) => t.venue.checkLiquidations(),
    );
    for (const step of ['liquidation.start', 'liquidation.cancel', 'liquidation.close', 'fill.position', 'trade.stats']) expect(steps).toContain(step);
  });
});

describe('a failed command is as if it had never been sent', () => {
  type Cmd = { user: number; side: 'B' | 'S'; offset: number; qty: number; ioc: boolean } | { cancel: number; which: number };
  const cmd: fc.Arbitrary<Cmd> = fc.oneof(
    { arbitrary: fc.record({ user: fc.nat(3), side: fc.constantFrom('B' as const, 'S' as const), offset: fc.integer({ min: -2, max: 2 }), qty: fc.integer({ min: 1, max: 6 }), ioc: fc.boolean() }), weight: 4 },
    { arbitrary: fc.record({ cancel: fc.nat(3), which: fc.nat(9) }), weight: 1 },
  );

  function apply(venue: Venue, users: Account[], c: Cmd): void {
    if ('cancel' in c) {
      const open = venue.openOrders(users[c.cancel]!);
      if (open.length > 0) venue.cancelOrder(users[c.cancel]!, open[c.which % open.length]!.id);
      return;
    }
    place(venue, users[c.user]!, c.side, String(50000 + c.offset * 5), c.qty, { tif: c.ioc ? 'IOC' : 'GTC' });
  }

  it('random command streams with one command failing at a random step equal the same streams without that command (150 runs)', () => {
    let failedAfterMatching = 0;
    fc.assert(
      fc.property(fc.array(cmd, { minLength: 10, maxLength: 40 }), fc.nat(), fc.nat(14), (cmds, failIndex, step) => {
        const make = () => {
          const t = makeVenue({ instruments: [btcConfig({ selfTradePrevention: true })] });
          return { t, users: ['a', 'b', 'c', 'd'].map((n) => t.user(n, '10000000')) };
        };
        const failing = make();
        const twin = make();
        // Late in the stream, where the book is deep enough for queues to matter.
        const victim = cmds.length - 1 - (failIndex % Math.ceil(cmds.length / 3));
        for (const [i, c] of cmds.entries()) {
          if (i !== victim) {
            apply(failing.t.venue, failing.users, c);
            apply(twin.t.venue, twin.users, c);
            continue;
          }
          const seen = armFault(step + 1);
          try {
            apply(failing.t.venue, failing.users, c);
          } catch (e) {
            expect(e).toBeInstanceOf(CommandFailedError);
          }
          setFaultHook(undefined);
          // Too few steps to fail at: the command applied, so the twin applies it too.
          if (seen.steps.length <= step) apply(twin.t.venue, twin.users, c);
          else if (seen.steps.slice(0, step + 1).includes('place.book')) failedAfterMatching++;
          expect(fingerprint(failing.t.venue)).toEqual(fingerprint(twin.t.venue));
        }
        expect(fingerprint(failing.t.venue)).toEqual(fingerprint(twin.t.venue));
      }),
      { numRuns: 150, seed: 17 },
    );
    // The runs did fail commands after the book had matched them (not only before).
    expect(failedAfterMatching).toBeGreaterThan(30);
  });
});
