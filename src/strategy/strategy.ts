import type { BookUpdate, TickerStats } from '../wire/market-data.ts';
import type { OrderFeed } from '../wire/order.ts';
import type { ExchangePort } from './exchange-port.ts';
import type { TickStrategy } from './tick-feeds.ts';

/**
 * A trading strategy, written once for every exchange: it gets an ExchangePort at start and
 * callbacks for what the port delivers. Timers go through `port.setTimer`, so they run on the
 * sim clock in a backtest and on the wall clock live.
 */
export interface Strategy {
  /** Subscribe, place initial orders, start timers. */
  onStart(port: ExchangePort): void | Promise<void>;
  /** Called once when the run ends (cancel orders, flush state). */
  onStop?(port: ExchangePort): void | Promise<void>;
  /** Order feeds of the strategy's own user: n, j, p, f, c, x, e, d. */
  onOrderFeed?(feed: OrderFeed, port: ExchangePort): void;
  /** Book updates at the subscribed level. */
  onBook?(book: BookUpdate, port: ExchangePort): void;
  /** Ticker stats after trades (and on subscribe). */
  onStats?(stats: TickerStats, port: ExchangePort): void;
}

/**
 * Connects a strategy's callbacks to a port and starts it. Returns a function that stops the
 * strategy and detaches its callbacks.
 */
export async function attachStrategy(strategy: Strategy & TickStrategy, port: ExchangePort): Promise<() => Promise<void>> {
  // Where the port offers numbers, a strategy that takes them gets notes and tops (the agents).
  const ticks = port.ticks;
  const notes = ticks !== undefined && strategy.onOwnOrder !== undefined;
  const detachFeeds = notes ? ticks.onOwnOrder((note) => strategy.onOwnOrder!(note)) : port.onOrderFeed((feed) => strategy.onOrderFeed?.(feed, port));
  const detachTops = ticks !== undefined && strategy.onTop !== undefined ? ticks.onTop((top) => strategy.onTop!(top)) : undefined;
  // A strategy without onStats says so: an in-process port then sends it no stats at all.
  const detachMd = port.onMarketData(
    (message) => {
      if (message.t === 's') strategy.onStats?.(message, port);
      else strategy.onBook?.(message, port);
    },
    { stats: strategy.onStats !== undefined },
  );
  await strategy.onStart(port);
  return async () => {
    await strategy.onStop?.(port);
    detachFeeds();
    detachTops?.();
    detachMd();
  };
}
