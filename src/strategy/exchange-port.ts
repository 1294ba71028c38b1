import type { Side, TimeInForce } from '../core/types.ts';
import type { MarketDataLevel, MarketDataMessage } from '../wire/market-data.ts';
import type { NewOrder, OrderFeed, RestOrder } from '../wire/order.ts';
import type { CandleRecord, FundingRateRecord, InstrumentInfo, MarkPriceRecord } from '../wire/records.ts';
import type { PositionRiskSnapshot } from '../wire/risk.ts';
import type { TickFeeds } from './tick-feeds.ts';

/**
 * The seam between a strategy and any exchange that speaks the interface document: the
 * simulated venue in-process (deterministic, with latency on the sim clock), a perpsim server
 * over REST + websockets, or a live venue. Shapes are the wire's, so a strategy never knows
 * which one it got.
 */

/** Options of {@link ExchangePort.subscribe}. */
export interface SubscribeOptions {
  /** The first `depth` levels a side (an integer from 1 to `MAX_MARKET_DATA_DEPTH`); absent: every level. */
  depth?: number;
}

/** Options of {@link ExchangePort.onMarketData}. */
export interface MarketDataHandlerOptions {
  /** Whether the handler takes ticker stats messages (default true). */
  stats?: boolean;
}

/** Every call an exchange offers a strategy, mirroring the interface document. */
export interface ExchangePort {
  /** The user this port trades as. */
  readonly username: string;
  /** Exchange time in ns since the epoch, as this port knows it (sim time in-process). */
  now(): bigint;
  /** Where a port offers it: `Number(now()) / 1e9` exactly, without making a bigint (the in-process port). */
  nowSeconds?(): number;
  instruments(): Promise<InstrumentInfo[]>;
  /** Resolves with the order id once the exchange acknowledged it; the outcome arrives as feeds. */
  insertOrder(order: NewOrder): Promise<string>;
  /** Resolves when the cancel was received; the outcome arrives as a `c` or `e` feed. */
  cancelOrder(orderId: string): Promise<void>;
  cancelAll(): Promise<{ successful: string[]; failed: string[] }>;
  openOrders(): Promise<RestOrder[]>;
  riskSnapshot(): Promise<PositionRiskSnapshot>;
  mtmPrices(symbol: string, startNs: bigint, endNs: bigint): Promise<MarkPriceRecord[]>;
  fundingRates(symbol: string, startNs: bigint, endNs: bigint): Promise<FundingRateRecord[]>;
  candles(symbol: string, interval: string, startNs: bigint, endNs: bigint): Promise<CandleRecord[]>;
  /**
   * Subscribes to a symbol's market data; stats and the current book follow. `depth` (perpsim's
   * extension of the interface) limits LEVEL_2 / LEVEL_3 updates to the first `depth` levels a
   * side, and an update that changes nothing within them is not delivered.
   */
  subscribe(symbol: string, level: MarketDataLevel, options?: SubscribeOptions): Promise<void>;
  unsubscribe(symbol: string): Promise<void>;
  /** Registers a handler for this user's order feeds; returns the function that removes it. */
  onOrderFeed(handler: (feed: OrderFeed) => void): () => void;
  /**
   * Registers a handler for subscribed market data; returns the function that removes it.
   * `{ stats: false }`: the handler takes no ticker stats (a port may then skip sending them).
   */
  onMarketData(handler: (message: MarketDataMessage) => void, options?: MarketDataHandlerOptions): () => void;
  /** Calls `fn` after `delayNs` of exchange time; returns a function that cancels it. */
  setTimer(delayNs: number, fn: () => void): () => void;
  /**
   * Requests whose answer nobody awaits, where the port offers them (the in-process port does;
   * a strategy that can use them checks for them and falls back to the promise calls).
   */
  readonly oneWay?: OneWayRequests;
  /**
   * Order events and LEVEL_1 books as numbers, where the port offers them (the in-process port):
   * `attachStrategy` uses them for a strategy that implements `TickStrategy`.
   */
  readonly ticks?: TickFeeds;
}

/**
 * Fire-and-forget requests: each travels to the exchange and runs there exactly as the
 * promise-returning call of the same name would, with the same latency, but no answer comes
 * back (no promise, nothing scheduled for it): what the request did arrives as order feeds and
 * market data, as always. Meant for simulated agents, which never await their calls (in a
 * synchronous run a promise settles only after the clock stops). A request the exchange
 * refuses with an error (a bad symbol, say) throws where it runs, since nobody would hear it.
 */
export interface OneWayRequests {
  /** `insertOrder` of an order priced in whole ticks (no price text is made or parsed). */
  placeTicks(symbol: string, side: Side, priceTicks: number, qtyLots: number, timeInForce: TimeInForce, postOnly: boolean): void;
  /** `cancelOrder`. */
  cancel(orderId: string): void;
  /**
   * `cancelOrder` of an order whose engine id the port told (`OwnOrderNote.seq`): no id text
   * parsed. The wire id (or an object whose `id` makes it) is read only when no open order has
   * the engine id, to name it in the `e` feed.
   */
  cancelSeq(seq: number, orderId: string | { readonly id: string }): void;
  /** `subscribe` with every level. */
  subscribe(symbol: string, level: MarketDataLevel): void;
  /** `unsubscribe`. */
  unsubscribe(symbol: string): void;
}
