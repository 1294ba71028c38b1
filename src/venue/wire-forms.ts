import { formatTimestamp } from '../core/time.ts';
import type { LevelView } from '../book/events.ts';
import type { Candle } from '../market/candles.ts';
import type { BookLevel, BookUpdate, MarketDataLevel, TickerStats } from '../wire/market-data.ts';
import type { RestOrder, WsOrder } from '../wire/order.ts';
import type { CandleRecord, FundingRateRecord, InstrumentInfo, MarkPriceRecord } from '../wire/records.ts';
import type { FundingRecord, Market, MarkRecord } from './market.ts';
import { remainingLots, type Order } from './order.ts';

/**
 * The one place venue state becomes the interface document's shapes (src/wire/): orders,
 * instruments, market data and history records. Risk snapshots come from ./risk-view.ts, which
 * computes them.
 */

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

/** An instrument in the interface document's form (GET /auth/instruments). */
export function toInstrumentInfo(market: Market): InstrumentInfo {
  const inst = market.instrument;
  return {
    symbol: inst.symbol,
    tick_size: inst.tick.text,
    base_currency: inst.baseCurrency,
    multiplier: inst.multiplier,
    minimum_trade_quantity: inst.minimumTradeQuantity,
    description: inst.description,
    product_id: inst.productId,
    state: market.state,
    price_scale: inst.tick.priceScale,
  };
}

/**
 * The ticker stats of a market at time (sec, nanos).
 *
 * Before the first trade (and for open / low / high after a session reset, until the new
 * session's first trade) the document gives no values: prices are "0" and the last quantity 0
 * rather than null, so a client that parses every key as a decimal or an int never meets a null.
 */
export function tickerStats(market: Market, sec: number, nanos: number): TickerStats {
  const tick = market.instrument.tick;
  const st = market.stats.snapshot();
  const price = (ticks: number | undefined): string => (ticks === undefined ? '0' : tick.toPrice(ticks));
  return {
    t: 's',
    ts: sec,
    tn: nanos,
    s: market.symbol,
    p: price(st.lastTicks),
    q: st.lastQtyLots ?? 0,
    o: price(st.openTicks),
    l: price(st.lowTicks),
    h: price(st.highTicks),
    v: st.volumeLots,
  };
}

/**
 * The book of a market at `level`: bids descending, asks ascending; LEVEL_1 carries at most
 * the top level of each side, LEVEL_3 adds `o` (order quantities in queue order). `depth`
 * keeps the first levels a side of LEVEL_2 / LEVEL_3 (a subscription's depth).
 */
export function bookUpdate(market: Market, level: MarketDataLevel, sec: number, nanos: number, depth = Infinity): BookUpdate {
  const tick = market.instrument.tick;
  const book = market.book;
  let b: BookLevel[];
  let a: BookLevel[];
  if (level === 'LEVEL_1') {
    // The hot path (in-process agents): no closure per update.
    const { bid, ask } = book.l1();
    b = bid === undefined ? [] : [{ p: tick.toPrice(bid.priceTicks), q: bid.qtyLots }];
    a = ask === undefined ? [] : [{ p: tick.toPrice(ask.priceTicks), q: ask.qtyLots }];
  } else if (level === 'LEVEL_2') {
    const plain = (l: LevelView): BookLevel => ({ p: tick.toPrice(l.priceTicks), q: l.qtyLots });
    const { bids, asks } = book.l2(depth);
    b = bids.map(plain);
    a = asks.map(plain);
  } else {
    const { bids, asks } = book.l3(depth);
    const full = (l: (typeof bids)[number]): BookLevel => ({ p: tick.toPrice(l.priceTicks), q: l.qtyLots, o: l.orders.map((o) => o.qtyLots) });
    b = bids.map(full);
    a = asks.map(full);
  }
  return { t: level === 'LEVEL_1' ? '1' : level === 'LEVEL_2' ? '2' : '3', ts: sec, tn: nanos, s: market.symbol, b, a };
}

/** A recorded mark of `market` in the form of POST /settlement/get_mtm_prices. */
export function markPriceRecord(market: Market, r: MarkRecord): MarkPriceRecord {
  return { timestamp: formatTimestamp(r.sec, r.nanos), symbol: market.symbol, mtm_price: market.instrument.tick.toPrice(r.markTicks) };
}

/** A funding settlement of `market` in the form of POST /settlement/get_funding_rates. */
export function fundingRateRecord(market: Market, r: FundingRecord): FundingRateRecord {
  return {
    timestamp: formatTimestamp(r.sec, r.nanos),
    symbol: market.symbol,
    benchmark_price: r.benchmarkPrice,
    settlement_price: r.settlementPrice,
    funding_amount: r.fundingAmount,
    funding_rate: r.fundingRate,
  };
}

/** A candle of `market` in the form of POST /candle/historical_candles. */
export function candleRecord(market: Market, c: Candle): CandleRecord {
  const tick = market.instrument.tick;
  return {
    timestamp: formatTimestamp(c.startSec, 0),
    open: tick.toPrice(c.openTicks),
    high: tick.toPrice(c.highTicks),
    low: tick.toPrice(c.lowTicks),
    close: tick.toPrice(c.closeTicks),
    volume: String(c.volumeLots),
    buy_volume: String(c.buyVolumeLots),
    sell_volume: String(c.sellVolumeLots),
  };
}
