import type { Side } from '../core/types.ts';
import type { ExchangePort } from '../strategy/exchange-port.ts';
import type { Strategy } from '../strategy/strategy.ts';
import type { OrderFeed } from '../wire/order.ts';
import type { OwnOrderNote, TickStrategy } from '../strategy/tick-feeds.ts';
import { secToNs } from './clock-helpers.ts';
import { marketOf, type AgentEnvironment, type AgentMarket } from './environment.ts';
import { OwnOrders, type FeedOutcome } from './own-orders.ts';

/** One leveraged position to open and hold. */
export interface LeveragedTraderParams {
  symbol: string;
  side: Side;
  /** Position to open, lots. */
  qtyLots: number;
  /** When to open, seconds after the agent starts. */
  openAfterSec: number;
  /** The IOC's limit is this far through the index, bps (so it takes the book's liquidity). */
  slippageBps: number;
  /** Retries for an unfilled remainder, one second apart. */
  retries: number;
}

/**
 * A member of a leveraged crowd: opens one position with an IOC at a set time and holds it,
 * whatever happens. With little cash behind a large position it is what a liquidation cascade
 * is made of: when the price moves against the crowd, the venue liquidates its members one
 * after another, and their forced orders push the price further.
 */
export class LeveragedTrader implements Strategy, TickStrategy {
  private orders!: OwnOrders;
  private port!: ExchangePort;
  private readonly market: AgentMarket;
  private attempts = 0;

  constructor(
    private readonly env: AgentEnvironment,
    private readonly p: LeveragedTraderParams,
  ) {
    this.market = marketOf(env, p.symbol, 'leveraged trader');
  }

  onStart(port: ExchangePort): void {
    this.port = port;
    this.orders = new OwnOrders(port, () => this.market.tick);
    port.setTimer(secToNs(this.p.openAfterSec), () => this.open());
  }

  onOrderFeed(feed: OrderFeed): void {
    this.onOutcome(this.orders.apply(feed));
  }

  onOwnOrder(note: OwnOrderNote): void {
    this.onOutcome(this.orders.applyNote(note));
  }

  private onOutcome(outcome: FeedOutcome): void {
    if (outcome.kind === 'ended' && outcome.reason === 'expired' && this.attempts <= this.p.retries) {
      this.port.setTimer(1e9, () => this.open());
    }
  }

  /** Net position, lots. */
  get position(): number {
    return this.orders.position(this.p.symbol);
  }

  private open(): void {
    const index = this.env.index.indexPrice(this.p.symbol);
    const remaining = this.p.qtyLots - Math.abs(this.position);
    if (index === undefined || remaining <= 0) return;
    this.attempts++;
    const sign = this.p.side === 'B' ? 1 : -1;
    const limit = Math.round(index * (1 + (sign * this.p.slippageBps) / 1e4) * this.market.tick.priceScale);
    this.orders.place(this.p.symbol, this.p.side, limit, remaining, 'IOC');
  }
}
