import type { Venue } from '../../venue/venue.ts';
import type { OrderFeed } from '../../wire/order.ts';
import type { PriceTexts } from './price-texts.ts';
import type { RowCells } from './row-builder.ts';

/**
 * The cells of a `feed` row read from the wire feed (the events the recorder cannot read as
 * numbers: an `e`, an order off the tick grid or of an unknown symbol), by column name, for
 * `RowBuilder` to set: what the row held when the recorder wrote the columns itself.
 */
export function feedCells(feed: OrderFeed, venue: Venue, priceTexts: PriceTexts): RowCells {
  const cells: RowCells = ['feed', feed.t];
  const o = feed.o;
  if (o !== undefined) {
    cells.push('order_id', o.oid, 'symbol', o.s, 'state', o.o, 'side', o.d, 'tif', o.tif, 'liquidation', o.liq);
    const market = venue.market(o.s);
    const ticks = market?.instrument.tick.toTicks(o.p);
    if (ticks !== undefined) cells.push('price_ticks', ticks);
    // The text only when the ticks do not say it: a reader rebuilds it from them otherwise.
    if (ticks === undefined || priceTexts.of(market!, ticks) !== o.p) cells.push('price', o.p);
    if (Number.isSafeInteger(o.q)) cells.push('qty', o.q); // a rejected order may carry any number
    cells.push('filled', o.xq);
  } else if (feed.oid !== undefined) {
    cells.push('order_id', feed.oid);
  }
  const reason = feed.r ?? feed.xr;
  if (reason !== undefined) cells.push('reason', reason);
  const tid = feed.xs === undefined ? NaN : tradeNumber(feed.xs.tid);
  if (!Number.isNaN(tid)) cells.push('trade_id', tid);
  return cells;
}

/** Trade ids are counter strings ("1", "2", ...): stored as integers (NaN: not one, left null). */
export function tradeNumber(tid: string): number {
  const n = Number(tid);
  return Number.isSafeInteger(n) ? n : NaN;
}
