import type { LevelView } from '../../book/events.ts';
import type { Market } from '../../venue/market.ts';

/** Subscription levels of the market-data websocket. */
export const LEVELS = ['LEVEL_1', 'LEVEL_2', 'LEVEL_3'] as const;
export type Level = (typeof LEVELS)[number];

/** Index 0, 1, 2 of a level (its update type is `t` = index + 1). */
export function levelIndex(level: Level): 0 | 1 | 2 {
  return level === 'LEVEL_1' ? 0 : level === 'LEVEL_2' ? 1 : 2;
}

/**
 * The ticker stats message (`t: "s"`) of a market at time (sec, nanos).
 *
 * Before the first trade — and for open / low / high after a session reset, until the new
 * session's first trade — the document gives no values. We send "0" for those prices and 0 for
 * the last quantity rather than null or omitting keys, so a client that parses every key as a
 * decimal string or an int never meets a null.
 */
export function statsMessage(market: Market, sec: number, nanos: number): string {
  const tick = market.instrument.tick;
  const st = market.stats.snapshot();
  const price = (ticks: number | undefined): string => (ticks === undefined ? '0' : tick.toPrice(ticks));
  return JSON.stringify({
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
  });
}

/**
 * The `"b":[…],"a":[…]` part of a book update at `level`: bids descending, asks ascending; each
 * level `{p, q}` plus `o` (order quantities in queue order) at LEVEL_3; LEVEL_1 carries at most
 * the top level of each side. Built as text directly: prices are digits and a dot, and this runs
 * on every book change with subscribers.
 */
export function bookLevelsJson(market: Market, level: Level): string {
  const tick = market.instrument.tick;
  const plain = (l: LevelView): string => `{"p":"${tick.toPrice(l.priceTicks)}","q":${l.qtyLots}}`;
  const book = market.book;
  if (level === 'LEVEL_1') {
    const { bid, ask } = book.l1();
    return `"b":[${bid === undefined ? '' : plain(bid)}],"a":[${ask === undefined ? '' : plain(ask)}]`;
  }
  if (level === 'LEVEL_2') {
    const { bids, asks } = book.l2();
    return `"b":[${bids.map(plain).join(',')}],"a":[${asks.map(plain).join(',')}]`;
  }
  const { bids, asks } = book.l3();
  const full = (l: (typeof bids)[number]): string =>
    `{"p":"${tick.toPrice(l.priceTicks)}","q":${l.qtyLots},"o":[${l.orders.map((o) => o.qtyLots).join(',')}]}`;
  return `"b":[${bids.map(full).join(',')}],"a":[${asks.map(full).join(',')}]`;
}

/** A whole book update message (`t` "1", "2" or "3") from its levels part. */
export function bookMessage(symbolJson: string, level: Level, sec: number, nanos: number, levelsJson: string): string {
  return `{"t":"${levelIndex(level) + 1}","ts":${sec},"tn":${nanos},"s":${symbolJson},${levelsJson}}`;
}
