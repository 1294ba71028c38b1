import type { Side } from '../core/types.ts';
import type { ExchangePort } from '../strategy/exchange-port.ts';
import type { BookUpdate } from '../wire/market-data.ts';
import type { Strategy } from '../strategy/strategy.ts';
import type { OrderFeed } from '../wire/order.ts';
import type { OwnOrderNote, TickStrategy, TopTicks } from '../strategy/tick-feeds.ts';
import { nowSec, secToNs } from './clock-helpers.ts';
import { withDefaults } from '../core/objects.ts';
import { marketOf, roundLots, type AgentEnvironment, type AgentMarket } from './environment.ts';
import { OwnOrders, type FeedOutcome } from './own-orders.ts';
import { BookSampler } from './book-sampler.ts';
import type { Top } from './top-of-book.ts';

/** How a noise trader behaves. Times are seconds. */
export interface NoiseTraderParams {
  /** Poisson arrival rate of orders per second, per symbol traded. */
  ratePerSec: number;
  /** Probability that an order buys (0.5 = no bias; above it, persistent buying pressure). */
  buyProbability: number;
  /** Probability that an order is marketable (IOC through the touch); otherwise passive GTC. */
  marketableProbability: number;
  /** Pareto sizes: scale (smallest size), lots … */
  sizeMinLots: number;
  /** … and tail exponent (smaller = heavier tail; 1.5 is typical of trade sizes). */
  sizeAlpha: number;
  /** Sizes are capped here. */
  sizeMaxLots: number;
  /** A marketable order's limit is this many ticks through the opposite touch. */
  slippageTicks: number;
  /** Passive orders rest this many ticks behind the own-side touch on average (exponential). */
  passiveOffsetMeanTicks: number;
  /** Mean lifetime of a passive order before it is canceled (exponential). */
  passiveLifetimeSec: number;
  /** After an EXCHANGE_CLOSED reject, pause this long. */
  closedBackoffSec: number;
}

/** Defaults: half a trade idea per second, half of them marketable, Pareto(1, 1.5) sizes. */
export const NOISE_TRADER_DEFAULTS: NoiseTraderParams = {
  ratePerSec: 0.5,
  buyProbability: 0.5,
  marketableProbability: 0.5,
  sizeMinLots: 1,
  sizeAlpha: 1.5,
  sizeMaxLots: 50,
  slippageTicks: 2,
  passiveOffsetMeanTicks: 4,
  passiveLifetimeSec: 60,
  closedBackoffSec: 60,
};

/**
 * Uninformed order flow: orders arrive as a Poisson process per symbol with Pareto
 * (heavy-tailed) sizes and random sides; some take liquidity with an IOC through the touch,
 * the rest rest passively behind the touch for an exponential lifetime. Before each order it
 * looks at the LEVEL_1 book (subscribe, first update, unsubscribe), as a person glancing at a
 * screen would.
 */
export class NoiseTrader implements Strategy, TickStrategy {
  private readonly p: NoiseTraderParams;
  private orders!: OwnOrders;
  private books!: BookSampler;
  private port!: ExchangePort;
  private readonly closedUntilSec = new Map<string, number>();

  constructor(
    private readonly env: AgentEnvironment,
    params: Partial<NoiseTraderParams> = {},
  ) {
    this.p = withDefaults(NOISE_TRADER_DEFAULTS, params);
  }

  onStart(port: ExchangePort): void {
    this.port = port;
    const tickOf = (symbol: string) => marketOf(this.env, symbol, 'noise trader').tick;
    this.orders = new OwnOrders(port, tickOf);
    this.books = new BookSampler(port, tickOf);
    for (const m of this.env.markets) this.scheduleArrival(m);
  }

  onStop(): void {
    this.orders.cancelAllIn();
  }

  onBook(book: BookUpdate): void {
    this.books.onBook(book);
  }

  onTop(top: TopTicks): void {
    this.books.onTop(top);
  }

  onOrderFeed(feed: OrderFeed): void {
    this.onOutcome(this.orders.apply(feed));
  }

  onOwnOrder(note: OwnOrderNote): void {
    this.onOutcome(this.orders.applyNote(note));
  }

  private onOutcome(outcome: FeedOutcome): void {
    if (outcome.kind === 'accepted' && outcome.order.tif === 'GTC' && outcome.order.remainingLots > 0) {
      const order = outcome.order;
      this.port.setTimer(secToNs(this.env.rng.exponential(this.p.passiveLifetimeSec)), () => this.orders.cancel(order));
    } else if (outcome.kind === 'rejected' && outcome.reason === 'EXCHANGE_CLOSED') {
      this.closedUntilSec.set(outcome.symbol, nowSec(this.port) + this.p.closedBackoffSec);
    }
  }

  private scheduleArrival(market: AgentMarket): void {
    const waitSec = this.env.rng.exponential(1 / this.p.ratePerSec);
    this.port.setTimer(secToNs(waitSec), () => {
      if (nowSec(this.port) >= (this.closedUntilSec.get(market.symbol) ?? 0)) this.books.sample(market.symbol, (top) => this.trade(market, top));
      this.scheduleArrival(market);
    });
  }

  /** One trade idea, priced off the top of book just looked at. */
  private trade(market: AgentMarket, top: Top): void {
    const symbol = market.symbol;
    const rng = this.env.rng;
    const p = this.p;
    const side: Side = rng.chance(p.buyProbability) ? 'B' : 'S';
    const qty = roundLots(Math.min(p.sizeMaxLots, Math.floor(rng.pareto(p.sizeMinLots, p.sizeAlpha))), market.minQtyLots);
    const own = side === 'B' ? top.bidTicks : top.askTicks;
    const opposite = side === 'B' ? top.askTicks : top.bidTicks;
    if (rng.chance(p.marketableProbability)) {
      if (opposite === undefined) return;
      const limit = side === 'B' ? opposite + p.slippageTicks : opposite - p.slippageTicks;
      this.orders.place(symbol, side, limit, qty, 'IOC');
      return;
    }
    const anchor = own ?? (opposite === undefined ? undefined : side === 'B' ? opposite - 1 : opposite + 1);
    if (anchor === undefined) return;
    const offset = Math.floor(rng.exponential(p.passiveOffsetMeanTicks));
    const price = side === 'B' ? anchor - offset : anchor + offset;
    this.orders.place(symbol, side, price, qty, 'GTC', true);
  }
}
