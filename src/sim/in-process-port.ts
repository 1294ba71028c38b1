import type { SimClock } from '../clock/sim-clock.ts';
import type { Account } from '../venue/account.ts';
import type { Market } from '../venue/market.ts';
import { VenueQueryError, type Venue } from '../venue/venue.ts';
import type { ExchangePort, MarketDataHandlerOptions, OneWayRequests, SubscribeOptions } from '../strategy/exchange-port.ts';
import { OneWayPort } from './one-way-port.ts';
import { depthProblem, type MarketDataLevel, type MarketDataMessage } from '../wire/market-data.ts';
import type { NewOrder, OrderFeed } from '../wire/order.ts';
import { CommandFailedError } from '../venue/command-log.ts';
import type { CandleRecord, FundingRateRecord, InstrumentInfo, MarkPriceRecord } from '../wire/records.ts';
import { PortMarketData } from './port-market-data.ts';
import { ZERO_LATENCY, type LatencyModel } from './latency.ts';
import { PortHub, type OrderSink } from './port-hub.ts';
import { PortChannel } from './port-channel.ts';
import { addHandler } from '../strategy/handlers.ts';
import { noteOfFeed, type OwnOrderNote, type TickFeeds, type TopTicks } from '../strategy/tick-feeds.ts';
import type { OrderEvent } from '../venue/order-events.ts';
import { NoteLane } from './note-lane.ts';
import { RequestLane } from './request-lane.ts';
import { RequestPool, type PortRequest } from './port-request.ts';
import { cancelAllAtVenue, cancelAtVenue, insertAtVenue, instrumentsAtVenue, openOrdersAtVenue, PortError, riskSnapshotAtVenue } from './port-venue-ops.ts';

export interface InProcessPortOptions {
  /** One-way delay of requests and responses on the order path (and of order feeds). */
  orderLatency?: LatencyModel;
  /** Delay of market data from the venue to the strategy. */
  marketDataLatency?: LatencyModel;
  /**
   * Notes (`TickFeeds.onOwnOrder`) that arrive together are delivered in one clock event where
   * the order of everything is provably the same (note-lane.ts). For strategies that never
   * wait on a promise (the agents): a runner that lets a strategy's continuations run between
   * clock events would run them after the group instead of between its notes.
   */
  groupNotes?: boolean;
  /** One-way requests that arrive together run in one clock event, by the same rule (request-lane.ts). */
  groupRequests?: boolean;
}

export { PortError };

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
 *
 * A strategy that takes numbers (`ticks`: `TickFeeds`, the agents) gets its order events as
 * notes and LEVEL_1 books as tops in ticks, read from the venue's records: the same messages at
 * the same times, with no feed object or price text made for it (market data:
 * port-market-data.ts).
 */
export class InProcessPort implements ExchangePort, OrderSink, TickFeeds {
  readonly username: string;
  private readonly clock: SimClock;
  private readonly feedHandlers: ((feed: OrderFeed) => void)[] = [];
  /** `TickFeeds.onOwnOrder`'s handlers: order events as notes. */
  private readonly noteHandlers: ((note: OwnOrderNote) => void)[] = [];
  /** One-way requests on their way to the venue (request-lane.ts). */
  private readonly requestLane: RequestLane;
  /** Notes on their way to the strategy (note-lane.ts). */
  private readonly notes: NoteLane;
  /** Order events and LEVEL_1 books as numbers, for the strategies that take them (the agents). */
  readonly ticks: TickFeeds = this;
  private readonly md: PortMarketData;
  private readonly hub: PortHub;
  /** Requests whose answer nobody awaits (the agents'). */
  readonly oneWay: OneWayRequests;
  /** Arrival time of the latest message per channel (FIFO). */
  private readonly toVenue: PortChannel;
  private readonly toStrategy: PortChannel;
  /** Records of `call`'s requests in flight, reused. */
  private readonly requests = new RequestPool();

  constructor(
    /** @internal What the requests run on (`port-venue-ops.ts`). */
    readonly venue: Venue,
    /** @internal */
    readonly account: Account,
    options: InProcessPortOptions = {},
  ) {
    this.username = account.username;
    this.clock = venue.clock;
    const orderLatency = options.orderLatency ?? ZERO_LATENCY;
    this.toVenue = new PortChannel(orderLatency);
    this.requestLane = new RequestLane(this.clock, this.toVenue, options.groupRequests ?? false);
    this.toStrategy = new PortChannel(orderLatency);
    this.notes = new NoteLane(this.clock, this.toStrategy, venue, this.noteHandlers, this, options.groupNotes ?? false);
    this.hub = PortHub.of(venue);
    this.md = new PortMarketData(venue, this.clock, new PortChannel(options.marketDataLatency ?? ZERO_LATENCY), this.hub);
    this.hub.addUser(account.id, this);
    this.oneWay = new OneWayPort(this, venue, account);
  }

  /** Stops listening to the venue (the port is unusable afterwards). */
  close(): void {
    this.hub.removeUserSink(this);
    this.feedHandlers.length = 0;
    this.noteHandlers.length = 0;
    this.md.close();
  }

  now(): bigint {
    return this.clock.nowNs;
  }

  /**
   * Promises this port settled so far. It settles them only inside clock events, so a runner
   * that steps the clock learns right after an event whether one settled (the backtest's
   * `TrackedPort`), without waiting a microtask to see.
   */
  get settlements(): number {
    return this.requests.settled;
  }

  nowSeconds(): number {
    return this.clock.nowSeconds;
  }

  instruments(): Promise<InstrumentInfo[]> {
    return this.call(instrumentsAtVenue, undefined);
  }

  insertOrder(order: NewOrder): Promise<string> {
    return this.call(insertAtVenue, order, order);
  }

  cancelOrder(orderId: string): Promise<void> {
    return this.call(cancelAtVenue, orderId);
  }

  cancelAll(): Promise<{ successful: string[]; failed: string[] }> {
    return this.call(cancelAllAtVenue, undefined);
  }

  openOrders() {
    return this.call(openOrdersAtVenue, undefined);
  }

  riskSnapshot() {
    return this.call(riskSnapshotAtVenue, undefined);
  }

  mtmPrices(symbol: string, startNs: bigint, endNs: bigint): Promise<MarkPriceRecord[]> {
    return this.call(() => this.venue.mtmPrices(symbol, startNs, endNs), undefined);
  }

  fundingRates(symbol: string, startNs: bigint, endNs: bigint): Promise<FundingRateRecord[]> {
    return this.call(() => this.venue.fundingRates(symbol, startNs, endNs), undefined);
  }

  candles(symbol: string, interval: string, startNs: bigint, endNs: bigint): Promise<CandleRecord[]> {
    return this.call(() => this.venue.candles(symbol, interval, startNs, endNs).candles, undefined);
  }

  subscribe(symbol: string, level: MarketDataLevel, options?: SubscribeOptions): Promise<void> {
    return this.call(() => this.subscribeNow(symbol, level, options), undefined);
  }

  unsubscribe(symbol: string): Promise<void> {
    return this.call(this.unsubscribeNow, symbol);
  }

  /** @internal `subscribe` as it runs at the venue (`call`'s or a one-way request's). */
  subscribeNow(symbol: string, level: MarketDataLevel, options?: SubscribeOptions): void {
    const market = this.marketOf(symbol);
    const problem = depthProblem(options?.depth);
    if (problem !== undefined) throw new PortError(`invalid subscribe: ${problem}`);
    this.md.subscribe(market, level, options?.depth ?? Infinity);
  }

  /** @internal `unsubscribe` as it runs at the venue. */
  unsubscribeNow(symbol: string): void {
    this.md.unsubscribe(this.marketOf(symbol));
  }

  /** @internal Sends a one-way request (`OneWayPort`) as `call` sends one; `fn` ends with `answered()`. */
  request<T>(fn: (arg: T) => void, arg: T): void {
    this.requestLane.post(fn, arg);
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

  /** `TickFeeds`: while any is registered, order feeds arrive as notes (feed handlers, if any, still get feeds). */
  onOwnOrder(handler: (note: OwnOrderNote) => void): () => void {
    return addHandler(this.noteHandlers, handler);
  }

  /** `TickFeeds`: an order's wire id from its note's numbers. */
  formatOrderId(seq: number, insertSec: number, insertNanos: number): string {
    return this.venue.formatOrderId(seq, insertSec, insertNanos);
  }

  /** `TickFeeds`: while any is registered, LEVEL_1 books go to these as tops, not to `onMarketData` handlers. */
  onTop(handler: (top: TopTicks) => void): () => void {
    return this.md.onTop(handler);
  }

  onMarketData(handler: (message: MarketDataMessage) => void, options?: MarketDataHandlerOptions): () => void {
    return this.md.onMarketData(handler, options);
  }

  setTimer(delayNs: number, fn: () => void): () => void {
    const event = this.clock.scheduleIn(delayNs, fn);
    return () => void this.clock.cancel(event);
  }

  /**
   * `setTimer` that calls `fn(arg)`: a caller wrapping every timer (the backtest's tracked port)
   * passes one wrapper and the strategy's function as `arg`, no closure per timer.
   */
  setTimerWith<T>(delayNs: number, fn: (arg: T) => void, arg: T): () => void {
    const event = this.clock.scheduleIn(delayNs, fn, arg);
    return () => void this.clock.cancel(event);
  }

  /**
   * Request → venue → response, each leg after a sampled latency: `op(arg)` runs at the venue
   * with the port as `this`, and its value or refusal settles the promise on arrival. One
   * reused record carries the request both ways (`port-request.ts`).
   */
  private call<A, T>(op: (this: InProcessPort, arg: A) => T, arg: A, order?: NewOrder): Promise<T> {
    const r = this.requests.take(op as (arg: unknown) => unknown, arg, order);
    const promise = r.promise as Promise<T>;
    this.send(this.toVenue, this.runRequest, r, order);
    return promise;
  }

  private readonly runRequest = (r: PortRequest): void => {
    try {
      r.result = r.op.call(this, r.arg);
      r.ok = true;
    } catch (e) {
      // A command that failed midway was rolled back whole (venue/command-log.ts): the strategy
      // hears it as a refusal, as a wire client hears the 500 saying nothing changed.
      if (!(e instanceof VenueQueryError || e instanceof PortError || e instanceof RangeError || e instanceof CommandFailedError)) throw e;
      r.result = e;
      r.ok = false;
    }
    this.send(this.toStrategy, this.runAnswer, r, r.order);
  };

  private readonly runAnswer = (r: PortRequest): void => this.requests.answer(r);

  /**
   * Sends `fn(arg)` down `channel` (see `PortChannel`: a latency sample, never overtaking the
   * channel's last message). Feeds and market data pass a handler made once per port and the
   * message as `arg` (no closure per message).
   */
  private send<T>(channel: PortChannel, fn: (arg: T) => void, arg?: T, order?: NewOrder): void {
    this.clock.postIn(channel.delayNs(this.clock.nowSec, this.clock.nowNanos, order), fn, arg);
  }

  /**
   * @internal An order event of this port's user (from the hub): one message down the channel,
   * a feed when a handler takes feeds (note handlers then read it as a note), else a note.
   */
  onOrderEvent(e: OrderEvent): void {
    if (this.feedHandlers.length > 0) this.send(this.toStrategy, this.runFeedHandlers, e.feed());
    else if (this.noteHandlers.length > 0) this.notes.send(e);
  }

  private readonly runFeedHandlers = (feed: OrderFeed): void => {
    for (const h of this.feedHandlers) h(feed);
    if (this.noteHandlers.length > 0) {
      const note = noteOfFeed(feed, (symbol, text) => this.venue.market(symbol)?.instrument.tick.toTicks(text));
      for (const h of this.noteHandlers) h(note);
    }
  };

  private marketOf(symbol: string): Market {
    const market = this.venue.market(symbol);
    if (market === undefined) throw new PortError(`unknown symbol ${symbol}`);
    return market;
  }
}
