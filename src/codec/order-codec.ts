import type { OrderState, Side } from '../core/types.ts';
import { formatTimestamp } from '../core/time.ts';
import { remainingLots, type Order } from '../venue/order.ts';

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

/** Websocket form of an order as it is now (a fresh object: feeds keep it as a snapshot). */
export function toWsOrder(order: Order): WsOrder {
  return {
    oid: order.id,
    u: order.username,
    s: order.symbol,
    p: order.priceText,
    q: order.qtyLots,
    xq: order.filledLots,
    rq: remainingLots(order),
    o: order.state,
    d: order.side,
    tif: order.tif,
    liq: order.isLiquidation,
    ts: order.insertSec,
    tn: order.insertNanos,
  };
}

/** REST form of an order as it is now. */
export function toRestOrder(order: Order): RestOrder {
  return {
    order_id: order.id,
    username: order.username,
    symbol: order.symbol,
    price: order.priceText,
    quantity: order.qtyLots,
    traded_quantity: order.filledLots,
    average_traded_price: averageTradedPrice(order),
    remaining_quantity: remainingLots(order),
    state: order.state,
    side: order.side,
    time_in_force: order.tif,
    is_liquidation: order.isLiquidation,
    insert_time: formatTimestamp(order.insertSec, order.insertNanos),
    insert_epoch_seconds: order.insertSec,
    insert_epoch_nanos: order.insertNanos,
  };
}

/** Volume-weighted price of the order's fills; "0" before any fill. */
export function averageTradedPrice(order: Order): string {
  if (order.filledLots === 0 || order.market === undefined) return '0';
  return order.market.instrument.tick.formatRatioPrice(order.filledNotionalTicks, BigInt(order.filledLots));
}
