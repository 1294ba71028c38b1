import type { SimClock } from '../clock/sim-clock.ts';
import { addHandler } from '../strategy/handlers.ts';
import type { MarketDataHandlerOptions } from '../strategy/exchange-port.ts';
import type { TopTicks } from '../strategy/tick-feeds.ts';
import type { Market } from '../venue/market.ts';
import type { InstantBatch } from '../venue/md-instants.ts';
import type { Venue } from '../venue/venue.ts';
import { bookUpdate, tickerStats } from '../venue/wire-forms.ts';
import type { MarketDataLevel, MarketDataMessage, TickerStats } from '../wire/market-data.ts';
import type { PortChannel } from './port-channel.ts';
import type { MarketSink, PortHub } from './port-hub.ts';
import { SentBooks } from './sent-books.ts';
import { InFlightRing } from './in-flight-ring.ts';
import { TopRecord } from './order-notes.ts';

/**
 * The market-data half of an in-process port: its subscriptions, what it last sent of each
 * book, its handlers, and the one channel every message travels down (a latency sample each,
 * never overtaking the one before). The port hands it subscriptions as they run at the venue,
 * the hub the instants of the markets it watches; see `InProcessPort` for the rules the messages
 * follow.
 */
export class PortMarketData implements MarketSink {
  private readonly mdHandlers: ((message: MarketDataMessage) => void)[] = [];
  /** The handlers that take stats too (`onMarketData`'s `stats`): with none, none are sent. */
  private readonly statsHandlers: ((message: MarketDataMessage) => void)[] = [];
  /** `TickFeeds.onTop`'s: while any is registered, LEVEL_1 books go to these as tops. */
  private readonly topHandlers: ((top: TopTicks) => void)[] = [];
  /** Tops on their way, in sending order (the channel is FIFO): no object per message. */
  private readonly tops = new InFlightRing(() => new TopRecord());
  /** Level and depth (Infinity: every level) per subscribed market, by `market.index`. */
  // Kept per market and marked, not deleted: agents glance at books (subscribe, read, unsubscribe)
  // all the time. An array read by index, not a map: it is read for every message delivered.
  private readonly subscriptions: ({ on: boolean; level: MarketDataLevel; depth: number } | undefined)[] = [];
  /** What was last sent of each book, to skip repeats. */
  private readonly sent: SentBooks;
  /**
   * The market of the last message delivered, by its symbol: messages carry the market's own
   * symbol string, so the next one of that market matches by pointer, with no lookup by symbol.
   */
  private lastSymbol = '';
  private lastMarket: Market | undefined = undefined;

  constructor(
    private readonly venue: Venue,
    private readonly clock: SimClock,
    private readonly channel: PortChannel,
    private readonly hub: PortHub,
  ) {
    this.sent = new SentBooks(venue, hub);
  }

  close(): void {
    this.mdHandlers.length = 0;
    this.statsHandlers.length = 0;
    this.topHandlers.length = 0;
    for (const s of this.subscriptions) if (s !== undefined) s.on = false;
    this.hub.unwatchAll(this);
  }

  onMarketData(handler: (message: MarketDataMessage) => void, options?: MarketDataHandlerOptions): () => void {
    const removeBook = addHandler(this.mdHandlers, handler);
    if (options?.stats === false) return removeBook;
    const removeStats = addHandler(this.statsHandlers, handler);
    return () => (removeBook(), removeStats());
  }

  onTop(handler: (top: TopTicks) => void): () => void {
    return addHandler(this.topHandlers, handler);
  }

  /** A subscription as it runs at the venue: stats, then the current book, as on the websocket. */
  subscribe(market: Market, level: MarketDataLevel, depth: number): void {
    const s = this.subscriptions[market.index];
    if (s === undefined) this.subscriptions[market.index] = { on: true, level, depth };
    else (s.on = true), (s.level = level), (s.depth = depth);
    this.hub.watch(market, this);
    const { nowSec, nowNanos } = this.clock;
    // Stats nobody takes are not made (the one message's latency sample is drawn all the same).
    const stats = this.statsHandlers.length > 0 ? tickerStats(market, nowSec, nowNanos) : undefined;
    this.sent.forget(market); // the book is always sent on subscribing
    if (level === 'LEVEL_1' && this.topHandlers.length > 0) {
      this.sent.isNewTop(market);
      this.sent.writeTop(this.tops.push(), market);
      this.send(this.emitSubscribedTop, stats);
      return;
    }
    const book = level === 'LEVEL_2' ? this.sent.level2Update(market, depth, nowSec, nowNanos)! : bookUpdate(market, level, nowSec, nowNanos, depth);
    if (level === 'LEVEL_1') this.sent.isNewTop(market);
    this.send(() => {
      if (stats !== undefined) this.emitMarketData(stats);
      this.emitMarketData(book);
    });
  }

  unsubscribe(market: Market): void {
    const s = this.subscriptions[market.index];
    if (s !== undefined) s.on = false;
    this.hub.unwatch(market, this);
  }

  /**
   * One instant of a watched market (from the hub): its stats messages, then the book at the
   * subscribed level unless it repeats the last one sent (L1, L2), as on the websocket.
   */
  deliverInstant(batch: InstantBatch): void {
    const market = batch.market;
    const subscription = this.subscriptions[market.index];
    if (subscription === undefined || !subscription.on) return;
    const { level, depth } = subscription;
    for (let i = 0; i < batch.trades; i++) {
      // Stats nobody takes are not made nor sent, but their latency sample is drawn as when they
      // were: the random stream and the channel (which the book update queues behind) stay the same.
      if (this.statsHandlers.length === 0) this.channel.delayNs(this.clock.nowSec, this.clock.nowNanos);
      else this.send(this.emit, batch.stats(i)); // a fresh object: each port's handlers get their own
    }
    if (!batch.bookChanged) return;
    if (level === 'LEVEL_1') {
      if (!this.sent.isNewTop(market)) return;
      if (this.topHandlers.length > 0) {
        this.sent.writeTop(this.tops.push(), market);
        this.send(this.emitTop);
      }
      else this.send(this.emit, bookUpdate(market, level, batch.sec, batch.nanos));
      return;
    }
    const message = level === 'LEVEL_2' ? this.sent.level2Update(market, depth, batch.sec, batch.nanos) : bookUpdate(market, level, batch.sec, batch.nanos, depth);
    if (message === undefined) return;
    this.send(this.emit, message);
  }

  /** `fn(arg)` down the channel (handlers made once: no closure per message). */
  private send<T>(fn: (arg: T) => void, arg?: T): void {
    this.clock.postIn(this.channel.delayNs(this.clock.nowSec, this.clock.nowNanos), fn, arg);
  }

  private readonly emit = (message: MarketDataMessage): void => this.emitMarketData(message);

  /** A LEVEL_1 subscription's first message: its stats (when made), then the oldest top in flight. */
  private readonly emitSubscribedTop = (stats: TickerStats | undefined): void => {
    if (stats !== undefined) this.emitMarketData(stats);
    this.emitTop();
  };

  /** Delivers the oldest top in flight. */
  private readonly emitTop = (): void => {
    const top = this.tops.peek();
    // Not when unsubscribed in flight (the record names its market by index: no lookup by symbol).
    if (this.subscriptions[top.marketIndex]?.on === true) for (const h of this.topHandlers) h(top);
    this.tops.drop();
  };

  private isSubscribed(market: Market): boolean {
    return this.subscriptions[market.index]?.on === true;
  }

  private emitMarketData(message: MarketDataMessage): void {
    const symbol = message.s;
    let market = this.lastMarket;
    if (symbol !== this.lastSymbol) {
      market = this.venue.market(symbol);
      this.lastSymbol = symbol;
      this.lastMarket = market;
    }
    if (market === undefined || !this.isSubscribed(market)) return; // unsubscribed in flight
    for (const h of message.t === 's' ? this.statsHandlers : this.mdHandlers) h(message);
  }
}
