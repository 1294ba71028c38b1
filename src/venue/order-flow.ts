import type { PlaceCommand, TradeEvent } from '../book/events.ts';
import { BookEvents, EV_CANCELED, EV_EXPIRED, EV_RESTED, EV_TRADE } from '../book/book-events.ts';
import type { CancelReason, Side, TimeInForce } from '../core/types.ts';
import type { Account } from './account.ts';
import type { Market } from './market.ts';
import type { Order } from './order.ts';
import {
  B_IOC, B_LIQUIDATION, B_OFF_GRID, B_POST_ONLY, B_SELL, F_FILLED, F_PRICE, F_QTY, F_SEQ, F_USER, NO_SLOT,
  ST_CANCELED, ST_DONE_FOR_DAY, ST_EXPIRED, ST_NEW, ST_REJECTED,
} from './order-store.ts';
import type { VenueState } from './venue-state.ts';
import { checkOrder, engineIdOf, type OrderTicket } from './order-checks.ts';
import { faultPoint } from './fault-points.ts';
import { savePlace, saveRecord } from './undo.ts';
import { closeResting, restOrder, takeOffBook } from './order-close.ts';
import { cancelFast, placeFast } from './order-fast-lane.ts';
import { USER_CANCEL_TEXT } from './order-event-rows.ts';
import { TradeFills } from './trade-fills.ts';

export { engineIdOf, type OrderTicket } from './order-checks.ts';

/**
 * Order entry, matching and the order feeds: the pipeline check → reserve margin → match →
 * settle fills → release margin, with every outcome as an order event (feeds are built from
 * the records only for listeners that ask, see order-events.ts). Orders are slots of the
 * venue's `OrderStore`; a slot whose order ended is freed when its command is over (`release`).
 */
export class OrderFlow {
  /** The book's events of the current command (records, reused: see `BookEvents`). */
  private readonly bookEvents = new BookEvents();
  /** The command handed to the book, reused (the book reads it and keeps nothing). */
  readonly command: PlaceCommand = { orderId: 0, ownerId: 0, side: 'B', priceTicks: 0, qtyLots: 0, tif: 'GTC', postOnly: false };

  /** A trade's settlement, both sides (trade-fills.ts). */
  private readonly fills: TradeFills;

  constructor(private readonly s: VenueState) {
    this.fills = new TradeFills(s);
  }

  /**
   * Accepts or rejects a new order and runs it against the book. Returns the order's slot,
   * which the caller hands to `release` once it has read what it needs: rejections are events
   * (`j`), never exceptions.
   */
  submit(account: Account, market: Market | undefined, symbol: string, ticket: OrderTicket): number {
    if (market !== undefined && ticket.isLiquidation !== true) {
      const fast = placeFast(this.s, this, account, market, ticket.side, ticket.priceTicks, ticket.qtyLots, ticket.tif, ticket.postOnly);
      if (fast !== NO_SLOT) return fast;
    }
    return this.submitGeneral(account, market, symbol, ticket);
  }

  /**
   * `submit` of an order in ticks (in-process callers): the fast lane from the arguments, and
   * only when it does not take the order the ticket, filled here (no object per order), for
   * the general path.
   */
  submitTicks(account: Account, market: Market, side: Side, priceTicks: number, qtyLots: number, tif: TimeInForce, postOnly: boolean): number {
    const fast = placeFast(this.s, this, account, market, side, priceTicks, qtyLots, tif, postOnly);
    if (fast !== NO_SLOT) return fast;
    // The text of an on-grid price is made from its ticks when read; `toPrice` also refuses
    // ticks that are no safe integer, as it did when every order carried its text.
    const t = this.ticket;
    t.side = side;
    t.priceText = Number.isSafeInteger(priceTicks) ? '' : market.instrument.tick.toPrice(priceTicks);
    t.priceTicks = priceTicks;
    t.qtyLots = qtyLots;
    t.tif = tif;
    t.postOnly = postOnly;
    return this.submitGeneral(account, market, market.symbol, t);
  }

  /** One ticket, refilled by `submitTicks`: the general path reads it and keeps nothing. */
  private readonly ticket: OrderTicket = { side: 'B', priceText: '', priceTicks: 0, qtyLots: 0, tif: 'GTC', postOnly: false };

  /** `submit` without the fast lane: every check, then the book. */
  private submitGeneral(account: Account, market: Market | undefined, symbol: string, ticket: OrderTicket): number {
    const slot = this.createOrder(account, market, symbol, ticket);
    const rejection = market === undefined ? (['UNKNOWN_SYMBOL', `unknown symbol ${symbol}`] as const) : checkOrder(this.s.clock, account, market, ticket);
    if (rejection !== undefined) {
      this.s.orders.setState(slot, ST_REJECTED);
      const r = this.s.orderRow('j', account.id, slot, this.s.executionIds.advance());
      if (r >= 0) {
        this.s.rows.setReason(r, rejection[0], rejection[1]);
        this.s.told();
      }
      return slot;
    }
    this.execute(account, market!, slot);
    return slot;
  }

  /** Frees the slot of a submitted order that no longer rests (its view, if any, keeps a copy). */
  release(slot: number): void {
    if (!this.s.orders.isOpen(slot)) this.s.free(slot);
  }

  /** Cancels one open order of `account` by wire id; the outcome is a `c` or `e` feed. */
  cancel(account: Account, orderId: string, reason: CancelReason = 'USER_REQUESTED'): boolean {
    return this.cancelSlot(account, this.findOpen(orderId), orderId, NaN, reason);
  }

  /** `cancel` by engine id (in-process callers); a rejected cancel names `orderId`, else the engine id. */
  cancelSeq(account: Account, seq: number, orderId?: string): boolean {
    const slot = this.s.orders.slotOf(seq);
    return this.cancelSlot(account, slot, orderId, slot === NO_SLOT ? seq : NaN, 'USER_REQUESTED');
  }

  /**
   * `orderId`: the id the request named (undefined: the slot's own wire id, or when `seq` is a
   * number, its decimal text, made only if a listener reads it).
   */
  private cancelSlot(account: Account, slot: number, orderId: string | undefined, seq: number, reason: CancelReason): boolean {
    if (slot === NO_SLOT || this.s.orders.user(slot) !== account.id) {
      const r = this.s.orderRow('e', account.id, NO_SLOT, 0);
      if (r >= 0) {
        this.s.rows.setOid(r, orderId ?? (Number.isNaN(seq) ? this.s.orderId(slot) : seq));
        this.s.rows.setUnknownOrder(r);
        this.s.told();
      }
      return false;
    }
    if (reason !== 'USER_REQUESTED' || !cancelFast(this.s, this.clearedEvents(), slot)) {
      this.cancelResting(slot, reason, reason === 'USER_REQUESTED' ? USER_CANCEL_TEXT : 'canceled by the exchange');
    }
    return true;
  }

  /** The slot of an open order by wire id (any user), or `NO_SLOT`. */
  findOpen(orderId: string): number {
    const seq = engineIdOf(orderId);
    const slot = seq === undefined ? NO_SLOT : this.s.orders.slotOf(seq);
    return slot !== NO_SLOT && this.s.orderId(slot) === orderId ? slot : NO_SLOT;
  }

  /** Removes a resting order from its book with a Cancel Order feed. */
  cancelResting(slot: number, reason: CancelReason, text: string): void {
    const market = this.s.marketOf(slot)!;
    takeOffBook(this.s, slot, market, this.clearedEvents());
    faultPoint('cancel.book');
    closeResting(this.s, slot, ST_CANCELED);
    faultPoint('cancel.close');
    this.emitCancel(slot, reason, text);
    this.s.free(slot);
    this.afterBookChange(market);
  }

  /** Ends a resting order at the close of the trading day with a Done for Day feed. */
  doneForDay(slot: number): void {
    takeOffBook(this.s, slot, this.s.marketOf(slot)!, this.clearedEvents());
    closeResting(this.s, slot, ST_DONE_FOR_DAY);
    if (this.s.orderRow('d', this.s.orders.field(slot, F_USER), slot, this.s.executionIds.advance()) >= 0) this.s.told();
    this.s.free(slot);
  }

  private execute(account: Account, market: Market, slot: number): void {
    const store = this.s.orders;
    const log = this.s.log;
    saveRecord(log.journal, store, slot);
    store.setState(slot, ST_NEW);
    if (this.s.orderRow('n', account.id, slot, this.s.executionIds.advance()) >= 0) this.s.told();
    faultPoint('place.accepted');
    this.matchAccepted(account, market, slot);
  }

  /**
   * The accepted order in `slot` (state NEW, its `n` row written) against the book: its trades,
   * self-trade cancels, expiry or rest, then the mark and the book-change announcement. The
   * general path's tail, and the fast lane's for an order that trades (order-fast-lane.ts).
   */
  matchAccepted(account: Account, market: Market, slot: number): void {
    const store = this.s.orders;
    const log = this.s.log;
    const events = this.clearedEvents();
    const cmd = this.command;
    cmd.orderId = store.field(slot, F_SEQ);
    cmd.ownerId = account.id;
    cmd.side = store.side(slot);
    cmd.priceTicks = store.field(slot, F_PRICE);
    cmd.qtyLots = store.field(slot, F_QTY);
    cmd.tif = store.tif(slot);
    cmd.postOnly = store.has(slot, B_POST_ONLY);
    market.book.placeInto(cmd, events);
    savePlace(log.journal, market, cmd.side, events, store);
    faultPoint('place.book');
    for (let i = 0; i < events.length; i++) {
      switch (events.kind(i)) {
        case EV_TRADE:
          this.fills.settle(events.makerId(i), events.makerOwnerId(i), events.side(i), events.priceTicks(i), events.qtyLots(i), slot, market);
          break;
        case EV_CANCELED: {
          const maker = store.slotOf(events.orderId(i));
          closeResting(this.s, maker, ST_CANCELED);
          this.emitCancel(maker, 'SELF_TRADE', 'self-trade prevention canceled the resting order');
          faultPoint('place.self-trade');
          this.s.free(maker);
          break;
        }
        case EV_EXPIRED:
          store.setState(slot, ST_EXPIRED);
          if (this.s.orderRow('x', account.id, slot, this.s.executionIds.advance()) >= 0) this.s.told();
          break;
        case EV_RESTED: {
          restOrder(this.s, account, slot, market, cmd.qtyLots - store.field(slot, F_FILLED));
          faultPoint('place.rested');
          break;
        }
        default: // rejected cannot happen (post-only crossing is checked before `n`), nor reduced / cancel-rejected
          throw new Error(`unexpected book event ${events.at(i).kind} for a new order`);
      }
    }
    if (events.length > 0) this.afterBookChange(market);
    faultPoint('place.done');
  }

  /**
   * Books one trade for maker and taker: position, PnL, fees, margin, feeds, records. A side
   * owned by `EXTERNAL_OWNER` (replayed liquidity, see external-liquidity.ts) has no account:
   * only the other side is settled, and the print names the external side.
   */
  settleTrade(e: TradeEvent, taker: Order | undefined, market: Market): void {
    const takerSlot = taker === undefined ? NO_SLOT : this.s.orders.slotOf(taker.seq);
    this.fills.settle(e.makerId, e.makerOwnerId, e.takerSide, e.priceTicks, e.qtyLots, takerSlot, market);
  }

  private emitCancel(slot: number, reason: CancelReason, text: string): void {
    const r = this.s.orderRow('c', this.s.orders.field(slot, F_USER), slot, this.s.executionIds.advance());
    if (r < 0) return;
    this.s.rows.setReason(r, reason, text);
    this.s.told();
  }

  /** The mark follows the touch (a mark that moves saves the market's state first: `Market.beforeAveragesChange`). */
  afterBookChange(market: Market): void {
    market.refreshMark(this.s.clock.nowSec, this.s.clock.nowNanos);
    this.s.bookChanged(market);
  }

  private createOrder(account: Account, market: Market | undefined, symbol: string, t: OrderTicket): number {
    const liquidation = t.isLiquidation === true;
    const clock = this.s.clock;
    const counter = (liquidation ? this.s.liquidationIds : this.s.orderIds).advanceAt(clock);
    const offGrid = Number.isNaN(t.priceTicks);
    const bits = (t.side === 'S' ? B_SELL : 0) | (t.tif === 'IOC' ? B_IOC : 0) | (t.postOnly ? B_POST_ONLY : 0) | (liquidation ? B_LIQUIDATION : 0) | (offGrid ? B_OFF_GRID : 0);
    const slot = this.s.orders.allocate(liquidation ? -counter : counter, account.id, market?.index ?? -1, bits, offGrid ? 0 : t.priceTicks, t.qtyLots, clock);
    if (market === undefined || offGrid) this.s.orders.setOddTexts(slot, symbol, t.priceText);
    return slot;
  }

  /** The book's event buffer, emptied for the next book call. */
  clearedEvents(): BookEvents {
    this.bookEvents.clear();
    return this.bookEvents;
  }
}
