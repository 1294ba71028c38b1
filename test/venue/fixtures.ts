import { SimClock } from '../../src/clock/sim-clock.ts';
import { parseMoney, type Money } from '../../src/core/money.ts';
import type { Side, TimeInForce } from '../../src/core/types.ts';
import type { Account } from '../../src/venue/account.ts';
import type { VenueTrade } from '../../src/venue/feeds.ts';
import type { OrderFeed } from '../../src/wire/order.ts';
import type { InstrumentConfig } from '../../src/venue/instrument.ts';
import type { Market } from '../../src/venue/market.ts';
import type { Order } from '../../src/venue/order.ts';
import { Venue, type VenueConfig } from '../../src/venue/venue.ts';

/** 2024-01-01T00:00:00Z, a Monday, in Unix seconds. */
export const T0_SEC = 1_704_067_200;
export const NS_PER_S = 1_000_000_000n;
export const T0_NS = BigInt(T0_SEC) * NS_PER_S;
export const HOUR_NS = 3_600n * NS_PER_S;

/** Nanoseconds since the epoch of `sec` seconds after T0. */
export function at(sec: number): bigint {
  return T0_NS + BigInt(sec) * NS_PER_S;
}

/** `O-` or `L-` + 26 Crockford base32 characters. */
export const ORDER_ID = /^O-[0-9A-HJKMNP-TV-Z]{26}$/;
export const LIQUIDATION_ID = /^L-[0-9A-HJKMNP-TV-Z]{26}$/;

/** BTCUSD-PERP, tick 0.5, index 50000, defaults otherwise. */
export function btcConfig(overrides: Partial<InstrumentConfig> = {}): InstrumentConfig {
  return { symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000', ...overrides };
}

/** ETHUSD-PERP, tick 0.01, index 100. */
export function ethConfig(overrides: Partial<InstrumentConfig> = {}): InstrumentConfig {
  return { symbol: 'ETHUSD-PERP', tickSize: '0.01', indexPrice: '100', ...overrides };
}

/** Collects every order feed by user and every trade, in emission order. */
export class FeedLog {
  readonly all: { userId: number; feed: OrderFeed }[] = [];
  readonly trades: VenueTrade[] = [];

  /** Feeds of one account, in order. */
  of(account: Account): OrderFeed[] {
    return this.all.filter((e) => e.userId === account.id).map((e) => e.feed);
  }

  /** Feeds about one order (by its `o.oid`), in order. */
  forOrder(orderId: string): OrderFeed[] {
    return this.all.filter((e) => e.feed.o?.oid === orderId).map((e) => e.feed);
  }

  /** Feed types of one account, e.g. "n,p,x". */
  typesOf(account: Account): string {
    return this.of(account)
      .map((f) => f.t)
      .join(',');
  }

  clear(): void {
    this.all.length = 0;
    this.trades.length = 0;
  }
}

export interface TestVenue {
  venue: Venue;
  clock: SimClock;
  feeds: FeedLog;
  /** The first listed market (BTCUSD-PERP unless the instruments say otherwise). */
  btc: Market;
  user(name: string, cash?: string): Account;
}

/**
 * A venue on a SimClock at `startNs` (default T0) with the given instruments (default BTC only)
 * and a FeedLog subscribed. Does not call `venue.start()`.
 */
export function makeVenue(
  options: { instruments?: InstrumentConfig[]; startNs?: bigint } & Omit<VenueConfig, 'instruments'> = {},
): TestVenue {
  const { instruments = [btcConfig()], startNs = T0_NS, ...rest } = options;
  const clock = new SimClock(startNs);
  const venue = new Venue(clock, { instruments, ...rest });
  const feeds = new FeedLog();
  venue.subscribe({
    orderFeed: (userId, feed) => feeds.all.push({ userId, feed }),
    // A trade is a cursor valid during the call: the log keeps its plain copy.
    trade: (trade) => feeds.trades.push(trade.toJSON()),
  });
  return {
    venue,
    clock,
    feeds,
    btc: venue.markets[0]!,
    user: (name, cash = '1000000') => venue.addUser(name, money(cash)),
  };
}

export function money(text: string): Money {
  return parseMoney(text);
}

/** Places a limit order through the venue's public entry point (GTC, not post-only by default). */
export function place(
  venue: Venue,
  account: Account,
  side: Side,
  price: string,
  quantity: number,
  options: { symbol?: string; tif?: TimeInForce; postOnly?: boolean } = {},
): Order {
  return venue.placeOrder(account, {
    symbol: options.symbol ?? 'BTCUSD-PERP',
    price,
    quantity,
    side,
    timeInForce: options.tif ?? 'GTC',
    postOnly: options.postOnly ?? false,
  });
}

/** The last feed of an account, failing loudly when there is none. */
export function lastFeed(feeds: FeedLog, account: Account): OrderFeed {
  const list = feeds.of(account);
  const f = list[list.length - 1];
  if (f === undefined) throw new Error(`no feed for ${account.username}`);
  return f;
}
