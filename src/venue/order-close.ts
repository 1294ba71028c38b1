import type { Money } from '../core/money.ts';
import type { Account } from './account.ts';
import type { Market } from './market.ts';
import { saveLevelOf } from './undo-book.ts';
import type { VenueState } from './venue-state.ts';
import type { BookEvents } from '../book/book-events.ts';

/**
 * An order starting and ending its rest on a book, as the account sees it: resting reserves its
 * margin and counts it in the account's market row, ending it (cancel, done for day, self-trade
 * prevention) releases them. Both are exactly invertible: integer counts and lots, a margin
 * notional below 2^53 (checked when it was added) or the Money kept with the order. So the
 * undo of a failed command takes each back by its inverse (`U_UNREST`, `U_REOPEN`: a few
 * numbers of the order itself) instead of a saved copy of the account's money and rows and of
 * the order's record (which read the account object's money, marked the row and the record as
 * saved, and wrote two entries with four references).
 *
 * Each inverse is registered right after its change is complete (nothing in between can throw
 * but running out of memory), so a rollback never takes back a change that was not made; the
 * journal runs entries newest first, so an inverse composes with the saved copies of the same
 * account or record made before or after it in the command. An entry names the account by its
 * id (its index in the venue's accounts): numbers only, no reference stored (no write barrier,
 * nothing for the collector to trace), but for a `B_IM_BIG` order's Money.
 */

/**
 * Journal opcodes of this file (undo.ts's `undoEntry` dispatches them here) and the record
 * layout of order-record.ts this file reads, as literals (imported constants cost a load and a
 * check at every use in optimized code: see `Rec` in order-store.ts; test/venue/record-layout
 * checks they agree).
 */
export const enum Op {
  Unrest = 13,
  Reopen = 14,
  ReopenBig = 15,
}
export const enum Rec {
  User = 0,
  Bits = 1,
  Price = 2,
  Qty = 3,
  Filled = 4,
  Market = 7,
  Seq = 8,
  Stride = 12,
  Sell = 1,
  ImBig = 32,
  SideUsed = 64,
}
export const U_UNREST = Op.Unrest;
export const U_REOPEN = Op.Reopen;
/** `U_REOPEN` of an order whose margin was Money kept with it (`B_IM_BIG`): one reference more. */
export const U_REOPEN_BIG = Op.ReopenBig;

/** The order in `slot` (new in this command) rests with `unfilledLots`: counted in its account's row of `market`. */
export function restOrder(s: VenueState, account: Account, slot: number, market: Market, unfilledLots: number): void {
  account.addOpenOrder(s.orders, slot, market, unfilledLots);
  market.levelLotsBound += unfilledLots;
  const j = s.log.journal;
  const at = j.entry(Op.Unrest, 4);
  j.nums[at] = slot;
  j.nums[at + 1] = market.index;
  j.nums[at + 2] = unfilledLots;
  j.nums[at + 3] = account.id;
}

/** Cancels the resting order in `slot` on its book (`events`: the book's, cleared), saving its place there first (the undo puts it back). */
export function takeOffBook(s: VenueState, slot: number, market: Market, events: BookEvents): void {
  const d = s.orders.data;
  const o = slot * Rec.Stride;
  const seq = d[o + Rec.Seq]!;
  saveLevelOf(s.log.journal, market, seq, d[o + Rec.User]!, (d[o + Rec.Bits]! & Rec.Sell) !== 0 ? 'S' : 'B', d[o + Rec.Price]!, d[o + Rec.Qty]! - d[o + Rec.Filled]!);
  market.book.cancelInto(seq, events);
}

/** Moves the resting order in `slot` to terminal `state` and releases its margin and counts (the caller frees the slot). */
export function closeResting(s: VenueState, slot: number, state: number): void {
  const store = s.orders;
  const d = store.data;
  const o = slot * Rec.Stride;
  const bits = d[o + Rec.Bits]!;
  const marketIndex = d[o + Rec.Market]!;
  const unfilledLots = d[o + Rec.Qty]! - d[o + Rec.Filled]!;
  const big = (bits & Rec.ImBig) !== 0;
  const reserved = big ? store.reservedIm[slot]! : 0n;
  const account = s.accounts[d[o + Rec.User]!]!;
  endRest(s, account, slot, state, marketIndex, unfilledLots);
  const j = s.log.journal;
  const at = j.entry(big ? Op.ReopenBig : Op.Reopen, 5);
  j.nums[at] = slot;
  j.nums[at + 1] = bits;
  j.nums[at + 2] = marketIndex;
  j.nums[at + 3] = unfilledLots;
  j.nums[at + 4] = account.id;
  if (big) j.ref(reserved);
}

/**
 * Moves the resting order in `slot` (of `account`) to terminal `state` and releases its margin and
 * counts, registering no undo: `closeResting` registers its inverse, a fill has saved the
 * account and the record whole.
 */
export function endRest(
  s: VenueState,
  account: Account,
  slot: number,
  state: number,
  marketIndex = s.orders.field(slot, Rec.Market),
  unfilledLots = s.orders.field(slot, Rec.Qty) - s.orders.field(slot, Rec.Filled),
): void {
  s.orders.setState(slot, state);
  account.removeOpenOrder(s.orders, slot, marketIndex, unfilledLots);
}

/** Takes back `restOrder` (journal entry at `nums[at]`). */
export function undoRest(nums: Float64Array, at: number, s: VenueState): void {
  s.accounts[nums[at + 3]!]!.removeOpenOrder(s.orders, nums[at]!, nums[at + 1]!, nums[at + 2]!);
}

/** Takes back `closeResting`: the record's state and flags, the account's counts and margin. */
export function undoReopen(nums: Float64Array, at: number, refs: unknown[], r: number, s: VenueState, big: boolean): void {
  const store = s.orders;
  const slot = nums[at]!;
  const o = slot * Rec.Stride + Rec.Bits;
  // A side array written during the failed command keeps its flag, as in `restoreRecord`.
  store.data[o] = nums[at + 1]! | (store.data[o]! & Rec.SideUsed);
  s.accounts[nums[at + 4]!]!.reopenOrder(store, slot, nums[at + 2]!, nums[at + 3]!, big ? (refs[r] as Money) : undefined);
}
