import type { Account } from './account.ts';
import { faultPoint } from './fault-points.ts';
import type { Market } from './market.ts';
import { closeResting, restOrder, takeOffBook } from './order-close.ts';
import type { OrderFlow } from './order-flow.ts';
import type { Side, TimeInForce } from '../core/types.ts';
import { quantityOverflow } from './quantity-bounds.ts';
import type { VenueState } from './venue-state.ts';
import type { BookEvents } from '../book/book-events.ts';

/**
 * The common commands as one straight function each: a plain limit order (GTC or IOC, no
 * post-only, not a liquidation, price on the grid as an int32 of ticks) that passes every
 * check of `checkOrder` with the margin pre-check answering "fits" in doubles, and a user's
 * cancel of an own resting order. They run the general path's steps in its order, with its
 * order event rows, undo entries and fault points, but without its layers: the checks answer
 * yes or no (anything else — a rejection, a margin too close to call, post-only — returns
 * `NO_SLOT` before anything changed, and the general path runs unchanged), the record is made
 * in its final state, and what the outcome is known to be is not asked again:
 *
 * - An IOC order that cannot cross (the touch says so) would only be answered "expired" by the
 *   book, which changes nothing for it: the book is not asked and there is no book undo. It
 *   ends before anything could name it, so its record is the store's scratch record
 *   (`OrderStore.scratch`): no slot allocated, indexed, journaled or freed.
 * - A GTC order that cannot cross rests: the book's one answer is "rested", whose undo entry
 *   (`savePlace`'s, with no maker consumed) is written here.
 * - The mark is refreshed only when the touch moved: the mark is the median of index (or the
 *   recorded mark) and the touch as of the last refresh, and every change of those refreshes
 *   it (order entry, cancels, external liquidity, index and recorded-mark updates, sessions),
 *   so with the touch as it was a refresh would find the mark it has.
 * - An order that crosses goes to the general path's matching and settlement (`matchAccepted`).
 * - Its order event rows are written with the order's fill and state as the lane knows them
 *   (`orderRowAs`), and without `told`: the lane runs only inside a command (`OrderFlow.submit`
 *   and `cancelSlot` are reached from the venue's commands), whose commit delivers them.
 *
 * Equivalence with the general path (events, trades, money, state hash, and rollback at every
 * fault point) is the property test test/venue/fast-lane.test.ts, which turns the lane off with
 * `setFastLane(false)`.
 */

/**
 * The record layout, states and journal opcode this file writes, as literals (imported
 * constants cost a load and a check at every use in optimized code: see `Rec` in
 * order-store.ts; test/venue/record-layout checks they agree).
 */
export const enum Rec {
  User = 0,
  Bits = 1,
  Price = 2,
  Filled = 4,
  Market = 7,
  Stride = 12,
  Sell = 1,
  Ioc = 2,
  StateShift = 8,
  New = 1,
  Canceled = 4,
  Expired = 6,
  NoSlot = -1,
  Place = 5,
  PlaceMarket = 3,
  PlaceSize = 4,
}

let enabled = true;

/** Tests only: `false` sends every command through the general path. */
export function setFastLane(on: boolean): void {
  enabled = on;
}

/**
 * Places an order for `account` in `market` through the fast lane: the order's slot, or
 * `NO_SLOT` (nothing changed) when the order is not one the lane takes. The order's fields are
 * arguments, not a ticket: an in-process caller (`placeOrderSeq`) fills no object first. Not
 * for liquidation orders (the caller keeps them out).
 */
export function placeFast(s: VenueState, flow: OrderFlow, account: Account, market: Market, side: Side, priceTicks: number, qtyLots: number, tif: TimeInForce, postOnly: boolean): number {
  if (!enabled || market.state !== 'OPEN' || postOnly) return Rec.NoSlot;
  // int32 price and quantity (NaN, off the grid, fails), both positive.
  if ((priceTicks | 0) !== priceTicks || priceTicks <= 0 || (qtyLots | 0) !== qtyLots || qtyLots <= 0) return Rec.NoSlot;
  const inst = market.instrument;
  if (qtyLots % inst.minimumTradeQuantity !== 0 || !market.isWithinBand(priceTicks) || account.openCountIn(market) >= inst.maxOpenOrders) return Rec.NoSlot;
  const buy = side === 'B';
  const ioc = tif === 'IOC';
  if (!ioc && tif !== 'GTC') return Rec.NoSlot;
  const book = market.book;
  const opposite = buy ? book.bestAskTicks() : book.bestBidTicks();
  const crosses = opposite !== undefined && (buy ? opposite <= priceTicks : opposite >= priceTicks);
  if (quantityOverflow(account, market, side, priceTicks, qtyLots, s.clock, crosses) !== undefined) return Rec.NoSlot;
  if (account.orderMarginFits(market, priceTicks, qtyLots) <= 0) return Rec.NoSlot;

  // Accepted: the record (already NEW), for an order that may outlive the command with its
  // allocation's undo, and the `n` row.
  const store = s.orders;
  const seq = s.orderIds.advanceAt(s.clock);
  const bits = (buy ? 0 : Rec.Sell) | (ioc ? Rec.Ioc : 0) | (Rec.New << Rec.StateShift);
  if (ioc && !crosses) return expireFast(s, account, market, seq, bits, priceTicks, qtyLots);
  const j = s.log.journal;
  const slot = store.allocate(seq, account.id, market.index, bits, priceTicks, qtyLots, s.clock);
  s.orderRowAs('n', account.id, slot, s.executionIds.advance(), 0, Rec.New);
  faultPoint('place.accepted');
  if (crosses) {
    flow.matchAccepted(account, market, slot);
    return slot;
  }
  // A GTC that cannot cross rests.
  const own = buy ? book.bestBidTicks() : book.bestAskTicks();
  const cmd = flow.command;
  cmd.orderId = seq;
  cmd.ownerId = account.id;
  cmd.side = side;
  cmd.priceTicks = priceTicks;
  cmd.qtyLots = qtyLots;
  cmd.tif = 'GTC';
  cmd.postOnly = false;
  book.placeInto(cmd, flow.clearedEvents());
  // `savePlace` of a rest that consumed no maker.
  const at = j.entry(Rec.Place, Rec.PlaceSize);
  j.nums[at] = buy ? 0 : 1;
  j.nums[at + 1] = seq;
  j.nums[at + 2] = 0;
  j.nums[at + Rec.PlaceMarket] = market.index;
  faultPoint('place.book');
  restOrder(s, account, slot, market, qtyLots);
  faultPoint('place.rested');
  if (own === undefined || (buy ? priceTicks > own : priceTicks < own)) market.refreshMark(s.clock.nowSec, s.clock.nowNanos);
  s.bookChanged(market);
  faultPoint('place.done');
  return slot;
}

/**
 * The accepted IOC order `seq` that cannot cross: it ends in this command, before anyone could
 * name it, so its record is the scratch record (nothing allocated, indexed or journaled; the
 * command log ends it), expired without a `setState`. A function of its own so that its calls
 * (the record, the rows, the book-change announcement) are inlined here: `placeFast` has spent
 * V8's inlining budget on its checks.
 */
function expireFast(s: VenueState, account: Account, market: Market, seq: number, bits: number, priceTicks: number, qtyLots: number): number {
  const store = s.orders;
  const slot = store.scratch(seq, account.id, market.index, bits, priceTicks, qtyLots, s.clock);
  s.orderRowAs('n', account.id, slot, s.executionIds.advance(), 0, Rec.New);
  faultPoint('place.accepted');
  faultPoint('place.book');
  store.data[slot * Rec.Stride + Rec.Bits] = (bits & 255) | (Rec.Expired << Rec.StateShift);
  s.orderRowAs('x', account.id, slot, s.executionIds.advance(), 0, Rec.Expired);
  s.bookChanged(market);
  faultPoint('place.done');
  return slot;
}

/**
 * `OrderFlow.cancelResting` of the open order in `slot` (of `account`) at the user's request,
 * the mark refreshed only when the touch moved. False (nothing done) when the lane is off.
 */
export function cancelFast(s: VenueState, events: BookEvents, slot: number): boolean {
  if (!enabled) return false;
  const d = s.orders.data;
  const market = s.markets[d[slot * Rec.Stride + Rec.Market]!]!;
  const sell = (d[slot * Rec.Stride + Rec.Bits]! & Rec.Sell) !== 0;
  const priceTicks = d[slot * Rec.Stride + Rec.Price]!;
  const book = market.book;
  const before = sell ? book.bestAskTicks() : book.bestBidTicks();
  takeOffBook(s, slot, market, events);
  faultPoint('cancel.book');
  closeResting(s, slot, Rec.Canceled);
  faultPoint('cancel.close');
  const r = s.orderRowAs('c', d[slot * Rec.Stride + Rec.User]!, slot, s.executionIds.advance(), d[slot * Rec.Stride + Rec.Filled]!, Rec.Canceled);
  if (r >= 0) s.rows.setUserCancel(r);
  s.free(slot);
  // The touch moved only if the order was at it and its level emptied (an order behind the
  // touch leaves it as it was: the book is not asked again).
  if (priceTicks === before && (sell ? book.bestAskTicks() : book.bestBidTicks()) !== before) market.refreshMark(s.clock.nowSec, s.clock.nowNanos);
  s.bookChanged(market);
  return true;
}
