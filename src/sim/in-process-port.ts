import type { SimClock } from '../clock/sim-clock.ts';
import { toInstrumentInfo } from '../codec/instrument-codec.ts';
import { bookUpdate, tickerStats, type MarketDataLevel, type MarketDataMessage } from '../codec/market-data-codec.ts';
import { toRestOrder } from '../codec/order-codec.ts';
import type { Account } from '../venue/account.ts';
import type { OrderFeed } from '../venue/feeds.ts';
import type { Market } from '../venue/market.ts';
import { VenueQueryError, type Venue } from '../venue/venue.ts';
import type { CandleRecord, ExchangePort, FundingRateRecord, InstrumentInfo, MarkPriceRecord, NewOrder } from '../strategy/exchange-port.ts';
import { ZERO_LATENCY, type LatencyModel } from './latency.ts';

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
 * Market data is coalesced like the websocket's: at most one book update per subscribed
 * symbol per clock instant, captured at the end of that instant.
 */
export class InProcessPort implements ExchangePort {
  readonly username: string;
  private readonly clock: SimClock;
  private readonly orderLatency: LatencyModel;
  private readonly mdLatency: LatencyModel;
  private readonly feedHandlers: ((feed: OrderFeed) => void)[] = [];
  private readonly mdHandlers: ((message: MarketDataMessage) => void)[] = [];
  private readonly subscriptions = new Map<Market, MarketDataLevel>();
  private readonly pendingBook = new Set<Market>();
  private readonly pendingStats = new Set<Market>();
  private readonly unsubscribeVenue: () => void;

  constructor(
    private readonly venue: Venue,
    private readonly account: Account,
    options: InProcessPortOptions = {},
  ) {
    this.username = account.username;
    this.clock = venue.clock;
    this.orderLatency = options.orderLatency ?? ZERO_LATENCY;
    this.mdLatency = options.marketDataLatency ?? ZERO_LATENCY;
    this.unsubscribeVenue = venue.subscribe({
      orderFeed: (userId, feed) => {
        if (userId === this.account.id && this.feedHandlers.length > 0) this.deliver(this.orderLatency, () => this.feedHandlers.forEach((h) => h(feed)));
      },
      bookChanged: (market) => this.coalesce(market, this.pendingBook),
      trade: (_trade, market) => this.coalesce(market, this.pendingStats),
    });
  }

  /** Stops listening to the venue (the port is unusable afterwards). */
  close(): void {
    this.unsubscribeVenue();
    this.feedHandlers.length = 0;
    this.mdHandlers.length = 0;
    this.subscriptions.clear();
  }

  now(): bigint {
    return this.clock.nowNs;
  }

  instruments(): Promise<InstrumentInfo[]> {
    return this.call(() => this.venue.markets.map(toInstrumentInfo));
  }

  insertOrder(order: NewOrder): Promise<string> {
    return this.call(
      () =>
        this.venue.placeOrder(this.account, {
          symbol: order.symbol,
          price: order.price,
          quantity: order.quantity,
          side: order.side,
          timeInForce: order.timeInForce,
          postOnly: order.postOnly ?? false,
        }).id,
    );
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

  subscribe(symbol: string, level: MarketDataLevel): Promise<void> {
    return this.call(() => {
      const market = this.marketOf(symbol);
      this.subscriptions.set(market, level);
      // As on the websocket: stats, then the current book, right after the subscription.
      const stats = tickerStats(market, this.clock.nowSec, this.clock.nowNanos);
      const book = bookUpdate(market, level, this.clock.nowSec, this.clock.nowNanos);
      this.deliver(this.mdLatency, () => {
        this.emitMarketData(stats);
        this.emitMarketData(book);
      });
    });
  }

  unsubscribe(symbol: string): Promise<void> {
    return this.call(() => void this.subscriptions.delete(this.marketOf(symbol)));
  }

  onOrderFeed(handler: (feed: OrderFeed) => void): () => void {
    return addHandler(this.feedHandlers, handler);
  }

  onMarketData(handler: (message: MarketDataMessage) => void): () => void {
    return addHandler(this.mdHandlers, handler);
  }

  setTimer(delayNs: number, fn: () => void): () => void {
    const event = this.clock.scheduleIn(delayNs, fn);
    return () => void this.clock.cancel(event);
  }

  /** Request → venue → response, each leg after a sampled latency. */
  private call<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.clock.scheduleIn(this.orderLatency.sampleNs(), () => {
        let outcome: { ok: true; value: T } | { ok: false; error: Error };
        try {
          outcome = { ok: true, value: fn() };
        } catch (e) {
          if (!(e instanceof VenueQueryError || e instanceof PortError || e instanceof RangeError)) throw e;
          outcome = { ok: false, error: e };
        }
        this.clock.scheduleIn(this.orderLatency.sampleNs(), () => (outcome.ok ? resolve(outcome.value) : reject(outcome.error)));
      });
    });
  }

  private deliver(latency: LatencyModel, fn: () => void): void {
    this.clock.scheduleIn(latency.sampleNs(), fn);
  }

  /** Captures at most one message per market per instant, after the instant's other events. */
  private coalesce(market: Market, pending: Set<Market>): void {
    if (!this.subscriptions.has(market) || pending.has(market)) return;
    pending.add(market);
    this.clock.scheduleIn(0, () => {
      pending.delete(market);
      const level = this.subscriptions.get(market);
      if (level === undefined) return;
      const { nowSec, nowNanos } = this.clock;
      const message = pending === this.pendingBook ? bookUpdate(market, level, nowSec, nowNanos) : tickerStats(market, nowSec, nowNanos);
      this.deliver(this.mdLatency, () => this.emitMarketData(message));
    });
  }

  private emitMarketData(message: MarketDataMessage): void {
    const market = this.venue.market(message.s);
    if (market === undefined || !this.subscriptions.has(market)) return; // unsubscribed in flight
    for (const h of this.mdHandlers) h(message);
  }

  private marketOf(symbol: string): Market {
    const market = this.venue.market(symbol);
    if (market === undefined) throw new PortError(`unknown symbol ${symbol}`);
    return market;
  }
}

function addHandler<T>(list: T[], handler: T): () => void {
  list.push(handler);
  return () => {
    const i = list.indexOf(handler);
    if (i >= 0) list.splice(i, 1);
  };
}
