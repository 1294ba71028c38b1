import { describe, it, expect } from 'vitest';
import { RandomStream } from '../../src/random/random-stream.ts';
import type { Account } from '../../src/venue/account.ts';
import type { Market } from '../../src/venue/market.ts';
import { btcConfig, ethConfig, makeVenue, money, type TestVenue } from './fixtures.ts';

const STEPS = 4000;
const USERS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'];
/** Users with thin cash: they hit margin limits and get liquidated now and then. */
const THIN_USERS = ['gina', 'hank'];

interface SessionResult extends TestVenue {
  accounts: Account[];
  adjustments: bigint;
  fundings: number;
  liquidationChecks: number;
}

/**
 * A seeded random session on two instruments: GTC, IOC and post-only orders on both sides
 * around the mark, cancels (own, others', unknown), cancel-all, index moves, funding
 * settlements, cash adjustments and liquidation checks, with sim time moving between actions.
 */
function runRandomSession(seed: string): SessionResult {
  const t = makeVenue({
    instruments: [btcConfig(), ethConfig({ multiplier: 10, makerFee: '-0.00005', takerFee: '0.0003' })],
  });
  const { venue, clock } = t;
  const rng = new RandomStream(seed);
  const accounts = [
    ...USERS.map((name) => t.user(name, String(rng.int(2, 8) * 1_000_000))),
    ...THIN_USERS.map((name) => t.user(name, String(rng.int(30, 60) * 1_000))),
  ];
  const markets = venue.markets;
  let adjustments = 0n;
  let fundings = 0;
  let liquidationChecks = 0;

  const randomPrice = (m: Market): number => {
    const spread = Math.max(1, Math.floor(m.markTicks * 0.004));
    return Math.max(1, m.markTicks + rng.int(-spread, spread));
  };

  for (let step = 0; step < STEPS; step++) {
    clock.runUntil(clock.nowNs + BigInt(rng.int(0, 3_000)) * 1_000_000n);
    const account = rng.pick(accounts);
    const market = rng.pick(markets);
    const roll = rng.next();
    if (roll < 0.68) {
      const lots = market.symbol === 'ETHUSD-PERP' ? rng.int(1, 40) : rng.int(1, 5);
      venue.placeOrder(account, {
        symbol: market.symbol,
        price: market.instrument.tick.toPrice(randomPrice(market)),
        quantity: lots,
        side: rng.chance(0.5) ? 'B' : 'S',
        timeInForce: rng.chance(0.2) ? 'IOC' : 'GTC',
        postOnly: rng.chance(0.15),
      });
    } else if (roll < 0.74) {
      venue.placeOrderTicks(account, market, rng.chance(0.5) ? 'B' : 'S', randomPrice(market), rng.int(1, 3), rng.chance(0.5) ? 'IOC' : 'GTC');
    } else if (roll < 0.86) {
      const open = venue.openOrders(account);
      if (open.length > 0 && rng.chance(0.85)) venue.cancelOrder(account, rng.pick(open).id);
      else {
        const other = venue.openOrders(rng.pick(accounts));
        venue.cancelOrder(account, other.length > 0 ? rng.pick(other).id : 'O-UNKNOWN');
      }
    } else if (roll < 0.87) {
      venue.cancelAll(account);
    } else if (roll < 0.95) {
      const move = Math.floor(market.indexTicks * 0.01);
      venue.setIndexPrice(market, Math.max(1, market.indexTicks + rng.int(-move, move)));
    } else if (roll < 0.97) {
      venue.settleFundingNow(market);
      fundings++;
    } else if (roll < 0.985) {
      const amount = money(String(rng.int(-5_000, 20_000)));
      venue.adjustCash(account, amount);
      adjustments += amount;
    } else {
      venue.checkLiquidations();
      liquidationChecks++;
    }
  }
  return { ...t, accounts, adjustments, fundings, liquidationChecks };
}

describe('conservation over a seeded random session', () => {
  const run = runRandomSession('conservation-1');
  const { venue, accounts, feeds } = run;

  it('trades a lot on both instruments, with fills, expiries, cancels, rejects and liquidations along the way', () => {
    const types = new Set(feeds.all.map((e) => e.feed.t));
    expect([...types].sort()).toEqual(['c', 'e', 'f', 'j', 'n', 'p', 'x']);
    const reasons = new Set(feeds.all.map((e) => e.feed.r).filter((r) => r !== undefined));
    expect([...reasons].sort()).toEqual(['INSUFFICIENT_MARGIN', 'UNKNOWN', 'UNKNOWN_ORDER']);
    expect(venue.liquidationCount).toBeGreaterThan(0);
    expect(feeds.all.some((e) => e.feed.t === 'f' && e.feed.o?.liq === true)).toBe(true);
    for (const m of venue.markets) expect(feeds.trades.filter((tr) => tr.symbol === m.symbol).length).toBeGreaterThan(300);
    expect(run.fundings).toBeGreaterThan(20);
  });

  it('keeps Σ cash + fees collected + Σ unrealized PnL equal to Σ starting cash + Σ adjustments, exactly', () => {
    let cash = 0n;
    let unrealized = 0n;
    let starting = 0n;
    let adjusted = 0n;
    for (const a of accounts) {
      cash += a.cash;
      starting += a.startingCash;
      adjusted += a.adjustments;
      for (const p of a.positionList) unrealized += p.unrealized();
    }
    expect(adjusted).toBe(run.adjustments);
    expect(adjusted).not.toBe(0n);
    expect(venue.feesCollected).not.toBe(0n);
    expect(cash + venue.feesCollected + unrealized).toBe(starting + adjusted);
  });

  it('keeps every account’s cash equal to its starting cash, adjustments and realized PnL', () => {
    for (const a of accounts) {
      const realized = a.positionList.reduce((sum, p) => sum + p.realized, 0n);
      expect(a.cash, a.username).toBe(a.startingCash + a.adjustments + realized);
    }
  });

  it('nets positions and trading PnL to zero per symbol', () => {
    for (const m of venue.markets) {
      let net = 0;
      let pnl = 0n;
      let gross = 0;
      for (const a of accounts) {
        const p = a.findPosition(m);
        if (p === undefined) continue;
        net += p.position.netLots;
        gross += Math.abs(p.position.netLots);
        pnl += p.tradingPnl + p.unrealized();
      }
      expect(net, m.symbol).toBe(0);
      expect(gross, m.symbol).toBeGreaterThan(0);
      expect(pnl, m.symbol).toBe(0n);
    }
  });

  it('makes funding payments sum to zero across users for each symbol', () => {
    for (const m of venue.markets) {
      expect(m.fundingHistory.length).toBeGreaterThan(0);
      const payments = accounts.map((a) => a.findPosition(m)?.funding ?? 0n);
      expect(payments.some((x) => x !== 0n), m.symbol).toBe(true);
      expect(payments.reduce((x, y) => x + y, 0n), m.symbol).toBe(0n);
    }
  });

  it('keeps the books, the open order lists and the reserved margin consistent', () => {
    for (const m of venue.markets) {
      const open = accounts.flatMap((a) => venue.openOrders(a)).filter((o) => o.market === m);
      expect(open.length).toBe(m.book.orderCount);
      expect(open.reduce((sum, o) => sum + o.qtyLots - o.filledLots, 0)).toBe(m.book.restingLots());
    }
    for (const a of accounts) {
      const open = venue.openOrders(a);
      expect(a.openOrdersIm).toBe(open.reduce((sum, o) => sum + o.reservedIm, 0n));
      for (const o of open) expect(['NEW', 'PARTIALLY_FILLED']).toContain(o.state);
    }
  });

  it('produces the same state hash for the same seed and a different one for another seed', () => {
    const again = runRandomSession('conservation-1');
    expect(again.venue.stateHash()).toBe(venue.stateHash());
    expect(again.feeds.all).toEqual(feeds.all);
    expect(runRandomSession('conservation-2').venue.stateHash()).not.toBe(venue.stateHash());
  });
});
