import { describe, expect, it } from 'vitest';
import { RandomStream } from '../../src/random/random-stream.ts';
import type { VenueTrade } from '../../src/venue/feeds.ts';
import { EXTERNAL_OWNER } from '../../src/venue/external-owner.ts';
import { binance, btcScenario, SECOND, START_NS, startBtcReplay, stepUntil, SYMBOL } from './l2-fixture.ts';

/** One clock step as seen from a resting bid. */
interface Step {
  aheadBefore: number;
  aheadAfter: number;
  /** Recorded lots sold (sellers aggressing) at the bid's price during the step. */
  sold: number;
  shownBefore: number;
  shownAfter: number;
  /** Lots of the bid filled during the step. */
  filled: number;
  /** Lots filled by recorded trades (not by a recorded level crossing the bid). */
  filledByTrades: number;
  /** Open lots of the bid before the step. */
  openBefore: number;
}

/** Recorded (external-taker) lots at `priceTicks` sold into bids, in `trades` from `from` on. */
function soldAt(trades: readonly VenueTrade[], from: number, priceTicks: number): number {
  let lots = 0;
  for (let i = from; i < trades.length; i++) {
    const t = trades[i]!;
    if (t.takerUserId === EXTERNAL_OWNER && t.takerSide === 'S' && t.priceTicks === priceTicks) lots += t.qtyLots;
  }
  return lots;
}

/** Joins the `level`-th best bid (0: the touch) 20 s into the capture and records every clock step for `seconds`. */
async function watchBid(queueModel: 'risk-averse' | 'prob', qtyLots: number, seconds: bigint, level = 0) {
  const built = await startBtcReplay(btcScenario(queueModel));
  const { sim, replayer, trades } = built;
  const market = sim.venue.market(SYMBOL)!;
  stepUntil(built, START_NS + 20n * SECOND);
  const bid = market.book.l2(level + 1).bids[level]!.priceTicks;
  const shownAtEntry = sim.venue.external.displayedLots(market, 'B', bid);
  const order = sim.venue.placeOrderTicks(sim.venue.account('alice')!, market, 'B', bid, qtyLots);
  const entry = replayer.tracker.orders(market).find((o) => o.orderId === order.id)!;
  const aheadAtEntry = entry.ahead;
  const steps: Step[] = [];
  let ahead = entry.ahead;
  let shown = shownAtEntry;
  let filled = order.filledLots;
  let byTrades = replayer.stats.ownFillLots;
  let seen = trades.length;
  stepUntil(built, START_NS + (20n + seconds) * SECOND, () => {
    const shownNow = sim.venue.external.displayedLots(market, 'B', bid);
    steps.push({ aheadBefore: ahead, aheadAfter: entry.ahead, sold: soldAt(trades, seen, bid), shownBefore: shown, shownAfter: shownNow, filled: order.filledLots - filled, filledByTrades: replayer.stats.ownFillLots - byTrades, openBefore: qtyLots - filled });
    ahead = entry.ahead;
    shown = shownNow;
    filled = order.filledLots;
    byTrades = replayer.stats.ownFillLots;
    seen = trades.length;
  });
  return { built, order, steps, shownAtEntry, aheadAtEntry };
}

describe.skipIf(binance.missing)(binance.title, () => {
  it('under the risk-averse model only recorded trades move an order up its queue, never cancels', async () => {
    const { steps, shownAtEntry, aheadAtEntry } = await watchBid('risk-averse', 20_000, 40n);
    expect(shownAtEntry).toBeGreaterThan(0);
    expect(aheadAtEntry).toBe(shownAtEntry); // it joined behind everything displayed
    let cancelsIgnored = 0;
    let tradeMoves = 0;
    for (const s of steps) {
      expect(s.aheadAfter).toBeGreaterThanOrEqual(0);
      expect(s.aheadAfter).toBeLessThanOrEqual(s.aheadBefore);
      if (s.sold === 0) {
        // No trade at its price: it moves only when the level shrank below what was ahead.
        expect(s.aheadAfter).toBeLessThanOrEqual(Math.min(s.aheadBefore, s.shownAfter));
        if (s.aheadAfter < s.aheadBefore) expect(s.aheadAfter).toBe(s.shownAfter); // a cap, never a cancel taken as ahead
        if (s.shownAfter < s.shownBefore && s.shownAfter >= s.aheadBefore) {
          expect(s.aheadAfter).toBe(s.aheadBefore);
          cancelsIgnored++;
        }
      } else if (s.aheadAfter < s.aheadBefore) tradeMoves++;
    }
    expect(cancelsIgnored).toBeGreaterThan(0); // the recording did cancel ahead of it, and it held its place
    expect(tradeMoves).toBeGreaterThan(0);
  }, 60_000);

  it('under the probabilistic model a cancel moves orders up by part of the decrease, where risk-averse holds them', async () => {
    // One small bid on each of the 20 best bid levels, watched per order and clock step.
    const watch = async (model: 'risk-averse' | 'prob') => {
      const built = await startBtcReplay(btcScenario(model));
      const { sim, replayer, trades } = built;
      const market = sim.venue.market(SYMBOL)!;
      stepUntil(built, START_NS + 20n * SECOND);
      const alice = sim.venue.account('alice')!;
      const levels = market.book.l2(20).bids.map((l) => l.priceTicks);
      for (const p of levels) sim.venue.placeOrderTicks(alice, market, 'B', p, 1);
      const entries = [...replayer.tracker.orders(market)];
      expect(entries.length).toBe(20);
      const state = entries.map((e) => ({ ahead: e.ahead, shown: sim.venue.external.displayedLots(market, 'B', e.priceTicks) }));
      let seen = trades.length;
      let cancelMoves = 0;
      stepUntil(built, START_NS + 80n * SECOND, () => {
        entries.forEach((e, i) => {
          const before = state[i]!;
          const shown = sim.venue.external.displayedLots(market, 'B', e.priceTicks);
          const sold = soldAt(trades, seen, e.priceTicks);
          expect(e.ahead).toBeGreaterThanOrEqual(0);
          if (sold === 0 && shown < before.shown) {
            const moved = before.ahead - e.ahead;
            expect(moved).toBeLessThanOrEqual(before.shown - shown + 1e-9); // never more than the level lost
            if (moved > 0 && e.ahead < shown) cancelMoves++; // moved though still inside the level: a cancel taken as ahead
          }
          before.ahead = e.ahead;
          before.shown = shown;
        });
        seen = trades.length;
      });
      return cancelMoves;
    };
    expect(await watch('prob')).toBeGreaterThan(0);
    expect(await watch('risk-averse')).toBe(0);
  }, 60_000);

  it('a resting bid is filled by recorded trades only once the trades used up the queue ahead of it', async () => {
    const { order, steps, aheadAtEntry } = await watchBid('risk-averse', 50, 60n);
    expect(order.filledLots).toBeLessThan(50 + 1);
    expect(aheadAtEntry).toBeGreaterThan(0);
    const byTrades = steps.filter((s) => s.filledByTrades > 0);
    expect(byTrades.length).toBeGreaterThan(0);
    for (const s of byTrades) {
      // Out of the recorded trades at its price, the order gets what is left after the queue ahead.
      expect(s.aheadAfter).toBe(0);
      if (s.shownBefore === s.shownAfter) expect(s.filledByTrades).toBe(Math.min(s.openBefore, s.sold - s.aheadBefore));
    }
    // The first such fill came after a queue was ahead of it: the trade ate that queue first.
    expect(byTrades[0]!.aheadBefore).toBeGreaterThan(0);
    // Trades that did not get through the queue ahead left it unfilled.
    for (const s of steps) if (s.sold <= s.aheadBefore) expect(s.filledByTrades).toBe(0);
    expect(order.filledLots).toBeGreaterThan(0);
  }, 60_000);

  it('an order that crosses takes the displayed liquidity at the displayed prices and empties those levels until the next update', async () => {
    const built = await startBtcReplay();
    const { sim, trades } = built;
    const market = sim.venue.market(SYMBOL)!;
    stepUntil(built, START_NS + 30n * SECOND);
    const asks = market.book.l2(3).asks;
    expect(asks.length).toBe(3);
    const want = asks[0]!.qtyLots + asks[1]!.qtyLots + 1;
    const alice = sim.venue.account('alice')!;
    const from = trades.length;
    const order = sim.venue.placeOrderTicks(alice, market, 'B', asks[2]!.priceTicks, want, 'IOC');
    const mine = trades.slice(from).map((t) => [t.priceTicks, t.qtyLots, t.takerUserId, t.makerUserId]);
    expect(mine).toEqual([
      [asks[0]!.priceTicks, asks[0]!.qtyLots, alice.id, EXTERNAL_OWNER],
      [asks[1]!.priceTicks, asks[1]!.qtyLots, alice.id, EXTERNAL_OWNER],
      [asks[2]!.priceTicks, 1, alice.id, EXTERNAL_OWNER],
    ]);
    expect(order.state).toBe('FILLED');
    expect(sim.venue.riskSnapshot(alice)).toBeDefined();
    expect(alice.findPosition(market)!.position.netLots).toBe(want);
    expect(alice.findPosition(market)!.fees).toBeGreaterThan(0n); // taker fee, as on any order
    expect(sim.venue.external.displayedLots(market, 'S', asks[0]!.priceTicks)).toBe(0);
    expect(sim.venue.external.displayedLots(market, 'S', asks[2]!.priceTicks)).toBe(asks[2]!.qtyLots - 1);
    expect(market.book.bestAskTicks()).toBe(asks[2]!.priceTicks);
  }, 60_000);

  it('the same recording, seed and orders give the same state hash; a different queue model does not', async () => {
    const run = async (model: 'risk-averse' | 'prob') => {
      const built = await startBtcReplay(btcScenario(model));
      const { sim } = built;
      const market = sim.venue.market(SYMBOL)!;
      const alice = sim.venue.account('alice')!;
      for (let k = 1n; k <= 6n; k++) {
        stepUntil(built, START_NS + k * 10n * SECOND);
        sim.venue.placeOrderTicks(alice, market, 'B', market.book.bestBidTicks()!, 30);
        sim.venue.placeOrderTicks(alice, market, 'S', market.book.bestAskTicks()! + 5, 30);
      }
      stepUntil(built, START_NS + 90n * SECOND);
      return sim.venue.stateHash();
    };
    const a = await run('risk-averse');
    expect(await run('risk-averse')).toBe(a);
    expect(await run('prob')).not.toBe(a);
  }, 60_000);

  it('random orders on the replay never give a negative queue position or fills beyond what was displayed plus own orders', async () => {
    const built = await startBtcReplay(btcScenario('prob'));
    const { sim, replayer, trades } = built;
    const market = sim.venue.market(SYMBOL)!;
    const alice = sim.venue.account('alice')!;
    const rng = new RandomStream('l2-property');
    const recordedLots = new Map<number, number>(); // by step: recorded lots traded
    let seen = trades.length;
    let ownFill = replayer.stats.ownFillLots;
    let steps = 0;
    for (let t = 21n; t <= 80n; t++) {
      stepUntil(built, START_NS + t * SECOND, () => {
        steps++;
        for (const o of replayer.tracker.orders(market)) expect(o.ahead).toBeGreaterThanOrEqual(0);
        // A recorded trade fills own orders with at most its own quantity.
        let recorded = 0;
        for (let i = seen; i < trades.length; i++) if (trades[i]!.takerUserId === EXTERNAL_OWNER) recorded += trades[i]!.qtyLots;
        expect(replayer.stats.ownFillLots - ownFill).toBeLessThanOrEqual(recorded);
        recordedLots.set(steps, recorded);
        seen = trades.length;
        ownFill = replayer.stats.ownFillLots;
      });
      const side = rng.chance(0.5) ? 'B' : 'S';
      const touch = (side === 'B' ? market.book.bestBidTicks() : market.book.bestAskTicks())!;
      const offset = rng.int(-3, 3);
      const price = side === 'B' ? touch + offset : touch - offset;
      const qty = rng.int(1, 400);
      const tif = rng.chance(0.3) ? 'IOC' : 'GTC';
      // What a crossing order can take: every level through its price, recorded and own.
      const opposite = side === 'B' ? market.book.l2().asks : market.book.l2().bids;
      const available = opposite.filter((l) => (side === 'B' ? l.priceTicks <= price : l.priceTicks >= price)).reduce((a, l) => a + l.qtyLots, 0);
      const order = sim.venue.placeOrderTicks(alice, market, side, price, qty, tif);
      if (order.state !== 'REJECTED') {
        expect(order.filledLots).toBeLessThanOrEqual(Math.min(qty, available));
      }
      if (rng.chance(0.2)) sim.venue.cancelAll(alice);
      seen = trades.length;
    }
    expect(steps).toBeGreaterThan(100);
    expect(replayer.stats.ownFillLots).toBeGreaterThan(0); // the property was exercised by recorded fills
  }, 60_000);
});
