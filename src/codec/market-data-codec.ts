import type { LevelView } from '../book/events.ts';
import type { Market } from '../venue/market.ts';

/** Market-data subscription levels. */
export const MARKET_DATA_LEVELS = ['LEVEL_1', 'LEVEL_2', 'LEVEL_3'] as const;
export type MarketDataLevel = (typeof MARKET_DATA_LEVELS)[number];

/** One book level: price text, total quantity, and (LEVEL_3 only) order quantities in queue order. */
export interface BookLevel {
  p: string;
  q: number;
  o?: number[];
}

/** A market-data book update: a full snapshot of the subscribed level. */
export interface BookUpdate {
  t: '1' | '2' | '3';
  ts: number;
  tn: number;
  s: string;
  b: BookLevel[];
  a: BookLevel[];
}

/** Ticker stats (`t: "s"`). */
export interface TickerStats {
  t: 's';
  ts: number;
  tn: number;
  s: string;
  p: string;
  q: number;
  o: string;
  l: string;
  h: string;
  v: number;
}

export type MarketDataMessage = BookUpdate | TickerStats;

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
 * the top level of each side, LEVEL_3 adds `o` (order quantities in queue order).
 */
export function bookUpdate(market: Market, level: MarketDataLevel, sec: number, nanos: number): BookUpdate {
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
    const { bids, asks } = book.l2();
    b = bids.map(plain);
    a = asks.map(plain);
  } else {
    const { bids, asks } = book.l3();
    const full = (l: (typeof bids)[number]): BookLevel => ({ p: tick.toPrice(l.priceTicks), q: l.qtyLots, o: l.orders.map((o) => o.qtyLots) });
    b = bids.map(full);
    a = asks.map(full);
  }
  return { t: level === 'LEVEL_1' ? '1' : level === 'LEVEL_2' ? '2' : '3', ts: sec, tn: nanos, s: market.symbol, b, a };
}
