import type { BigRational } from '../market/rational.ts';
import type { SimClock } from '../clock/sim-clock.ts';
import type { Money } from '../core/money.ts';
import type { InstrumentState, Side, TimeInForce, TimeNs } from '../core/types.ts';
import type { ApiRiskSnapshot, PositionRiskSnapshot } from '../wire/risk.ts';
import type { CandleHistory, FundingRateRecord, MarkPriceRecord } from '../wire/records.ts';
import { Account } from './account.ts';
import type { VenueListener } from './feeds.ts';
import { resolveInstrument, type InstrumentConfig } from './instrument.ts';
import { ExternalLiquidity } from './external-liquidity.ts';
import { Market } from './market.ts';
import type { Order } from './order.ts';
import { F_SEQ, NO_SLOT } from './order-store.ts';
import { OrderFlow, type OrderTicket } from './order-flow.ts';
import { apiRiskSnapshot, positionRiskSnapshot } from './risk-view.ts';
import { Sessions } from './sessions.ts';
import { Settlement } from './settlement.ts';
import { VenueState } from './venue-state.ts';
import { candlesOf, fundingRatesOf, moneyTotalsOf, mtmPricesOf, stateHashOf } from './venue-reads.ts';

export { VenueQueryError } from './venue-reads.ts';

const NS_PER_S = 1_000_000_000n;

export interface VenueConfig {
  instruments: InstrumentConfig[];
  /** Cadence of mark-to-market records, seconds of sim time (default 60). */
  markRecordIntervalSec?: number;
  /** Cadence of the liquidation check, seconds of sim time (default 1). */
  liquidationCheckIntervalSec?: number;
}

/** A new order as the interface document's insert_order carries it (after schema checks). */
export interface OrderRequest {
  symbol: string;
  /** Decimal text, pattern ^\d+\.?\d*$. */
  price: string;
  quantity: number;
  side: Side;
  timeInForce: TimeInForce;
  postOnly: boolean;
}

/**
 * The simulated exchange, with no I/O: instruments, accounts, order entry and matching,
 * feeds, risk, mark prices, funding, liquidations, candles and stats. The clock drives it;
 * everything it announces goes to listeners (`subscribe`).
 */
export class Venue {
  private readonly s: VenueState;
  private readonly flow: OrderFlow;
  private readonly settlement: Settlement;
  private readonly sessions: Sessions;
  /** Replayed (recorded) liquidity in the books: no account, see external-liquidity.ts. */
  readonly external: ExternalLiquidity;
  private started = false;

  constructor(
    readonly clock: SimClock,
    private readonly config: VenueConfig,
  ) {
    this.s = new VenueState(clock);
    for (const [i, instConfig] of config.instruments.entries()) {
      const instrument = resolveInstrument(instConfig);
      if (this.s.marketBySymbol.has(instrument.symbol)) throw new RangeError(`instrument ${instrument.symbol} is listed twice`);
      const market = new Market(i, instrument, clock.nowSec, clock.nowNanos);
      // The mark, band and averages change only when the mark or index moves: the command saves
      // the market's state then, not on every order (see `OrderFlow.afterBookChange`).
      market.beforeAveragesChange = () => {
        this.s.log.touchMarket(market);
        this.s.log.touchAverages(market);
      };
      this.s.markets.push(market);
      this.s.marketBySymbol.set(instrument.symbol, market);
    }
    this.flow = new OrderFlow(this.s);
    this.settlement = new Settlement(this.s, this.flow);
    this.sessions = new Sessions(this.s, this.flow);
    this.external = new ExternalLiquidity(this.s, this.flow);
  }

  /** Markets in listing order. */
  get markets(): readonly Market[] {
    return this.s.markets;
  }

  market(symbol: string): Market | undefined {
    return this.s.marketBySymbol.get(symbol);
  }

  get accounts(): readonly Account[] {
    return this.s.accounts;
  }

  account(username: string): Account | undefined {
    return this.s.account(username);
  }

  /** Σ fees charged by the venue (for conservation checks). */
  get feesCollected(): Money {
    return this.s.feesCollected;
  }

  get liquidationCount(): number {
    return this.s.liquidations;
  }

  /** Registers a listener; returns the function that removes it. */
  subscribe(listener: VenueListener): () => void {
    this.s.listeners.push(listener);
    this.s.listenersChanged();
    return () => {
      const i = this.s.listeners.indexOf(listener);
      if (i >= 0) this.s.listeners.splice(i, 1);
      this.s.listenersChanged();
    };
  }

  /**
   * Starts the venue's own processes on the clock: instrument sessions, mark records,
   * funding, liquidation checks. Call once, before running the clock.
   */
  start(): void {
    if (this.started) throw new Error('venue already started');
    this.started = true;
    this.sessions.start();
    const markEvery = BigInt(this.config.markRecordIntervalSec ?? 60) * NS_PER_S;
    const liqEvery = BigInt(this.config.liquidationCheckIntervalSec ?? 1) * NS_PER_S;
    this.every(markEvery, () => this.settlement.recordMarks());
    this.every(liqEvery, () => this.settlement.checkLiquidations());
    // Stats sessions are UTC days: roll at every 00:00 UTC, not every 24 h from the start.
    const day = 86_400n * NS_PER_S;
    this.every(day, () => {
      for (const m of this.s.markets) {
        this.s.log.touchTrades(m);
        m.stats.rollTo(this.clock.nowSec);
      }
    }, (this.clock.nowNs / day + 1n) * day);
    for (const market of this.s.markets) this.settlement.scheduleFunding(market);
  }

  /** Opens an account. Usernames are unique. */
  addUser(username: string, cash: Money): Account {
    if (this.s.accountByName.has(username)) throw new RangeError(`user ${username} already exists`);
    const account = new Account(this.s.accounts.length, username, cash, this.s.markets);
    this.s.accounts.push(account);
    this.s.accountByName.set(username, account);
    return account;
  }

  /**
   * Inserts an order for `account`. The returned order carries its id; acceptance or rejection
   * arrives as feeds (`n` / `j`), then any fills.
   */
  placeOrder(account: Account, req: OrderRequest): Order {
    return this.s.exclusive(() => this.viewAndRelease(this.submitRequest(account, req)));
  }

  /**
   * `placeOrder` for callers that keep only the wire id (the in-process port): the same
   * command, without the order view `placeOrder` makes and the store copies when the order ends.
   */
  placeOrderId(account: Account, req: OrderRequest): string {
    return this.s.exclusive(() => {
      const slot = this.submitRequest(account, req);
      const id = this.s.orderId(slot);
      this.flow.release(slot);
      return id;
    });
  }

  /** Fast path for in-process actors that already work in ticks. Same rules and feeds. */
  placeOrderTicks(account: Account, market: Market, side: Side, priceTicks: number, qtyLots: number, tif: TimeInForce = 'GTC', postOnly = false): Order {
    return this.s.exclusive(() => this.viewAndRelease(this.submitTicks(account, market, side, priceTicks, qtyLots, tif, postOnly)));
  }

  /**
   * `placeOrderTicks` for callers that keep only the engine id (the order's number, as the
   * book knows it): no order object is made. Cancel it with `cancelOrderSeq`; `openOrder`
   * and `orderIdOf` give its view and wire id while it is open.
   */
  placeOrderSeq(account: Account, market: Market, side: Side, priceTicks: number, qtyLots: number, tif: TimeInForce = 'GTC', postOnly = false): number {
    this.s.enter();
    try {
      const slot = this.submitTicks(account, market, side, priceTicks, qtyLots, tif, postOnly);
      const seq = this.s.orders.field(slot, F_SEQ);
      this.flow.release(slot);
      return seq;
    } catch (e) {
      throw this.s.fail(e);
    } finally {
      this.s.leave();
    }
  }

  /** Cancels an own open order; the outcome is a `c` or `e` feed. Returns whether it was canceled. */
  cancelOrder(account: Account, orderId: string): boolean {
    return this.s.exclusive(() => this.flow.cancel(account, orderId));
  }

  /**
   * `cancelOrder` by engine id (see `placeOrderSeq`). An engine id is not a wire id: when no
   * open order of the account has it, the `e` feed names it by its decimal text — or by
   * `orderId`, the order's wire id where the caller has it (then exactly `cancelOrder(account,
   * orderId)`, without parsing the id).
   */
  cancelOrderSeq(account: Account, seq: number, orderId?: string): boolean {
    this.s.enter();
    try {
      return this.flow.cancelSeq(account, seq, orderId);
    } catch (e) {
      throw this.s.fail(e);
    } finally {
      this.s.leave();
    }
  }

  /** Wire id of an open order by engine id, or undefined. */
  orderIdOf(seq: number): string | undefined {
    const slot = this.s.orders.slotOf(seq);
    return slot === NO_SLOT ? undefined : this.s.orderId(slot);
  }

  /** Cancels every open order of the account, oldest first. */
  cancelAll(account: Account): { successful: string[]; failed: string[] } {
    return this.s.exclusive(() => {
      const successful: string[] = [];
      for (const slot of account.openSlots(this.s.orders)) {
        successful.push(this.s.orderId(slot));
        this.flow.cancelResting(slot, 'USER_REQUESTED', 'canceled by user');
      }
      return { successful, failed: [] };
    });
  }

  /** Open orders of the account, oldest first. */
  openOrders(account: Account): Order[] {
    return account.openSlots(this.s.orders).map((slot) => this.s.view(slot));
  }

  /** An open order by wire id, if it belongs to `account`. */
  findOpenOrder(account: Account, orderId: string): Order | undefined {
    const order = this.openOrder(orderId);
    return order?.userId === account.id ? order : undefined;
  }

  /** Sets the index price of a market (from an index process or recorded data). */
  setIndexPrice(market: Market, indexTicks: number): void {
    if (!Number.isSafeInteger(indexTicks) || indexTicks <= 0) throw new RangeError(`index price must be a positive integer number of ticks, got ${indexTicks}`);
    this.s.exclusive(() => {
      this.s.log.touchMarket(market);
      market.setIndex(this.clock.nowSec, this.clock.nowNanos, indexTicks);
      market.refreshMark(this.clock.nowSec, this.clock.nowNanos);
      this.s.announce('indexChanged', market);
    });
  }

  /**
   * Sets (or with undefined clears) a recorded mark price and funding rate (replayed
   * derivative ticker): the mark replaces the index/touch median and funding settles at the
   * recorded rate, on the instrument's funding schedule.
   */
  setRecordedMarkAndFunding(market: Market, markTicks: number | undefined, fundingRate: BigRational | undefined): void {
    if (markTicks !== undefined && (!Number.isSafeInteger(markTicks) || markTicks <= 0)) throw new RangeError(`mark price must be a positive integer number of ticks, got ${markTicks}`);
    this.s.exclusive(() => {
      this.s.log.touchMarket(market);
      market.recordedMarkTicks = markTicks;
      market.recordedFundingRate = fundingRate;
      market.refreshMark(this.clock.nowSec, this.clock.nowNanos);
      this.s.announce('indexChanged', market);
    });
  }

  /** Runs `fn` with the venue's re-entrancy guard (for in-process drivers such as the replay). */
  exclusive<T>(fn: () => T): T {
    return this.s.exclusive(fn);
  }

  /** Any user's open order by wire id (replay queue models track orders of every account). */
  openOrder(orderId: string): Order | undefined {
    const slot = this.flow.findOpen(orderId);
    return slot === NO_SLOT ? undefined : this.s.view(slot);
  }

  /** Runs the liquidation check now (it also runs on its own cadence). */
  checkLiquidations(): void {
    this.s.exclusive(() => this.settlement.checkLiquidations());
  }

  /** Settles funding of a market now, outside its schedule (admin and tests). */
  settleFundingNow(market: Market): void {
    this.s.exclusive(() => this.settlement.settleFunding(market));
  }

  // --- administrator actions -------------------------------------------------------------

  /** Cancels any user's open order (`xr: EXCHANGE_OPTION`). False if no such open order. */
  adminCancelOrder(orderId: string): boolean {
    return this.s.exclusive(() => {
      const slot = this.flow.findOpen(orderId);
      if (slot === NO_SLOT) return false;
      this.flow.cancelResting(slot, 'EXCHANGE_OPTION', 'canceled by the exchange');
      return true;
    });
  }

  /** Changes an instrument's state now. */
  setInstrumentState(market: Market, state: InstrumentState): void {
    this.s.exclusive(() => this.sessions.setState(market, state));
  }

  /** Credits (positive) or debits (negative) cash. */
  adjustCash(account: Account, amount: Money): void {
    account.cash += amount;
    account.adjustments += amount;
  }

  // --- history queries (venue-reads.ts) ---------------------------------------------------

  mtmPrices(symbol: string, startNs: TimeNs, endNs: TimeNs): MarkPriceRecord[] {
    return mtmPricesOf(this.s, symbol, startNs, endNs);
  }

  fundingRates(symbol: string, startNs: TimeNs, endNs: TimeNs): FundingRateRecord[] {
    return fundingRatesOf(this.s, symbol, startNs, endNs);
  }

  /** Candles of `market` at `interval` overlapping [start, end]; empty intervals are omitted. */
  candles(marketSymbol: string, interval: string, startNs: TimeNs, endNs: TimeNs): CandleHistory {
    return candlesOf(this.s, marketSymbol, interval, startNs, endNs);
  }

  /** The user-based risk snapshot (positions, margins, equity) at the current marks. */
  riskSnapshot(account: Account): PositionRiskSnapshot {
    return positionRiskSnapshot(account, this.clock.nowSec, this.clock.nowNanos);
  }

  /** The token-based risk snapshot (`risk_snapshot` with `per_symbol`). */
  apiRiskSnapshot(account: Account): ApiRiskSnapshot {
    return apiRiskSnapshot(account, this.openOrders(account), this.clock.nowSec, this.clock.nowNanos);
  }

  /**
   * Hash of the whole venue state: clock, markets (state, index, mark, book, histories),
   * accounts (cash, positions, open orders), fee and liquidation totals. Two runs with the
   * same scenario and seed give the same hash.
   */
  stateHash(): string {
    return stateHashOf(this.s);
  }

  /** Total of everything money-like, for conservation checks and summaries. */
  moneyTotals(): { cash: string; fees: string; unrealized: string } {
    return moneyTotalsOf(this.s);
  }

  /** Submits a wire-shaped request (decimal price): the order's slot, still held by the caller. */
  private submitRequest(account: Account, req: OrderRequest): number {
    const market = this.s.marketBySymbol.get(req.symbol);
    const ticks = market?.instrument.tick.toTicks(req.price);
    return this.flow.submit(account, market, req.symbol, {
      side: req.side,
      priceText: ticks === undefined ? minimalDecimal(req.price) : market!.instrument.tick.toPrice(ticks),
      priceTicks: ticks ?? NaN,
      qtyLots: req.quantity,
      tif: req.timeInForce,
      postOnly: req.postOnly,
    });
  }

  private submitTicks(account: Account, market: Market, side: Side, priceTicks: number, qtyLots: number, tif: TimeInForce, postOnly: boolean): number {
    // The text of an on-grid price is made from its ticks when read; `toPrice` also refuses
    // ticks that are no safe integer, as it did when every order carried its text.
    const priceText = Number.isSafeInteger(priceTicks) ? '' : market.instrument.tick.toPrice(priceTicks);
    // One ticket, refilled: `submit` reads it and keeps nothing (no object per order).
    const t = this.ticket;
    t.side = side;
    t.priceText = priceText;
    t.priceTicks = priceTicks;
    t.qtyLots = qtyLots;
    t.tif = tif;
    t.postOnly = postOnly;
    return this.flow.submit(account, market, market.symbol, t);
  }

  private readonly ticket: OrderTicket = { side: 'B', priceText: '', priceTicks: 0, qtyLots: 0, tif: 'GTC', postOnly: false };

  /** The caller's view of a submitted order, then its slot released if the order ended. */
  private viewAndRelease(slot: number): Order {
    const view = this.s.view(slot);
    this.flow.release(slot);
    return view;
  }

  /** Runs `fn` every `intervalNs`, first at `firstNs` (default: one interval from now). */
  private every(intervalNs: bigint, fn: () => void, firstNs = this.clock.nowNs + intervalNs): void {
    const tick = () => {
      this.s.exclusive(fn);
      this.clock.scheduleAt(this.clock.nowNs + intervalNs, tick);
    };
    this.clock.scheduleAt(firstNs, tick);
  }
}

/** Minimal form of a decimal text that matched ^\d+\.?\d*$ ("007.50" → "7.5"). */
function minimalDecimal(text: string): string {
  let [int = '0', frac = ''] = text.split('.');
  int = int.replace(/^0+(?=\d)/, '');
  frac = frac.replace(/0+$/, '');
  return frac === '' ? int : `${int}.${frac}`;
}
