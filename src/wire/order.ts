import type { OrderState, Side, TimeInForce } from '../core/types.ts';

/** An order's price text, the interface document's limit for insert_order: `^\d+\.?\d*$`, 1 to 10 characters. */
export const PRICE_PATTERN = /^\d+\.?\d*$/;
export const PRICE_MAX_LENGTH = 10;

/** True when `text` is a price text the interface accepts in an order. */
export function isPriceText(text: unknown): text is string {
  return typeof text === 'string' && text.length >= 1 && text.length <= PRICE_MAX_LENGTH && PRICE_PATTERN.test(text);
}

/** A new order, in the wire's units (price is decimal text, quantity integer lots). */
export interface NewOrder {
  symbol: string;
  price: string;
  quantity: number;
  side: Side;
  timeInForce: TimeInForce;
  postOnly?: boolean;
}

/** Order in websocket form (short keys), as the interface document's sample shows it. */
export interface WsOrder {
  oid: string;
  u: string;
  s: string;
  p: string;
  q: number;
  xq: number;
  rq: number;
  o: OrderState;
  d: Side;
  tif: string;
  liq: boolean;
  ts: number;
  tn: number;
}

/** Order in REST form: every field of the interface document's table. */
export interface RestOrder {
  order_id: string;
  username: string;
  symbol: string;
  price: string;
  quantity: number;
  traded_quantity: number;
  average_traded_price: string;
  remaining_quantity: number;
  state: OrderState;
  side: Side;
  time_in_force: string;
  is_liquidation: boolean;
  insert_time: string;
  insert_epoch_seconds: number;
  insert_epoch_nanos: number;
}

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
