import { noteOfFeed, type OwnOrderNote } from '../strategy/tick-feeds.ts';
import type { OrderEvent } from '../venue/order-events.ts';
import type { Venue } from '../venue/venue.ts';

/**
 * The note of an order event (`TickFeeds.onOwnOrder`), read from the order's record: no feed
 * object, no price text. An event the records cannot describe (an order off the tick grid or
 * of an unknown symbol) goes through its feed, as `noteOfFeed` reads it; an `e` names no order.
 */
export function noteOfEvent(e: OrderEvent, venue: Venue): OwnOrderNote {
  const t = e.t;
  if (t === 'e') return { t, oid: '', symbol: '', side: 'B', priceTicks: Number.NaN, tif: 'GTC', remainingLots: 0, reason: e.reason, fillLots: 0, fillPriceTicks: Number.NaN };
  const market = e.plainMarket();
  if (market === undefined) return noteOfFeed(e.feed(), (symbol, text) => venue.market(symbol)?.instrument.tick.toTicks(text));
  const fill = t === 'p' || t === 'f';
  return {
    t,
    oid: e.orderId(),
    symbol: market.symbol,
    side: e.side(),
    priceTicks: e.priceTicks(),
    tif: e.tif(),
    remainingLots: e.remainingLots(),
    reason: e.reason,
    fillLots: fill ? e.fillLots : 0,
    fillPriceTicks: fill ? e.fillPriceTicks : Number.NaN,
  };
}
