import type { Side, TimeInForce } from '../core/types.ts';
import type { RestOrder } from '../codec/order-codec.ts';
import type { OrderFeed } from '../venue/feeds.ts';
import type { PositionRiskSnapshot } from '../venue/risk-view.ts';
import type { MarketDataLevel, MarketDataMessage } from '../codec/market-data-codec.ts';

export type { BookLevel, BookUpdate, MarketDataLevel, MarketDataMessage, TickerStats } from '../codec/market-data-codec.ts';

/**
 * The seam between a strategy and any exchange that speaks the interface document: the
 * simulated venue in-process (deterministic, with latency on the sim clock), a perpsim server
 * over REST + websockets, or a live venue. Shapes are the wire's, so a strategy never knows
 * which one it got.
 */

/** An instrument as GET /auth/instruments returns it. */
export interface InstrumentInfo {
  symbol: string;
  tick_size: string;
  base_currency: string;
  multiplier: number;
  minimum_trade_quantity: number;
  description: string;
  product_id: string;
  state: string;
  price_scale: number;
}

/** A new order, in the wire's units (price is decimal text). */
export interface NewOrder {
  symbol: string;
  price: string;
  quantity: number;
  side: Side;
  timeInForce: TimeInForce;
  postOnly?: boolean;
}

export interface MarkPriceRecord {
  timestamp: string;
  symbol: string;
  mtm_price: string;
}

export interface FundingRateRecord {
  timestamp: string;
  symbol: string;
  benchmark_price: string;
  settlement_price: string;
  funding_amount: string;
  funding_rate: string;
}

export interface CandleRecord {
  timestamp: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  buy_volume: string;
  sell_volume: string;
}

/** Every call an exchange offers a strategy, mirroring the interface document. */
export interface ExchangePort {
  /** The user this port trades as. */
  readonly username: string;
  /** Exchange time in ns since the epoch, as this port knows it (sim time in-process). */
  now(): bigint;
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
  /** Subscribes to a symbol's market data; stats and the current book follow. */
  subscribe(symbol: string, level: MarketDataLevel): Promise<void>;
  unsubscribe(symbol: string): Promise<void>;
  /** Registers a handler for this user's order feeds; returns the function that removes it. */
  onOrderFeed(handler: (feed: OrderFeed) => void): () => void;
  /** Registers a handler for subscribed market data; returns the function that removes it. */
  onMarketData(handler: (message: MarketDataMessage) => void): () => void;
  /** Calls `fn` after `delayNs` of exchange time; returns a function that cancels it. */
  setTimer(delayNs: number, fn: () => void): () => void;
}
