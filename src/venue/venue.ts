import type { BigRational } from '../market/rational.ts';
import type { SimClock } from '../clock/sim-clock.ts';
import type { Money } from '../core/money.ts';
import type { InstrumentState, Side, TimeInForce } from '../core/types.ts';
import { Account } from './account.ts';
import type { VenueListener } from './feeds.ts';
import { ExternalLiquidity } from './external-liquidity.ts';
import type { Market } from './market.ts';
import type { Order } from './order.ts';
import { NO_SLOT } from './order-store.ts';
import { OrderFlow } from './order-flow.ts';
import { Sessions } from './sessions.ts';
import { Settlement } from './settlement.ts';
import { VenueState } from './venue-state.ts';
import { VenueReads } from './venue-reads.ts';
import { listMarkets, startProcesses, type VenueConfig } from './venue-setup.ts';
import { openSlotsOf } from './order-scans.ts';
import { USER_CANCEL_TEXT } from './order-event-rows.ts';

export { VenueQueryError } from './venue-reads.ts';

export type { VenueConfig } from './venue-setup.ts';

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
export class Venue extends VenueReads {
  private readonly settlement: Settlement;
  private readonly sessions: Sessions;
  /** Replayed (recorded) liquidity in the books: no account, see external-liquidity.ts. */
  readonly external: ExternalLiquidity;
  private started = false;

  constructor(
    clock: SimClock,
    private readonly config: VenueConfig,
  ) {
    const s = new VenueState(clock);
    listMarkets(s, config.instruments);
    super(clock, s, new OrderFlow(s));
    this.settlement = new Settlement(this.s, this.flow);
    this.sessions = new Sessions(this.s, this.flow);
    this.external = new ExternalLiquidity(this.flow);
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
    startProcesses(this.s, this.config, this.sessions, this.settlement);
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
    return this.s.exclusive(() => this.viewAndRelease(this.flow.submitTicks(account, market, side, priceTicks, qtyLots, tif, postOnly)));
  }

  /**
   * `placeOrderTicks` for callers that keep only the engine id (the order's number, as the
   * book knows it): no order object is made. Cancel it with `cancelOrderSeq`; `openOrder`
   * and `orderIdOf` give its view and wire id while it is open.
   */
  placeOrderSeq(account: Account, market: Market, side: Side, priceTicks: number, qtyLots: number, tif: TimeInForce = 'GTC', postOnly = false): number {
    this.s.enter();
    try {
      const slot = this.flow.submitTicks(account, market, side, priceTicks, qtyLots, tif, postOnly);
      const seq = this.s.orders.seq(slot);
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

  /** Cancels every open order of the account, oldest first. */
  cancelAll(account: Account): { successful: string[]; failed: string[] } {
    return this.s.exclusive(() => {
      const successful: string[] = [];
      for (const slot of openSlotsOf(this.s.orders, account.id)) {
        successful.push(this.s.orderId(slot));
        this.flow.cancelResting(slot, 'USER_REQUESTED', USER_CANCEL_TEXT);
      }
      return { successful, failed: [] };
    });
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

  /** The caller's view of a submitted order, then its slot released if the order ended. */
  private viewAndRelease(slot: number): Order {
    const view = this.s.view(slot);
    this.flow.release(slot);
    return view;
  }
}

/** Minimal form of a decimal text that matched ^\d+\.?\d*$ ("007.50" → "7.5"). */
function minimalDecimal(text: string): string {
  let [int = '0', frac = ''] = text.split('.');
  int = int.replace(/^0+(?=\d)/, '');
  frac = frac.replace(/0+$/, '');
  return frac === '' ? int : `${int}.${frac}`;
}
