import type { PlaceCommand, TradeEvent } from '../book/events.ts';
import { BookEvents, EV_CANCELED, EV_EXPIRED, EV_RESTED, EV_TRADE } from '../book/book-events.ts';
import type { CancelReason, RejectReason, Side, TimeInForce } from '../core/types.ts';
import { decodeIdCounter } from '../core/ids.ts';
import { tickLots } from '../risk/position.ts';
import { toWsOrder } from './wire-forms.ts';
import { marginOf, type Account } from './account.ts';
import { tickLotsAtRate } from './money-rate.ts';
import type { Market } from './market.ts';
import type { Order } from './order.ts';
import { remainingLots } from './order.ts';
import type { VenueState } from './venue-state.ts';
import { EXTERNAL_ORDER_ID, EXTERNAL_OWNER } from './external-owner.ts';
import { quantityOverflow } from './quantity-bounds.ts';

/** A new order in engine units, after the wire's schema checks. */
export interface OrderTicket {
  side: Side;
  /** Minimal decimal text of the price (shown on the wire even when rejected). */
  priceText: string;
  /** NaN when the price is not a multiple of the tick. */
  priceTicks: number;
  qtyLots: number;
  tif: TimeInForce;
  postOnly: boolean;
  isLiquidation?: boolean;
}

const POST_ONLY_TEXT = 'post-only order would cross the book';

/**
 * Order entry, matching and the order feeds: the pipeline check → reserve margin → match →
 * settle fills → release margin, with every outcome as a feed value.
 */
export class OrderFlow {
  /** The book's events of the current command (records, reused: see `BookEvents`). */
  private readonly bookEvents = new BookEvents();
  /** The command handed to the book, reused (the book reads it and keeps nothing). */
  private readonly command: PlaceCommand = { orderId: 0, ownerId: 0, side: 'B', priceTicks: 0, qtyLots: 0, tif: 'GTC', postOnly: false };

  constructor(private readonly s: VenueState) {}

  /**
   * Accepts or rejects a new order and runs it against the book. Always returns the order:
   * rejections are feeds (`j`), never exceptions.
   */
  submit(account: Account, market: Market | undefined, symbol: string, ticket: OrderTicket): Order {
    const order = this.createOrder(account, market, symbol, ticket);
    const rejection = market === undefined ? (['UNKNOWN_SYMBOL', `unknown symbol ${symbol}`] as const) : this.check(account, market, order);
    if (rejection !== undefined) {
      order.state = 'REJECTED';
      this.feed(account.id, { t: 'j', ...this.stamp(), eid: this.s.executionIds.next(), o: toWsOrder(order), r: rejection[0], txt: rejection[1] });
      return order;
    }
    this.execute(account, market!, order);
    return order;
  }

  /** Cancels one open order of `account` by wire id; the outcome is a `c` or `e` feed. */
  cancel(account: Account, orderId: string, reason: CancelReason = 'USER_REQUESTED'): boolean {
    const order = this.findOpen(orderId);
    if (order === undefined || order.userId !== account.id) {
      this.feed(account.id, { t: 'e', ...this.stamp(), oid: orderId, r: 'UNKNOWN_ORDER', txt: 'no open order with this id' });
      return false;
    }
    this.cancelResting(order, reason, reason === 'USER_REQUESTED' ? 'canceled by user' : 'canceled by the exchange');
    return true;
  }

  /** An open order by wire id (any user), or undefined. */
  findOpen(orderId: string): Order | undefined {
    const seq = engineIdOf(orderId);
    const order = seq === undefined ? undefined : this.s.resting.get(seq);
    return order !== undefined && order.id === orderId ? order : undefined;
  }

  /** Removes a resting order from its book with a Cancel Order feed. */
  cancelResting(order: Order, reason: CancelReason, text: string): void {
    const market = order.market!;
    market.book.cancelInto(order.seq, this.clearedEvents());
    this.closeOrder(order, 'CANCELED');
    this.feed(order.userId, { t: 'c', ...this.stamp(), eid: this.s.executionIds.next(), o: toWsOrder(order), xr: reason, txt: text });
    this.afterBookChange(market);
  }

  /** Ends a resting order at the close of the trading day with a Done for Day feed. */
  doneForDay(order: Order): void {
    order.market!.book.cancelInto(order.seq, this.clearedEvents());
    this.closeOrder(order, 'DONE_FOR_DAY');
    this.feed(order.userId, { t: 'd', ...this.stamp(), eid: this.s.executionIds.next(), o: toWsOrder(order) });
  }

  /** Business-rule checks of decisions.md, in order; undefined when the order may proceed. */
  private check(account: Account, market: Market, order: Order): readonly [RejectReason, string] | undefined {
    const inst = market.instrument;
    if (market.state !== 'OPEN') return ['EXCHANGE_CLOSED', `${inst.symbol} is ${market.state}`];
    if (!Number.isSafeInteger(order.qtyLots) || order.qtyLots <= 0 || order.qtyLots % inst.minimumTradeQuantity !== 0) {
      return ['INCORRECT_QUANTITY', `quantity must be a positive multiple of ${inst.minimumTradeQuantity}`];
    }
    if (Number.isNaN(order.priceTicks) || order.priceTicks <= 0) {
      return ['INVALID_PRICE_INCREMENT', `price must be a positive multiple of the tick size ${inst.tick.text}`];
    }
    const overflow = quantityOverflow(account, market, order, this.s.clock.nowSec, wouldCross(market, order.side, order.priceTicks));
    if (overflow !== undefined) return ['INCORRECT_QUANTITY', overflow];
    if (order.isLiquidation) return undefined;
    if (!market.isWithinBand(order.priceTicks)) {
      return ['PRICE_OUT_OF_BOUNDS', `price is more than the price band away from the mark price ${inst.tick.toPrice(market.markTicks)}`];
    }
    if (account.openCountIn(market) >= inst.maxOpenOrders) {
      return ['MAX_OPEN_ORDERS_EXCEEDED', `at most ${inst.maxOpenOrders} open orders per instrument`];
    }
    if (order.postOnly && wouldCross(market, order.side, order.priceTicks)) return ['UNKNOWN', POST_ONLY_TEXT];
    const im = marginOf(inst, order.priceTicks, order.qtyLots, inst.initialMarginPct);
    const required = account.openOrdersIm + account.positionsMargin('initial') + im;
    if (required > account.equity()) return ['INSUFFICIENT_MARGIN', 'initial margin of open orders and positions would exceed equity'];
    return undefined;
  }

  private execute(account: Account, market: Market, order: Order): void {
    order.state = 'NEW';
    this.feed(account.id, { t: 'n', ...this.stamp(), eid: this.s.executionIds.next(), o: toWsOrder(order) });
    const events = this.clearedEvents();
    const cmd = this.command;
    cmd.orderId = order.seq;
    cmd.ownerId = account.id;
    cmd.side = order.side;
    cmd.priceTicks = order.priceTicks;
    cmd.qtyLots = order.qtyLots;
    cmd.tif = order.tif as TimeInForce;
    cmd.postOnly = order.postOnly;
    market.book.placeInto(cmd, events);
    for (let i = 0; i < events.length; i++) {
      switch (events.kind(i)) {
        case EV_TRADE:
          this.settleTradeOf(events.makerId(i), events.makerOwnerId(i), events.side(i), events.priceTicks(i), events.qtyLots(i), order, market);
          break;
        case EV_CANCELED: {
          const maker = this.s.resting.get(events.orderId(i))!;
          this.closeOrder(maker, 'CANCELED');
          this.feed(maker.userId, { t: 'c', ...this.stamp(), eid: this.s.executionIds.next(), o: toWsOrder(maker), xr: 'SELF_TRADE', txt: 'self-trade prevention canceled the resting order' });
          break;
        }
        case EV_EXPIRED:
          order.state = 'EXPIRED';
          this.feed(account.id, { t: 'x', ...this.stamp(), eid: this.s.executionIds.next(), o: toWsOrder(order) });
          break;
        case EV_RESTED:
          order.reservedIm = marginOf(market.instrument, order.priceTicks, events.qtyLots(i), market.instrument.initialMarginPct);
          account.addOpenOrder(order, market);
          this.s.resting.set(order.seq, order);
          break;
        default: // rejected cannot happen (post-only crossing is checked before `n`), nor reduced / cancel-rejected
          throw new Error(`unexpected book event ${events.at(i).kind} for a new order`);
      }
    }
    if (events.length > 0) this.afterBookChange(market);
  }

  /**
   * Books one trade for maker and taker: position, PnL, fees, margin, feeds, records. A side
   * owned by `EXTERNAL_OWNER` (replayed liquidity, see external-liquidity.ts) has no account:
   * only the other side is settled, and the print names the external side.
   */
  settleTrade(e: TradeEvent, taker: Order | undefined, market: Market): void {
    this.settleTradeOf(e.makerId, e.makerOwnerId, e.takerSide, e.priceTicks, e.qtyLots, taker, market);
  }

  /** `settleTrade` from the trade's fields (as read from the book's event records). */
  private settleTradeOf(makerId: number, makerOwnerId: number, takerSide: Side, priceTicks: number, qtyLots: number, taker: Order | undefined, market: Market): void {
    const maker = makerOwnerId === EXTERNAL_OWNER ? undefined : this.s.resting.get(makerId)!;
    const tid = this.s.tradeIds.next();
    const now = this.stamp();
    if (maker !== undefined) this.fill(maker, market, priceTicks, qtyLots, false, tid, now);
    if (taker !== undefined) this.fill(taker, market, priceTicks, qtyLots, true, tid, now);
    market.candles.addTrade(now.ts, priceTicks, qtyLots, takerSide);
    market.stats.addTrade(now.ts, priceTicks, qtyLots);
    this.s.announce(
      'trade',
      {
        tid,
        symbol: market.symbol,
        sec: now.ts,
        nanos: now.tn,
        priceTicks,
        qtyLots,
        takerSide,
        makerOrderId: maker?.id ?? EXTERNAL_ORDER_ID,
        takerOrderId: taker?.id ?? EXTERNAL_ORDER_ID,
        makerUserId: maker?.userId ?? EXTERNAL_OWNER,
        takerUserId: taker?.userId ?? EXTERNAL_OWNER,
      },
      market,
    );
  }

  private fill(order: Order, market: Market, priceTicks: number, lots: number, aggressor: boolean, tid: string, now: { ts: number; tn: number }): void {
    const inst = market.instrument;
    const account = this.s.accounts[order.userId]!;
    const position = account.positionIn(market);
    const notional = tickLots(priceTicks, lots);
    const realized = position.position.applyFill(order.side, priceTicks, lots) * inst.tickLotMoney;
    const feeRate = aggressor ? inst.takerFee : inst.makerFee;
    const fee = tickLotsAtRate(notional, inst.tickLotMoney, feeRate);
    position.tradingPnl += realized;
    position.fees += fee;
    account.cash += realized - fee;
    this.s.feesCollected += fee;

    if (!aggressor) account.openOrderFilled(market, lots);
    order.filledLots += lots;
    order.filledNotionalTicks += notional;
    const done = order.filledLots === order.qtyLots;
    if (done) {
      if (aggressor) order.state = 'FILLED';
      else this.closeOrder(order, 'FILLED');
    } else {
      order.state = 'PARTIALLY_FILLED';
      if (!aggressor) account.setReservedIm(order, marginOf(inst, order.priceTicks, remainingLots(order), inst.initialMarginPct));
    }
    const xs = { tid, s: market.symbol, q: lots, p: inst.tick.toPrice(priceTicks), d: order.side, agg: aggressor };
    this.feed(order.userId, { t: done ? 'f' : 'p', ts: now.ts, tn: now.tn, eid: this.s.executionIds.next(), o: toWsOrder(order), xs });
  }

  /** Moves a resting order to a terminal state and releases its margin. */
  private closeOrder(order: Order, state: 'FILLED' | 'CANCELED' | 'DONE_FOR_DAY'): void {
    order.state = state;
    this.s.resting.delete(order.seq);
    this.s.accounts[order.userId]!.removeOpenOrder(order, order.market!);
  }

  afterBookChange(market: Market): void {
    market.refreshMark(this.s.clock.nowSec, this.s.clock.nowNanos);
    this.s.announce('bookChanged', market);
  }

  private createOrder(account: Account, market: Market | undefined, symbol: string, t: OrderTicket): Order {
    const liquidation = t.isLiquidation === true;
    const ids = liquidation ? this.s.liquidationIds : this.s.orderIds;
    const id = ids.next(this.s.nowMs());
    return {
      seq: liquidation ? -ids.count : ids.count, // = engineIdOf(id), without parsing it back
      id,
      userId: account.id,
      username: account.username,
      symbol,
      market,
      side: t.side,
      priceText: t.priceText,
      priceTicks: t.priceTicks,
      qtyLots: t.qtyLots,
      tif: t.tif,
      postOnly: t.postOnly,
      isLiquidation: liquidation,
      insertSec: this.s.clock.nowSec,
      insertNanos: this.s.clock.nowNanos,
      state: 'PENDING',
      filledLots: 0,
      filledNotionalTicks: 0n,
      reservedIm: 0n,
    };
  }

  private clearedEvents(): BookEvents {
    this.bookEvents.clear();
    return this.bookEvents;
  }

  private stamp(): { ts: number; tn: number } {
    return { ts: this.s.clock.nowSec, tn: this.s.clock.nowNanos };
  }

  private feed(userId: number, feed: Parameters<VenueState['emitFeed']>[1]): void {
    this.s.emitFeed(userId, feed);
  }
}

/** True when a post-only order at this price would trade on arrival. */
function wouldCross(market: Market, side: Side, priceTicks: number): boolean {
  const opposite = side === 'B' ? market.book.bestAskTicks() : market.book.bestBidTicks();
  return opposite !== undefined && (side === 'B' ? opposite <= priceTicks : opposite >= priceTicks);
}

/**
 * Book id of a wire id: the counter of `O-` ids, minus the counter of `L-` ids (the two
 * generators count separately, so liquidation orders take the negative range).
 */
export function engineIdOf(orderId: string): number | undefined {
  if (orderId.startsWith('O-')) return decodeIdCounter(orderId, 'O-');
  if (orderId.startsWith('L-')) {
    const n = decodeIdCounter(orderId, 'L-');
    return n === undefined ? undefined : -n;
  }
  return undefined;
}
