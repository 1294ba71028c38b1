import type { OrderBook } from '../book/order-book.ts';
import { BookEvents, EV_CANCELED, EV_RESTED, EV_TRADE } from '../book/book-events.ts';
import type { Side } from '../core/types.ts';
import type { Market } from './market.ts';
import { F_PRICE, F_USER, type OrderStore } from './order-store.ts';
import type { UndoJournal } from './undo-journal.ts';
import type { VenueState } from './venue-state.ts';

/**
 * The undo of a command's changes to a book (see undo.ts): where a canceled order sat in its
 * level, and which makers a new order consumed. Saving is O(1) per order and per maker; the
 * levels are rebuilt only when a command fails. An entry names its book by its market's index
 * (the undo finds it in the venue's state): numbers only, no reference for the collector.
 */

// Journal opcodes of this file (undo.ts's `undoEntry` dispatches them here).
export const U_LEVEL = 4;
export const U_PLACE = 5;

/** One resting order of a level, as the book's undo rebuilds it. */
interface QueuedOrder {
  orderId: number;
  ownerId: number;
  qtyLots: number;
}

/** Where `U_PLACE`'s numbers are (`PlaceAt.Maker`: the first consumed maker's four, after them). */
export const enum PlaceAt {
  Side = 0,
  Rested = 1,
  Consumed = 2,
  Market = 3,
  Maker = 4,
}

/**
 * Saves where a resting order (engine id `seq`) of `market`'s book sits in its level, before a
 * cancel takes it out. Account orders rest once, when placed, so within a level they queue in ascending engine
 * id: the order's place among them is found again on failure (O(1) now, O(level) only then).
 * `openLots`: its unfilled lots, as its record says. A level's recorded (external) quantity has
 * no such key (its place is not by id), so where the level holds some, its whole queue is
 * copied instead (a book that never held recorded quantity is told by a field, not a lookup):
 * the entry's one reference, flagged by its sixth number.
 */
export function saveLevelOf(j: UndoJournal, market: Market, seq: number, ownerId: number, side: Side, priceTicks: number, openLots: number): void {
  const book = market.book;
  const queue = book.everHeldExternal && book.externalLots(side, priceTicks) > 0;
  const at = j.entry(U_LEVEL, 7);
  const nums = j.nums;
  nums[at] = seq;
  nums[at + 1] = ownerId;
  nums[at + 2] = side === 'S' ? 1 : 0;
  nums[at + 3] = priceTicks;
  nums[at + 4] = openLots;
  nums[at + 5] = market.index;
  nums[at + 6] = queue ? 1 : 0;
  if (queue) j.ref(book.levelQueue(side, priceTicks));
}

export function undoLevel(nums: Float64Array, at: number, refs: unknown[], r: number, s: VenueState): void {
  const book = s.markets[nums[at + 5]!]!.book;
  const side: Side = nums[at + 2] === 1 ? 'S' : 'B';
  const priceTicks = nums[at + 3]!;
  if (nums[at + 6] === 1) return rebuildLevel(book, side, priceTicks, refs[r] as QueuedOrder[]);
  const seq = nums[at]!;
  const queue = book.levelQueue(side, priceTicks);
  let i = 0;
  while (i < queue.length && queue[i]!.orderId < seq) i++;
  queue.splice(i, 0, { orderId: seq, ownerId: nums[at + 1]!, qtyLots: nums[at + 4]! });
  rebuildLevel(book, side, priceTicks, queue);
}

/**
 * Saves the undo of one `placeInto` whose events are in `events` (copied now: the buffer is
 * reused). Matching takes makers from the front of each level, oldest first, and rests the
 * taker at the back of its level; so the levels before the command are the makers traded or
 * self-trade canceled, in event order with their quantities then, followed by what is left now.
 */
export function savePlace(j: UndoJournal, market: Market, takerSide: Side, events: BookEvents, store: OrderStore): void {
  const at = j.entry(U_PLACE, PlaceAt.Maker);
  let nums = j.nums;
  nums[at + PlaceAt.Side] = takerSide === 'S' ? 1 : 0;
  nums[at + PlaceAt.Rested] = NaN;
  nums[at + PlaceAt.Market] = market.index;
  let consumed = 0;
  for (let i = 0; i < events.length; i++) {
    const kind = events.kind(i);
    if (kind === EV_RESTED) {
      j.nums[at + PlaceAt.Rested] = events.orderId(i);
      continue;
    }
    if (kind !== EV_TRADE && kind !== EV_CANCELED) continue;
    const c = j.extend(4);
    nums = j.nums;
    if (kind === EV_TRADE) {
      // A maker meets one taker once: its lots before were what it traded plus what is left.
      nums[c] = events.priceTicks(i);
      nums[c + 1] = events.makerId(i);
      nums[c + 2] = events.makerOwnerId(i);
      nums[c + 3] = events.qtyLots(i) + events.makerRemainingLots(i);
    } else {
      // Self-trade prevention took one of the taker's own resting orders (its record is still there).
      const own = store.slotOf(events.orderId(i));
      nums[c] = store.field(own, F_PRICE);
      nums[c + 1] = events.orderId(i);
      nums[c + 2] = store.field(own, F_USER);
      nums[c + 3] = events.qtyLots(i);
    }
    consumed++;
  }
  j.nums[at + PlaceAt.Consumed] = consumed;
}

export function undoPlace(nums: Float64Array, at: number, s: VenueState): void {
  const book = s.markets[nums[at + PlaceAt.Market]!]!.book;
  const restedId = nums[at + PlaceAt.Rested]!;
  if (!Number.isNaN(restedId)) book.cancelInto(restedId, scratch());
  const consumed: (QueuedOrder & { priceTicks: number })[] = [];
  for (let k = 0, c = at + PlaceAt.Maker; k < nums[at + PlaceAt.Consumed]!; k++, c += 4) {
    consumed.push({ priceTicks: nums[c]!, orderId: nums[c + 1]!, ownerId: nums[c + 2]!, qtyLots: nums[c + 3]! });
  }
  const makerSide: Side = nums[at + PlaceAt.Side] === 1 ? 'B' : 'S';
  for (const priceTicks of new Set(consumed.map((c) => c.priceTicks))) {
    const before = consumed.filter((c) => c.priceTicks === priceTicks);
    // A maker partially filled is still at the head now: counted once, from `before`.
    const now = book.levelQueue(makerSide, priceTicks).filter((q) => !before.some((b) => b.orderId === q.orderId));
    rebuildLevel(book, makerSide, priceTicks, [...before, ...now]);
  }
}

/** Makes the level at `priceTicks` hold exactly `queue`, in that order, recorded quantity included (only on failure). */
function rebuildLevel(book: OrderBook, side: Side, priceTicks: number, queue: readonly QueuedOrder[]): void {
  book.restoreLevelInto(side, priceTicks, queue, scratch());
}

let events: BookEvents | undefined;
function scratch(): BookEvents {
  events ??= new BookEvents();
  events.clear();
  return events;
}
