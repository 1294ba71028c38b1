import type { TickSize } from '../core/price.ts';
import type { Side } from '../core/types.ts';
import type { ExchangePort } from '../strategy/exchange-port.ts';
import type { BookUpdate } from '../wire/market-data.ts';
import type { TopTicks } from '../strategy/tick-feeds.ts';
import { nowSec } from './clock-helpers.ts';
import { withDefaults } from '../core/objects.ts';
import { roundLots, type AgentEnvironment, type AgentMarket, type IndexOracle } from './environment.ts';
import { OneOrderTrader } from './one-order-trader.ts';
import { TopOfBook } from './top-of-book.ts';

/** How an informed trader trades. */
export interface InformedTraderParams {
  /** How far ahead it sees the index, seconds (at most the simulation's look-ahead). */
  lookaheadSec: number;
  /** Buy (sell) when the ask (bid) is this many bps below (above) the future index. */
  thresholdBps: number;
  /** Close a position once the exit touch is within this many bps of the future index. */
  exitBps: number;
  /** Lots per order. */
  sizeLots: number;
  /** Position limit, lots. */
  maxPositionLots: number;
  /** Minimum time between two orders in a symbol, ms. */
  cooldownMs: number;
  /** After an EXCHANGE_CLOSED reject, pause this long (seconds). */
  closedBackoffSec: number;
}

/** Defaults: sees 2 s ahead, trades a 2 bps edge, exits within 0.5 bps. */
export const INFORMED_TRADER_DEFAULTS: InformedTraderParams = {
  lookaheadSec: 2,
  thresholdBps: 2,
  exitBps: 0.5,
  sizeLots: 2,
  maxPositionLots: 20,
  cooldownMs: 100,
  closedBackoffSec: 60,
};

/**
 * An arbitrageur with a head start: it sees the index `lookaheadSec` before the venue does
 * and takes any quote that is mispriced against that future index by more than
 * `thresholdBps` (IOC, limit at the edge), then closes the position once the book has caught
 * up. This keeps the perp, its mark and funding anchored to the index, and picks off makers'
 * stale quotes the way fast traders do.
 */
export class InformedTrader extends OneOrderTrader<AgentEnvironment & { index: IndexOracle }> {
  private readonly p: InformedTraderParams;
  private top!: TopOfBook;
  private readonly lastOrderSec = new Map<string, number>();

  constructor(env: AgentEnvironment & { index: IndexOracle }, params: Partial<InformedTraderParams> = {}) {
    const p = withDefaults(INFORMED_TRADER_DEFAULTS, params);
    super(env, 'informed trader', p.closedBackoffSec);
    this.p = p;
  }

  protected begin(port: ExchangePort, tickOf: (symbol: string) => TickSize): void {
    this.top = new TopOfBook(tickOf);
    this.env.index.onUpdate((symbol) => this.consider(symbol));
    for (const m of this.env.markets) void port.subscribe(m.symbol, 'LEVEL_1').catch(() => undefined);
  }

  onBook(book: BookUpdate): void {
    this.onTop(this.top.update(book));
  }

  onTop(top: TopTicks): void {
    this.top.set(top);
    this.consider(top.s);
  }

  private consider(symbol: string): void {
    const market = this.env.markets.find((m) => m.symbol === symbol);
    if (market === undefined || this.turns.busy(symbol)) return;
    const now = nowSec(this.port);
    if (this.turns.paused(symbol, now) || now - (this.lastOrderSec.get(symbol) ?? -Infinity) < this.p.cooldownMs / 1000) return;
    const future = this.env.index.peek(symbol, this.p.lookaheadSec);
    if (future === undefined) return;
    const fairTicks = future * market.tick.priceScale;
    const { bidTicks, askTicks } = this.top.get(symbol);
    const edge = this.p.thresholdBps * 1e-4;
    const exit = this.p.exitBps * 1e-4;
    const pos = this.orders.position(symbol);
    const max = this.p.maxPositionLots;
    if (askTicks !== undefined && askTicks < fairTicks * (1 - edge) && pos < max) {
      this.send(market, 'B', Math.floor(fairTicks * (1 - edge)), Math.min(this.p.sizeLots, max - pos), now);
    } else if (bidTicks !== undefined && bidTicks > fairTicks * (1 + edge) && pos > -max) {
      this.send(market, 'S', Math.ceil(fairTicks * (1 + edge)), Math.min(this.p.sizeLots, max + pos), now);
    } else if (pos > 0 && bidTicks !== undefined && bidTicks >= fairTicks * (1 - exit)) {
      this.send(market, 'S', bidTicks, Math.min(this.p.sizeLots, pos), now);
    } else if (pos < 0 && askTicks !== undefined && askTicks <= fairTicks * (1 + exit)) {
      this.send(market, 'B', askTicks, Math.min(this.p.sizeLots, -pos), now);
    }
  }

  private send(market: AgentMarket, side: Side, limitTicks: number, lots: number, now: number): void {
    if (lots <= 0) return;
    this.turns.sent(market.symbol);
    this.lastOrderSec.set(market.symbol, now);
    this.orders.place(market.symbol, side, limitTicks, roundLots(lots, market.minQtyLots), 'IOC');
  }
}
