import type { OrderBook } from '../book/order-book.ts';
import { BookEvents, EV_CANCELED, EV_RESTED, EV_TRADE } from '../book/book-events.ts';
import type { Side } from '../core/types.ts';
import type { Account } from './account.ts';
import type { Market } from './market.ts';
import { F_PRICE, F_USER, type OrderStore } from './order-store.ts';

/**
 * How each part of the venue is put back when a command fails midway (command-log.ts). Every
 * function saves what a change is about to touch and returns the closure that restores it;
 * the command log runs those newest first. Saving is O(1) (the book's levels are rebuilt only
 * on failure), so a command that succeeds pays a few small objects.
 */

/** Saves a market's scalar state (state, index, mark, band), averages and record lists. */
export function saveMarket(market: Market): () => void {
  const fields = { ...market };
  const markTwap = market.markTwap.save();
  const indexTwap = market.indexTwap.save();
  const marks = market.markHistory.length;
  const lastMark = market.markHistory[marks - 1]?.markTicks;
  const fundings = market.fundingHistory.length;
  return () => {
    Object.assign(market, fields);
    market.markTwap.restore(markTwap);
    market.indexTwap.restore(indexTwap);
    market.markHistory.length = marks;
    if (lastMark !== undefined) market.markHistory[marks - 1]!.markTicks = lastMark;
    market.fundingHistory.length = fundings;
  };
}

/** Saves a market's candles and session stats (before its first trade in a command). */
export function saveTrades(market: Market): () => void {
  const candles = market.candles.save();
  const stats = market.stats.save();
  return () => {
    market.candles.restore(candles);
    market.stats.restore(stats);
  };
}

/** Saves an account's money, open-order chain and totals in `market`, and its position there. */
export function saveAccount(account: Account, market: Market): () => void {
  const money = account.saveMoney(market);
  const existing = account.findPosition(market);
  if (existing === undefined) {
    return () => {
      account.dropPosition(market);
      account.restoreMoney(market, money);
    };
  }
  const position = existing.position.save();
  const { tradingPnl, fees, funding } = existing;
  return () => {
    existing.position.restore(position);
    existing.tradingPnl = tradingPnl;
    existing.fees = fees;
    existing.funding = funding;
    account.restoreMoney(market, money);
  };
}

/** One resting order of a level, as the book's undo rebuilds it. */
interface QueuedOrder {
  orderId: number;
  ownerId: number;
  qtyLots: number;
}

/**
 * Saves where a resting order (engine id `seq`) sits in its level, before a cancel takes it
 * out, and returns the closure that puts it back there. Account orders rest once, when placed,
 * so within a level they queue in ascending engine id: the order's place among them is found
 * again on failure (O(1) now, O(level) only then). A recorded (external) order has no such
 * key, so while the books hold any (`withExternal`), the level's whole queue is copied instead.
 */
export function saveLevelOf(book: OrderBook, seq: number, ownerId: number, side: Side, priceTicks: number, withExternal: boolean): () => void {
  if (withExternal) {
    const queue = book.levelQueue(side, priceTicks);
    return () => rebuildLevel(book, side, priceTicks, queue);
  }
  const own: QueuedOrder = { orderId: seq, ownerId, qtyLots: book.openLots(seq) };
  return () => {
    const queue = book.levelQueue(side, priceTicks);
    let at = 0;
    while (at < queue.length && queue[at]!.orderId < seq) at++;
    queue.splice(at, 0, own);
    rebuildLevel(book, side, priceTicks, queue);
  };
}

/**
 * The undo of one `placeInto` whose events are in `events` (copied now: the buffer is reused).
 * Matching takes makers from the front of each level, oldest first, and rests the taker at the
 * back of its level; so the levels before the command are the makers traded or self-trade
 * canceled, in event order with their quantities then, followed by what is left now.
 */
export function placeUndo(book: OrderBook, takerSide: Side, events: BookEvents, slotOf: (seq: number) => number, store: OrderStore): () => void {
  let restedId: number | undefined;
  const consumed: (QueuedOrder & { priceTicks: number })[] = [];
  for (let i = 0; i < events.length; i++) {
    const kind = events.kind(i);
    if (kind === EV_RESTED) restedId = events.orderId(i);
    else if (kind === EV_TRADE) {
      // A maker meets one taker once: its lots before were what it traded plus what is left.
      consumed.push({ priceTicks: events.priceTicks(i), orderId: events.makerId(i), ownerId: events.makerOwnerId(i), qtyLots: events.qtyLots(i) + events.makerRemainingLots(i) });
    } else if (kind === EV_CANCELED) {
      // Self-trade prevention took one of the taker's own resting orders (its record is still there).
      const own = slotOf(events.orderId(i));
      consumed.push({ priceTicks: store.field(own, F_PRICE), orderId: events.orderId(i), ownerId: store.field(own, F_USER), qtyLots: events.qtyLots(i) });
    }
  }
  if (consumed.length === 0) return restedId === undefined ? () => {} : () => book.cancelInto(restedId!, scratch());
  const makerSide: Side = takerSide === 'B' ? 'S' : 'B';
  return () => {
    if (restedId !== undefined) book.cancelInto(restedId, scratch());
    for (const priceTicks of new Set(consumed.map((c) => c.priceTicks))) {
      const before = consumed.filter((c) => c.priceTicks === priceTicks);
      // A maker partially filled is still at the head now: counted once, from `before`.
      const now = book.levelQueue(makerSide, priceTicks).filter((q) => !before.some((b) => b.orderId === q.orderId));
      rebuildLevel(book, makerSide, priceTicks, [...before, ...now]);
    }
  };
}

/** Makes the level at `priceTicks` hold exactly `queue`, in that order (only on failure). */
function rebuildLevel(book: OrderBook, side: Side, priceTicks: number, queue: readonly QueuedOrder[]): void {
  const out = scratch();
  for (const q of book.levelQueue(side, priceTicks)) book.cancelInto(q.orderId, out);
  for (const q of queue) {
    book.placeInto({ orderId: q.orderId, ownerId: q.ownerId, side, priceTicks, qtyLots: q.qtyLots, tif: 'GTC', postOnly: false }, out);
  }
}

let events: BookEvents | undefined;
function scratch(): BookEvents {
  events ??= new BookEvents();
  events.clear();
  return events;
}
