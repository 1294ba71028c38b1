import type { TickSize } from '../core/price.ts';
import type { ExchangePort } from '../strategy/exchange-port.ts';
import type { Strategy } from '../strategy/strategy.ts';
import type { OwnOrderNote, TickStrategy } from '../strategy/tick-feeds.ts';
import type { OrderFeed } from '../wire/order.ts';
import { marketOf, type AgentEnvironment } from './environment.ts';
import { OneOrderAtATime } from './one-order-at-a-time.ts';
import { OwnOrders } from './own-orders.ts';

/**
 * A taker that walks its position with single IOCs, one order at a time per symbol (the
 * informed trader, the signal traders): its own orders and positions from its feeds, and its
 * turns (`OneOrderAtATime`: busy while an order is out, paused after EXCHANGE_CLOSED). A
 * subclass decides what to send and when, from `begin` on. The feeds' methods are shared here
 * because they are cold for these agents (a few orders a minute); the market maker's and the
 * noise trader's, which run on every fill, stay their own.
 */
export abstract class OneOrderTrader<E extends AgentEnvironment = AgentEnvironment> implements Strategy, TickStrategy {
  protected orders!: OwnOrders;
  protected port!: ExchangePort;
  protected turns!: OneOrderAtATime;

  /** `kind` names the agent in errors (`informed trader`). */
  constructor(
    protected readonly env: E,
    private readonly kind: string,
    private readonly closedBackoffSec: number,
  ) {}

  /** Starts the trader once its orders and turns are set up (`tickOf`: a traded symbol's tick size). */
  protected abstract begin(port: ExchangePort, tickOf: (symbol: string) => TickSize): void;

  onStart(port: ExchangePort): void {
    this.port = port;
    const tickOf = (symbol: string) => marketOf(this.env, symbol, this.kind).tick;
    this.orders = new OwnOrders(port, tickOf);
    this.turns = new OneOrderAtATime(port, this.closedBackoffSec);
    this.begin(port, tickOf);
  }

  onOrderFeed(feed: OrderFeed): void {
    this.turns.settle(this.orders.apply(feed));
  }

  onOwnOrder(note: OwnOrderNote): void {
    this.turns.settle(this.orders.applyNote(note));
  }

  /** Net position in `symbol`, lots. */
  position(symbol: string): number {
    return this.orders.position(symbol);
  }
}
