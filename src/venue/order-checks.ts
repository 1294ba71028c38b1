import type { RejectReason, Side, TimeInForce } from '../core/types.ts';
import { decodeIdCounter } from '../core/ids.ts';
import { marginOf, type Account } from './account.ts';
import type { Market } from './market.ts';
import { quantityOverflow } from './quantity-bounds.ts';

/** A new order in engine units, after the wire's schema checks. */
export interface OrderTicket {
  side: Side;
  /** Minimal decimal text of the price (shown on the wire even when rejected). */
  priceText: string;
  /** NaN when the price is not a multiple of the tick. */
  priceTicks: number;
  qtyLots: number;
  tif: TimeInForce;
  postOnly: boolean;
  isLiquidation?: boolean;
}

const POST_ONLY_TEXT = 'post-only order would cross the book';

/** Business-rule checks of decisions.md, in order (`time`: the sim clock); undefined when the order may proceed. */
export function checkOrder(time: { readonly nowSec: number }, account: Account, market: Market, t: OrderTicket): readonly [RejectReason, string] | undefined {
  const inst = market.instrument;
  if (market.state !== 'OPEN') return ['EXCHANGE_CLOSED', `${inst.symbol} is ${market.state}`];
  if (!Number.isSafeInteger(t.qtyLots) || t.qtyLots <= 0 || t.qtyLots % inst.minimumTradeQuantity !== 0) {
    return ['INCORRECT_QUANTITY', `quantity must be a positive multiple of ${inst.minimumTradeQuantity}`];
  }
  if (Number.isNaN(t.priceTicks) || t.priceTicks <= 0) {
    return ['INVALID_PRICE_INCREMENT', `price must be a positive multiple of the tick size ${inst.tick.text}`];
  }
  const crosses = wouldCross(market, t.side, t.priceTicks);
  const overflow = quantityOverflow(account, market, t.side, t.priceTicks, t.qtyLots, time, crosses);
  if (overflow !== undefined) return ['INCORRECT_QUANTITY', overflow];
  if (t.isLiquidation === true) return undefined;
  if (!market.isWithinBand(t.priceTicks)) {
    return ['PRICE_OUT_OF_BOUNDS', `price is more than the price band away from the mark price ${inst.tick.toPrice(market.markTicks)}`];
  }
  if (account.openCountIn(market) >= inst.maxOpenOrders) {
    return ['MAX_OPEN_ORDERS_EXCEEDED', `at most ${inst.maxOpenOrders} open orders per instrument`];
  }
  if (t.postOnly && crosses) return ['UNKNOWN', POST_ONLY_TEXT];
  const fits = account.orderMarginFits(market, t.priceTicks, t.qtyLots);
  if (fits > 0) return undefined;
  if (fits === 0) {
    // Too close to call in doubles: the exact check.
    const im = marginOf(inst, t.priceTicks, t.qtyLots, inst.initialMarginPct);
    const required = account.openOrdersIm + account.positionsMargin('initial') + im;
    if (required <= account.equity()) return undefined;
  }
  return ['INSUFFICIENT_MARGIN', 'initial margin of open orders and positions would exceed equity'];
}

/** True when a post-only order at this price would trade on arrival. */
function wouldCross(market: Market, side: Side, priceTicks: number): boolean {
  const opposite = side === 'B' ? market.book.bestAskTicks() : market.book.bestBidTicks();
  return opposite !== undefined && (side === 'B' ? opposite <= priceTicks : opposite >= priceTicks);
}

/**
 * Book id of a wire id: the counter of `O-` ids, minus the counter of `L-` ids (the two
 * generators count separately, so liquidation orders take the negative range).
 */
export function engineIdOf(orderId: string): number | undefined {
  if (orderId.startsWith('O-')) return decodeIdCounter(orderId, 'O-');
  if (orderId.startsWith('L-')) {
    const n = decodeIdCounter(orderId, 'L-');
    return n === undefined ? undefined : -n;
  }
  return undefined;
}
