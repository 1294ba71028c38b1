import type { Side } from '../core/types.ts';
import type { WsOrder } from '../codec/order-codec.ts';
import type { Market } from './market.ts';

/** Fill details (`xs`) of Partial Fill and Fill feeds. */
export interface FillDetails {
  /** Trade id. */
  tid: string;
  s: string;
  q: number;
  p: string;
  /** Side of the recipient's order in this trade. */
  d: Side;
  /** True when the recipient's order took liquidity. */
  agg: boolean;
}

/**
 * An order feed exactly as the order websocket sends it (`t` is the feed type):
 * n new, j rejected, p partial fill, f fill, c canceled, x expired, e cancel reject,
 * d done for day, r replaced.
 */
export interface OrderFeed {
  t: 'n' | 'j' | 'p' | 'f' | 'c' | 'x' | 'e' | 'd' | 'r';
  ts: number;
  tn: number;
  eid?: string;
  o?: WsOrder;
  /** Reject reason (j, e). */
  r?: string;
  /** Cancelation reason (c). */
  xr?: string;
  txt?: string;
  xs?: FillDetails;
  /** Order id named in a rejected cancel (e). */
  oid?: string;
}

/** One trade as the venue printed it. */
export interface TradeRecord {
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
 * Everything the venue announces. Listeners are called synchronously, in subscription order;
 * they must not call back into the venue from inside a callback (schedule on the clock instead).
 */
export interface VenueListener {
  /** An order feed for user `userId`. */
  orderFeed?(userId: number, feed: OrderFeed): void;
  trade?(trade: TradeRecord, market: Market): void;
  /** The book of `market` changed (at most once per command). */
  bookChanged?(market: Market): void;
  markRecorded?(market: Market): void;
  fundingSettled?(market: Market): void;
  instrumentStateChanged?(market: Market): void;
  /** The index price of `market` was set (`Venue.setIndexPrice`), after the mark was refreshed. */
  indexChanged?(market: Market): void;
}
