import type { SimClock } from '../clock/sim-clock.ts';
import { bookUpdate, tickerStats, toInstrumentInfo, toRestOrder } from '../venue/wire-forms.ts';
import type { Account } from '../venue/account.ts';
import type { Market } from '../venue/market.ts';
import type { InstantBatch } from '../venue/md-instants.ts';
import { VenueQueryError, type Venue } from '../venue/venue.ts';
import type { ExchangePort, MarketDataHandlerOptions, OneWayRequests, SubscribeOptions } from '../strategy/exchange-port.ts';
import { OneWayPort } from './one-way-port.ts';
import { depthProblem, type BookUpdate, type MarketDataLevel, type MarketDataMessage } from '../wire/market-data.ts';
import type { NewOrder, OrderFeed } from '../wire/order.ts';
import { newOrderProblem } from './new-order-check.ts';
import { CommandFailedError } from '../venue/command-log.ts';
import type { CandleRecord, FundingRateRecord, InstrumentInfo, MarkPriceRecord } from '../wire/records.ts';
import { SentBooks } from './sent-books.ts';
import { ZERO_LATENCY, type LatencyModel } from './latency.ts';
import { PortHub, type PortSink } from './port-hub.ts';
import { PortChannel } from './port-channel.ts';
import { addHandler } from '../strategy/handlers.ts';

export interface InProcessPortOptions {
  /** One-way delay of requests and responses on the order path (and of order feeds). */
  orderLatency?: LatencyModel;
  /** Delay of market data from the venue to the strategy. */
  marketDataLatency?: LatencyModel;
}

/** A port call failed at the venue (unknown symbol, bad range, ...). */
export class PortError extends Error {}

/**
 * The ExchangePort over the simulated venue, on the sim clock. Every request travels to the
 * venue after a sampled order latency, runs there at that instant, and its response travels
 * back after another sample; feeds and market data arrive late by their own latencies. So a
 * strategy cannot react faster than it could live, and a run stays deterministic.
 *
 * Market data follows the one rule the websocket follows (venue/md-instants.ts): a stats
 * message per trade, then at most one book update per subscribed symbol per clock instant,
 * captured at the end of that instant; LEVEL_1 and LEVEL_2 updates identical to the previous
 * one sent are skipped.
 *
 * Each direction is one ordered channel, as a socket is: requests reach the venue in the order
 * they were sent; responses and order feeds reach the strategy in the order the venue produced
 * them; market data likewise. A message whose sampled latency would let it overtake an
 * earlier one on its channel arrives right after it instead. One-way requests (`oneWay`,
 * the agents') travel the same way and draw the same samples, with no answer scheduled.
 */
export class InProcessPort implements ExchangePort, PortSink {
  readonly username: string;
  private readonly clock: SimClock;
  private readonly feedHandlers: ((feed: OrderFeed) => void)[] = [];
  private readonly mdHandlers: ((message: MarketDataMessage) => void)[] = [];
  /** The handlers that take stats too (`onMarketData`'s `stats`): with none, none are sent. */
  private readonly statsHandlers: ((message: MarketDataMessage) => void)[] = [];
  /** Level and depth (Infinity: every level) per subscribed market. */
  private readonly subscriptions = new Map<Market, { level: MarketDataLevel; depth: number }>();
  /** What was last sent of each book, to skip repeats. */
  private readonly sent: SentBooks;
  private readonly hub: PortHub;
  /** Requests whose answer nobody awaits (the agents'). */
  readonly oneWay: OneWayRequests;
  /** Arrival time of the latest message per channel (FIFO). */
  private readonly toVenue: PortChannel;
  private readonly toStrategy: PortChannel;
  private readonly marketData: PortChannel;

  constructor(
    private readonly venue: Venue,
    private readonly account: Account,
    options: InProcessPortOptions = {},
  ) {
    this.username = account.username;
    this.clock = venue.clock;
    const orderLatency = options.orderLatency ?? ZERO_LATENCY;
    this.toVenue = new PortChannel(orderLatency);
    this.toStrategy = new PortChannel(orderLatency);
    this.marketData = new PortChannel(options.marketDataLatency ?? ZERO_LATENCY);
    this.hub = PortHub.of(venue);
    this.sent = new SentBooks(venue, this.hub);
    this.hub.addUser(account.id, this);
    this.oneWay = new OneWayPort(this, venue, account);
  }

  /** Stops listening to the venue (the port is unusable afterwards). */
  close(): void {
    this.hub.remove(this);
    this.feedHandlers.length = 0;
    this.mdHandlers.length = 0;
    this.statsHandlers.length = 0;
    this.subscriptions.clear();
  }

  now(): bigint {
    return this.clock.nowNs;
  }

  nowSeconds(): number {
    return this.clock.nowSeconds;
  }

  instruments(): Promise<InstrumentInfo[]> {
    return this.call(() => this.venue.markets.map(toInstrumentInfo));
  }

  insertOrder(order: NewOrder): Promise<string> {
    return this.call(() => {
      const problem = newOrderProblem(order);
      if (problem !== undefined) throw new PortError(`invalid order: ${problem}`);
      return this.venue.placeOrderId(this.account, {
        symbol: order.symbol,
        price: order.price,
        quantity: order.quantity,
        side: order.side,
        timeInForce: order.timeInForce,
        postOnly: order.postOnly ?? false,
      });
    }, order);
  }

  cancelOrder(orderId: string): Promise<void> {
    return this.call(() => void this.venue.cancelOrder(this.account, orderId));
  }

  cancelAll(): Promise<{ successful: string[]; failed: string[] }> {
    return this.call(() => this.venue.cancelAll(this.account));
  }

  openOrders() {
    return this.call(() => this.venue.openOrders(this.account).map(toRestOrder));
  }

  riskSnapshot() {
    return this.call(() => this.venue.riskSnapshot(this.account));
  }

  mtmPrices(symbol: string, startNs: bigint, endNs: bigint): Promise<MarkPriceRecord[]> {
    return this.call(() => this.venue.mtmPrices(symbol, startNs, endNs));
  }

  fundingRates(symbol: string, startNs: bigint, endNs: bigint): Promise<FundingRateRecord[]> {
    return this.call(() => this.venue.fundingRates(symbol, startNs, endNs));
  }

  candles(symbol: string, interval: string, startNs: bigint, endNs: bigint): Promise<CandleRecord[]> {
    return this.call(() => this.venue.candles(symbol, interval, startNs, endNs).candles);
  }

  subscribe(symbol: string, level: MarketDataLevel, options?: SubscribeOptions): Promise<void> {
    return this.call(() => this.subscribeNow(symbol, level, options));
  }

  unsubscribe(symbol: string): Promise<void> {
    return this.call(() => this.unsubscribeNow(symbol));
  }

  /** @internal `subscribe` as it runs at the venue (`call`'s or a one-way request's). */
  subscribeNow(symbol: string, level: MarketDataLevel, options?: SubscribeOptions): void {
    const market = this.marketOf(symbol);
    const problem = depthProblem(options?.depth);
    if (problem !== undefined) throw new PortError(`invalid subscribe: ${problem}`);
    const depth = options?.depth ?? Infinity;
    this.subscriptions.set(market, { level, depth });
    this.hub.watch(market, this);
    // As on the websocket: stats, then the current book, right after the subscription.
    const stats = tickerStats(market, this.clock.nowSec, this.clock.nowNanos);
    this.sent.forget(market); // the book is always sent on subscribing
    const book = level === 'LEVEL_2' ? this.sent.level2Update(market, depth, this.clock.nowSec, this.clock.nowNanos)! : bookUpdate(market, level, this.clock.nowSec, this.clock.nowNanos, depth);
    if (level === 'LEVEL_1') this.sent.isNewTop(market);
    this.send(this.marketData, () => {
      this.emitMarketData(stats);
      this.emitMarketData(book);
    });
  }

  /** @internal `unsubscribe` as it runs at the venue. */
  unsubscribeNow(symbol: string): void {
    const market = this.marketOf(symbol);
    this.subscriptions.delete(market);
    this.hub.unwatch(market, this);
  }

  /** @internal Sends a one-way request (`OneWayPort`) as `call` sends one; `fn` ends with `answered()`. */
  request<T>(fn: (arg: T) => void, arg: T): void {
    this.send(this.toVenue, fn, arg);
  }

  /**
   * @internal A one-way request ran: no answer is sent, but its latency sample is drawn as
   * `call` draws it, so the stream and the channel (later feeds queue behind) stay the same.
   */
  answered(): void {
    this.toStrategy.delayNs(this.clock.nowSec, this.clock.nowNanos);
  }

  onOrderFeed(handler: (feed: OrderFeed) => void): () => void {
    return addHandler(this.feedHandlers, handler);
  }

  onMarketData(handler: (message: MarketDataMessage) => void, options?: MarketDataHandlerOptions): () => void {
    const removeBook = addHandler(this.mdHandlers, handler);
    if (options?.stats === false) return removeBook;
    const removeStats = addHandler(this.statsHandlers, handler);
    return () => (removeBook(), removeStats());
  }

  setTimer(delayNs: number, fn: () => void): () => void {
    const event = this.clock.scheduleIn(delayNs, fn);
    return () => void this.clock.cancel(event);
  }

  /** Request → venue → response, each leg after a sampled latency. */
  private call<T>(fn: () => T, order?: NewOrder): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.send(this.toVenue, () => {
        let outcome: { ok: true; value: T } | { ok: false; error: Error };
        try {
          outcome = { ok: true, value: fn() };
        } catch (e) {
          // A command that failed midway was rolled back whole (venue/command-log.ts): the strategy
          // hears it as a refusal, as a wire client hears the 500 saying nothing changed.
          if (!(e instanceof VenueQueryError || e instanceof PortError || e instanceof RangeError || e instanceof CommandFailedError)) throw e;
          outcome = { ok: false, error: e };
        }
        this.send(this.toStrategy, () => (outcome.ok ? resolve(outcome.value) : reject(outcome.error)), undefined, order);
      }, undefined, order);
    });
  }

  /**
   * Sends `fn(arg)` down `channel` (see `PortChannel`: a latency sample, never overtaking the
   * channel's last message). Feeds and market data pass a handler made once per port and the
   * message as `arg` (no closure per message).
   */
  private send<T>(channel: PortChannel, fn: (arg: T) => void, arg?: T, order?: NewOrder): void {
    this.clock.postIn(channel.delayNs(this.clock.nowSec, this.clock.nowNanos, order), fn, arg);
  }

  /** @internal An order feed of this port's user (from the hub). */
  onFeed(feed: OrderFeed): void {
    if (this.feedHandlers.length > 0) this.send(this.toStrategy, this.runFeedHandlers, feed);
  }

  private readonly runFeedHandlers = (feed: OrderFeed): void => {
    for (const h of this.feedHandlers) h(feed);
  };
  private readonly emit = (message: MarketDataMessage): void => this.emitMarketData(message);

  /**
   * @internal One instant of a watched market (from the hub): its stats messages, then the
   * book at the subscribed level unless it repeats the last one sent (L1, L2), as on the websocket.
   */
  deliverInstant(batch: InstantBatch): void {
    const market = batch.market;
    const subscription = this.subscriptions.get(market);
    if (subscription === undefined) return;
    const { level, depth } = subscription;
    for (const stats of batch.stats) {
      // Stats nobody takes are not sent, but their latency sample is drawn as when they were:
      // the random stream and the channel (which the book update queues behind) stay the same.
      if (this.statsHandlers.length === 0) this.marketData.delayNs(this.clock.nowSec, this.clock.nowNanos);
      else this.send(this.marketData, this.emit, { ...stats }); // each port's handlers get their own object
    }
    if (!batch.bookChanged) return;
    if (level === 'LEVEL_1') {
      if (!this.sent.isNewTop(market)) return;
      this.send(this.marketData, this.emit, bookUpdate(market, level, batch.sec, batch.nanos));
      return;
    }
    const message = level === 'LEVEL_2' ? this.sent.level2Update(market, depth, batch.sec, batch.nanos) : bookUpdate(market, level, batch.sec, batch.nanos, depth);
    if (message === undefined) return;
    this.send(this.marketData, this.emit, message);
  }

  private emitMarketData(message: MarketDataMessage): void {
    const market = this.venue.market(message.s);
    if (market === undefined || !this.subscriptions.has(market)) return; // unsubscribed in flight
    for (const h of message.t === 's' ? this.statsHandlers : this.mdHandlers) h(message);
  }

  private marketOf(symbol: string): Market {
    const market = this.venue.market(symbol);
    if (market === undefined) throw new PortError(`unknown symbol ${symbol}`);
    return market;
  }
}
