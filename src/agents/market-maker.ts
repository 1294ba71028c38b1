import type { ExchangePort } from '../strategy/exchange-port.ts';
import type { BookUpdate } from '../wire/market-data.ts';
import type { Strategy } from '../strategy/strategy.ts';
import type { OrderFeed } from '../wire/order.ts';
import type { OwnOrderNote, TickStrategy, TopTicks } from '../strategy/tick-feeds.ts';
import { nowSec, TimerSlots } from './clock-helpers.ts';
import { withDefaults } from '../core/objects.ts';
import { roundLots, type AgentEnvironment, type AgentMarket } from './environment.ts';
import type { MarketConditions } from './market-conditions.ts';
import { OwnOrders, type FeedOutcome } from './own-orders.ts';
import { QuoteLadder } from './quote-ladder.ts';
import { TopOfBook } from './top-of-book.ts';
import { Ewma } from './ewma.ts';
import { MARKET_MAKER_DEFAULTS, type MarketMakerParams } from './market-maker-params.ts';
import { VolatilityTracker } from './volatility-tracker.ts';

export { MARKET_MAKER_DEFAULTS, type MarketMakerParams } from './market-maker-params.ts';

interface SymbolState {
  market: AgentMarket;
  vol: VolatilityTracker;
  midAverage: Ewma;
  pulledUntilSec: number;
  closedUntilSec: number;
  /** Consecutive EXCHANGE_CLOSED backoffs (reset when an order is accepted). */
  closedStreak: number;
  lastQuoteSec: number;
  /** Its timers' keys, made once (a key built per requote was a string to make and hash each time). */
  keys: { quote: string; pull: string; closed: string };
  /** `requote` of this symbol, made once: timers take it (a closure per requote before). */
  requote: () => void;
}

/** Liquidity without market conditions. */
const NORMAL_LIQUIDITY = Object.freeze({ spreadFactor: 1, sizeFactor: 1 });

/**
 * A market maker: quotes `levels` price levels on each side of a fair value, skews the fair
 * value against its inventory, widens with recent volatility, pulls its quotes after an
 * index shock or while a liquidity-withdrawal shock lasts, and requotes on index updates and
 * its own fills (at most every `minRequoteMs`). Requotes are incremental: resting orders stay
 * while they still sit in one of the ladder's level buckets, so a one-tick move costs about
 * one cancel and one insert per side rather than a full refresh.
 */
export class MarketMaker implements Strategy, TickStrategy {
  private readonly p: MarketMakerParams;
  private readonly states = new Map<string, SymbolState>();
  private orders!: OwnOrders;
  private top!: TopOfBook;
  private timers!: TimerSlots;
  private port!: ExchangePort;
  /** Both sides' level buckets and the self-cross guard's extremes, sorted in one pass a requote. */
  private ladder!: QuoteLadder;

  constructor(
    private readonly env: AgentEnvironment,
    params: Partial<MarketMakerParams> = {},
    private readonly conditions?: MarketConditions,
  ) {
    this.p = withDefaults(MARKET_MAKER_DEFAULTS, params);
    if (!Number.isInteger(this.p.levels) || this.p.levels < 1 || this.p.levels > 20) throw new RangeError(`levels must be an integer from 1 to 20, got ${this.p.levels}`);
    for (const market of env.markets) {
      this.states.set(market.symbol, {
        market,
        vol: new VolatilityTracker(this.p.volShortSec, this.p.volLongSec),
        midAverage: new Ewma(this.p.midSmoothingSec),
        pulledUntilSec: 0,
        closedUntilSec: 0,
        closedStreak: 0,
        lastQuoteSec: -Infinity,
        keys: { quote: `quote:${market.symbol}`, pull: `pull:${market.symbol}`, closed: `closed:${market.symbol}` },
        requote: () => this.requote(market.symbol),
      });
    }
  }

  onStart(port: ExchangePort): void {
    this.port = port;
    const tickOf = (symbol: string) => this.state(symbol).market.tick;
    this.orders = new OwnOrders(port, tickOf);
    this.ladder = new QuoteLadder(this.orders);
    this.top = new TopOfBook(tickOf);
    this.timers = new TimerSlots(port);
    this.env.index.onUpdate((symbol, price) => this.onIndex(symbol, price));
    this.conditions?.onChange((symbol) => this.states.has(symbol) && this.requote(symbol));
    for (const symbol of this.states.keys()) {
      if (this.p.anchor === 'mid') void port.subscribe(symbol, 'LEVEL_1').catch(() => undefined);
      this.requote(symbol);
    }
  }

  onStop(): void {
    this.orders.cancelAllIn();
  }

  onBook(book: BookUpdate): void {
    if (this.states.has(book.s)) this.onTop(this.top.update(book));
  }

  onTop(top: TopTicks): void {
    const s = this.states.get(top.s);
    if (s === undefined) return;
    this.top.set(top);
    if (this.p.anchor !== 'mid') return;
    const mid = this.top.midTicks(top.s);
    if (mid !== undefined) s.midAverage.update(nowSec(this.port), mid);
    this.requote(top.s);
  }

  onOrderFeed(feed: OrderFeed): void {
    this.onOutcome(this.orders.apply(feed));
  }

  onOwnOrder(note: OwnOrderNote): void {
    this.onOutcome(this.orders.applyNote(note));
  }

  private onOutcome(outcome: FeedOutcome): void {
    if (outcome.kind === 'fill') this.requote(outcome.symbol);
    else if (outcome.kind === 'accepted') this.state(outcome.order.symbol).closedStreak = 0;
    else if (outcome.kind === 'rejected' && outcome.reason === 'EXCHANGE_CLOSED') {
      const s = this.state(outcome.symbol);
      const now = nowSec(this.port);
      if (now < s.closedUntilSec) return; // the rest of a batch sent before we knew
      const waitSec = this.p.closedBackoffSec * 2 ** Math.min(4, s.closedStreak++);
      s.closedUntilSec = now + waitSec;
      this.timers.schedule(s.keys.closed, waitSec, s.requote); // not the outcome's symbol later: the object is reused
    } else if (outcome.kind === 'ended' && outcome.reason === 'done-for-day') {
      this.requote(outcome.symbol);
    }
  }

  /** Net inventory in `symbol`, lots (for tests and reports). */
  inventory(symbol: string): number {
    return this.orders.position(symbol);
  }

  private onIndex(symbol: string, price: number): void {
    const s = this.states.get(symbol);
    if (s === undefined) return;
    const now = nowSec(this.port);
    if (s.vol.update(now, price, this.p.shockSigmas)) {
      s.pulledUntilSec = now + this.p.pullSec;
      this.orders.cancelAllIn(symbol);
      this.timers.schedule(s.keys.pull, this.p.pullSec, s.requote);
      return;
    }
    this.requote(symbol);
  }

  private requote(symbol: string): void {
    const s = this.state(symbol);
    const now = nowSec(this.port);
    if (now < s.closedUntilSec) return;
    const waitSec = s.lastQuoteSec + this.p.minRequoteMs / 1000 - now;
    if (waitSec > 0) {
      this.timers.schedule(s.keys.quote, waitSec, s.requote);
      return;
    }
    const liquidity = this.conditions?.liquidity(symbol) ?? NORMAL_LIQUIDITY;
    if (now < s.pulledUntilSec || liquidity.sizeFactor === 0) {
      this.orders.cancelAllIn(symbol);
      return;
    }
    const fair = this.fairTicks(symbol);
    if (fair === undefined) return;
    s.lastQuoteSec = now;
    const p = this.p;
    const inventory = this.orders.position(symbol);
    const skewed = fair - (inventory / p.maxInventoryLots) * p.skewTicks;
    const widen = Math.min(p.maxWiden, Math.max(1, s.vol.ratio())) * liquidity.spreadFactor;
    const half = p.halfSpreadTicks * widen;
    const spacing = Math.max(1, p.levelSpacingTicks * widen);
    const bid0 = Math.floor(skewed - half);
    const ask0 = Math.max(bid0 + 1, Math.ceil(skewed + half));
    const hardLimit = 2 * p.maxInventoryLots;
    const ladder = this.ladder;
    ladder.sort(symbol, p.levels, bid0, ask0, spacing, inventory >= hardLimit, inventory <= -hardLimit);
    const { bidGaps, askGaps } = ladder;
    if (bidGaps === 0 && askGaps === 0) return;
    // Quote less on the side that would grow the inventory further (down to a quarter).
    const bidFactor = liquidity.sizeFactor * Math.max(0.25, Math.min(1, 1 - inventory / p.maxInventoryLots));
    const askFactor = liquidity.sizeFactor * Math.max(0.25, Math.min(1, 1 + inventory / p.maxInventoryLots));
    for (let i = 0; i < p.levels; i++) {
      if ((bidGaps & (1 << i)) !== 0) {
        const price = bid0 - Math.round(i * spacing);
        // Never cross our own remaining or in-flight quotes (that would be a self-trade).
        if (price < ladder.minOwnAsk) this.orders.place(symbol, 'B', price, this.levelSize(s.market, i, bidFactor), 'GTC');
      }
      if ((askGaps & (1 << i)) !== 0) {
        const price = ask0 + Math.round(i * spacing);
        if (price > ladder.maxOwnBid) this.orders.place(symbol, 'S', price, this.levelSize(s.market, i, askFactor), 'GTC');
      }
    }
  }

  /** Fair value in ticks (a float), or undefined before any price is known. */
  private fairTicks(symbol: string): number | undefined {
    const tick = this.state(symbol).market.tick;
    const index = this.env.index.indexPrice(symbol);
    const indexTicks = index === undefined ? undefined : index * tick.priceScale;
    if (this.p.anchor === 'index') return indexTicks;
    // Sample the mid now too: the book may sit still while the average has not caught up.
    const latest = this.top.midTicks(symbol);
    const average = this.state(symbol).midAverage;
    const mid = latest === undefined ? average.value : average.update(nowSec(this.port), latest);
    if (mid === undefined) return indexTicks;
    if (indexTicks === undefined) return mid;
    return this.p.indexWeight * indexTicks + (1 - this.p.indexWeight) * mid;
  }

  private levelSize(market: AgentMarket, level: number, factor: number): number {
    const p = this.p;
    const jitter = 1 + p.sizeJitter * (2 * this.env.rng.next() - 1);
    return roundLots(p.sizeLots * Math.pow(p.sizeGrowth, level) * jitter * factor, market.minQtyLots);
  }

  private state(symbol: string): SymbolState {
    const s = this.states.get(symbol);
    if (s === undefined) throw new RangeError(`market maker ${this.env.name} does not trade ${symbol}`);
    return s;
  }
}
