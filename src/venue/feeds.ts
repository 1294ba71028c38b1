import type { Side } from '../core/types.ts';
import type { OrderFeed } from '../wire/order.ts';
import type { Market } from './market.ts';
import type { OrderEvent } from './order-events.ts';

/** One trade as the venue printed it. */
export interface VenueTrade {
  tid: string;
  symbol: string;
  sec: number;
  nanos: number;
  priceTicks: number;
  qtyLots: number;
  /** Side of the aggressor (taker). */
  takerSide: Side;
  makerOrderId: string;
  takerOrderId: string;
  makerUserId: number;
  takerUserId: number;
}

/**
 * A trade as a listener hears it (`VenueListener.trade`): valid during the call only, since the
 * venue reloads one cursor with each trade (see trade-record.ts); `toJSON()` is the plain copy
 * to keep.
 */
export interface HeardTrade extends VenueTrade {
  toJSON(): VenueTrade;
}

/**
 * Everything the venue announces. Listeners are called synchronously, in subscription order;
 * they must not call back into the venue from inside a callback (schedule on the clock instead).
 */
export interface VenueListener {
  /** An order feed for user `userId`. */
  orderFeed?(userId: number, feed: OrderFeed): void;
  /**
   * The same feed before it is an object (order-events.ts): read `e.t` / `e.userId` for free,
   * call `e.feed()` for the object only when needed. Valid during the call only.
   */
  orderEvent?(e: OrderEvent): void;
  /** A trade, valid during the call only (keep `trade.toJSON()`). */
  trade?(trade: HeardTrade, market: Market): void;
  /** The book of `market` changed (at most once per command). */
  bookChanged?(market: Market): void;
  markRecorded?(market: Market): void;
  fundingSettled?(market: Market): void;
  instrumentStateChanged?(market: Market): void;
  /** The index price of `market` was set (`Venue.setIndexPrice`), after the mark was refreshed. */
  indexChanged?(market: Market): void;
}
