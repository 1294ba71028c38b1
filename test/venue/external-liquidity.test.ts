import { describe, expect, it } from 'vitest';
import { MONEY_ONE } from '../../src/core/money.ts';
import { EXTERNAL_ID_BASE } from '../../src/venue/external-liquidity.ts';
import { EXTERNAL_OWNER } from '../../src/venue/external-owner.ts';
import { makeVenue, money, place } from './fixtures.ts';

// BTCUSD-PERP: tick 0.5 (price 50000 = 100000 ticks), taker fee 0.0002, maker fee 0.
const P = (price: number) => price * 2;

describe('external (replayed) liquidity in the venue book', () => {
  it('is quoted in the book but belongs to no account, and a taker against it pays like against anyone', () => {
    const t = makeVenue();
    const alice = t.user('alice');
    t.venue.exclusive(() =>
      t.venue.external.applyLevels(t.btc, [
        { side: 'S', priceTicks: P(50_010), qtyLots: 3 },
        { side: 'S', priceTicks: P(50_020), qtyLots: 5 },
        { side: 'B', priceTicks: P(49_990), qtyLots: 4 },
      ], false),
    );
    expect(t.btc.book.l2()).toEqual({ bids: [{ priceTicks: P(49_990), qtyLots: 4 }], asks: [{ priceTicks: P(50_010), qtyLots: 3 }, { priceTicks: P(50_020), qtyLots: 5 }] });
    expect(t.venue.accounts.length).toBe(1);
    place(t.venue, alice, 'B', '50020', 4, { tif: 'IOC' });
    expect(t.feeds.trades.map((x) => [x.priceTicks, x.qtyLots, x.makerUserId, x.makerOrderId])).toEqual([
      [P(50_010), 3, EXTERNAL_OWNER, 'EXTERNAL'],
      [P(50_020), 1, EXTERNAL_OWNER, 'EXTERNAL'],
    ]);
    const pos = alice.findPosition(t.btc)!;
    expect(pos.position.netLots).toBe(4);
    // Taker fee 0.0002 on 50010×3 + 50020×1 = 200050, and nobody else holds cash.
    expect(pos.fees).toBe(money('40.01'));
    expect(alice.cash).toBe(money('1000000') - money('40.01'));
    expect(t.venue.feesCollected).toBe(money('40.01'));
    expect(t.venue.external.displayedLots(t.btc, 'S', P(50_010))).toBe(0);
    expect(t.venue.external.displayedLots(t.btc, 'S', P(50_020))).toBe(4);
  });

  it('gives its orders int32 ids above any account order id, a new one each time a level grows (behind the account orders there)', () => {
    const t = makeVenue();
    const alice = t.user('alice');
    const apply = (qtyLots: number) => t.venue.exclusive(() => t.venue.external.applyLevels(t.btc, [{ side: 'B', priceTicks: P(49_990), qtyLots }, { side: 'S', priceTicks: P(50_010), qtyLots }], false));
    apply(3);
    place(t.venue, alice, 'B', '49990', 2);
    const ids: number[] = [];
    for (const qty of [4, 5, 2, 6]) {
      apply(qty);
      const [bid] = t.btc.book.l3().bids;
      const external = bid!.orders.filter((o) => o.orderId >= EXTERNAL_ID_BASE);
      expect(external).toHaveLength(1);
      // A level that grew queues its new order behind alice's; one that shrank keeps its place.
      expect(bid!.orders.map((o) => o.qtyLots)).toEqual(qty === 2 ? [2, 2] : [2, qty]);
      ids.push(external[0]!.orderId);
    }
    expect(ids.every((id) => Number.isInteger(id) && (id | 0) === id && id >= 2 ** 30)).toBe(true);
    // Grew, grew, shrank (same order), grew.
    expect(new Set(ids).size).toBe(3);
    expect(ids[2]).toBe(ids[1]);
  });

  it('restates levels with the last value of a batch; a reset clears recorded levels and keeps account orders', () => {
    const t = makeVenue();
    const alice = t.user('alice');
    const apply = (updates: { side: 'B' | 'S'; priceTicks: number; qtyLots: number }[], reset = false) => t.venue.exclusive(() => t.venue.external.applyLevels(t.btc, updates, reset));
    apply([{ side: 'B', priceTicks: P(49_990), qtyLots: 10 }]);
    place(t.venue, alice, 'B', '49990', 2);
    apply([
      { side: 'B', priceTicks: P(49_990), qtyLots: 5 },
      { side: 'B', priceTicks: P(49_990), qtyLots: 0 },
      { side: 'B', priceTicks: P(49_980), qtyLots: 7 },
      { side: 'B', priceTicks: P(49_980), qtyLots: 6 },
    ]);
    expect(t.btc.book.l2().bids).toEqual([{ priceTicks: P(49_990), qtyLots: 2 }, { priceTicks: P(49_980), qtyLots: 6 }]);
    apply([{ side: 'S', priceTicks: P(50_100), qtyLots: 1 }], true);
    expect(t.btc.book.l2()).toEqual({ bids: [{ priceTicks: P(49_990), qtyLots: 2 }], asks: [{ priceTicks: P(50_100), qtyLots: 1 }] });
  });

  it('a recorded level crossing an account order trades with it at the order price, the account as maker', () => {
    const t = makeVenue();
    const alice = t.user('alice');
    const bid = place(t.venue, alice, 'B', '50000', 3);
    t.venue.exclusive(() => t.venue.external.applyLevels(t.btc, [{ side: 'S', priceTicks: P(49_995), qtyLots: 5 }], false));
    expect(bid.state).toBe('FILLED');
    expect(t.feeds.trades.map((x) => [x.priceTicks, x.qtyLots, x.takerUserId, x.makerUserId])).toEqual([[P(50_000), 3, EXTERNAL_OWNER, alice.id]]);
    expect(t.btc.book.l2().asks).toEqual([{ priceTicks: P(49_995), qtyLots: 2 }]);
    expect(alice.findPosition(t.btc)!.fees).toBe(0n); // maker fee
  });

  it('a recorded trade fills a resting order for part of it and prints the rest between recorded participants', () => {
    const t = makeVenue();
    const alice = t.user('alice');
    const bid = place(t.venue, alice, 'B', '50000', 3);
    t.venue.exclusive(() => {
      t.venue.external.fillFromRecordedTrade(t.venue.openOrder(bid.id)!, 2, P(50_000));
      t.venue.external.printRecordedTrade(t.btc, P(50_000), 7, 'S');
    });
    expect(bid.state).toBe('PARTIALLY_FILLED');
    expect(t.btc.book.l2().bids).toEqual([{ priceTicks: P(50_000), qtyLots: 1 }]);
    expect(t.feeds.trades.map((x) => [x.qtyLots, x.takerUserId, x.makerUserId])).toEqual([[2, EXTERNAL_OWNER, alice.id], [7, EXTERNAL_OWNER, EXTERNAL_OWNER]]);
    expect(t.btc.stats).toBeDefined();
  });

  it('a recorded mark replaces the median mark and a recorded funding rate is what funding settles at', () => {
    const t = makeVenue();
    const alice = t.user('alice');
    const bob = t.user('bob');
    place(t.venue, bob, 'S', '50000', 10);
    place(t.venue, alice, 'B', '50000', 10);
    t.venue.setRecordedMarkAndFunding(t.btc, P(50_100), { num: MONEY_ONE / 10_000n, den: MONEY_ONE }); // 0.0001
    expect(t.btc.markTicks).toBe(P(50_100));
    t.venue.settleFundingNow(t.btc);
    const f = t.btc.fundingHistory[0]!;
    expect(Number(f.fundingRate)).toBe(0.0001);
    expect(f.fundingAmount).toBe('5'); // 0.0001 × index 50000
    expect(alice.findPosition(t.btc)!.funding).toBe(-money('50'));
    expect(bob.findPosition(t.btc)!.funding).toBe(money('50'));
    t.venue.setRecordedMarkAndFunding(t.btc, undefined, undefined);
    expect(t.btc.markTicks).toBe(P(50_000)); // the median of index, bid and ask again
  });
});
