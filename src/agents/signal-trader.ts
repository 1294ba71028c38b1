import type { TickSize } from '../core/price.ts';
import type { ExchangePort } from '../strategy/exchange-port.ts';
import type { BookUpdate } from '../wire/market-data.ts';
import type { TopTicks } from '../strategy/tick-feeds.ts';
import { nowSec, secToNs } from './clock-helpers.ts';
import { withDefaults } from '../core/objects.ts';
import { roundLots, type AgentEnvironment, type AgentMarket } from './environment.ts';
import { OneOrderTrader } from './one-order-trader.ts';
import { BookSampler } from './book-sampler.ts';
import type { Top } from './top-of-book.ts';

/** What every signal-driven trader shares. Times are seconds. */
export interface SignalTraderParams {
  /** How often the signal is sampled (± 20 % jitter). */
  sampleSec: number;
  /** Lots per trade (each sample moves the position at most this far toward its target). */
  sizeLots: number;
  /** The position target when the signal fires, lots. */
  maxPositionLots: number;
  /** An order's limit is this many ticks through the opposite touch (IOC). */
  slippageTicks: number;
  /** After an EXCHANGE_CLOSED reject, pause this long. */
  closedBackoffSec: number;
}

/** Defaults shared by momentum and mean-reversion traders. */
export const SIGNAL_TRADER_DEFAULTS: SignalTraderParams = {
  sampleSec: 5,
  sizeLots: 1,
  maxPositionLots: 10,
  slippageTicks: 1,
  closedBackoffSec: 60,
};

/**
 * A trader that samples the LEVEL_1 mid price on a timer (looking at the book only then), turns it into a target position
 * (`target`), and walks its position toward the target with small IOC orders through the
 * touch, one order at a time per symbol.
 */
export abstract class SignalTrader extends OneOrderTrader {
  protected readonly base: SignalTraderParams;
  private books!: BookSampler;

  constructor(env: AgentEnvironment, params: Partial<SignalTraderParams>) {
    const base = withDefaults(SIGNAL_TRADER_DEFAULTS, params);
    super(env, 'signal trader', base.closedBackoffSec);
    this.base = base;
  }

  /**
   * The position (lots, long > 0) the trader wants in `symbol` after seeing `midTicks` at
   * `tSec`, or undefined to keep the current one.
   */
  protected abstract target(symbol: string, midTicks: number, tSec: number): number | undefined;

  protected begin(port: ExchangePort, tickOf: (symbol: string) => TickSize): void {
    this.books = new BookSampler(port, tickOf);
    for (const m of this.env.markets) this.scheduleSample(m);
  }

  onBook(book: BookUpdate): void {
    this.books.onBook(book);
  }

  onTop(top: TopTicks): void {
    this.books.onTop(top);
  }

  private scheduleSample(market: AgentMarket): void {
    const waitSec = this.base.sampleSec * (0.8 + 0.4 * this.env.rng.next());
    this.port.setTimer(secToNs(waitSec), () => {
      this.books.sample(market.symbol, (top) => this.sample(market, top));
      this.scheduleSample(market);
    });
  }

  private sample(market: AgentMarket, top: Top): void {
    const symbol = market.symbol;
    if (top.bidTicks === undefined || top.askTicks === undefined) return;
    const mid = (top.bidTicks + top.askTicks) / 2;
    const t = nowSec(this.port);
    const wanted = this.target(symbol, mid, t);
    if (wanted === undefined || this.turns.busy(symbol) || this.turns.paused(symbol, t)) return;
    const gap = wanted - this.orders.position(symbol);
    if (Math.abs(gap) < market.minQtyLots) return;
    const side = gap > 0 ? 'B' : 'S';
    const touch = side === 'B' ? top.askTicks : top.bidTicks;
    if (touch === undefined) return;
    const limit = side === 'B' ? touch + this.base.slippageTicks : touch - this.base.slippageTicks;
    this.turns.sent(symbol);
    this.orders.place(symbol, side, limit, roundLots(Math.min(this.base.sizeLots, Math.abs(gap)), market.minQtyLots), 'IOC');
  }
}
