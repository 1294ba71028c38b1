import type { Money } from '../core/money.ts';
import { CANDLES_SAVED } from '../market/candles.ts';
import { STATS_SAVED } from '../market/session-stats.ts';
import { TWAP_SAVED_NUMBERS, TWAP_SAVED_REFS } from '../market/funding.ts';
import { POSITION_SAVED_NUMBERS } from '../risk/position.ts';
import { MONEY_SAVED, PENDING_SAVED, type Account, type AccountPosition } from './account.ts';
import { Market } from './market.ts';
import type { OrderStore } from './order-store.ts';
import type { VenueState } from './venue-state.ts';
import { U_LEVEL, U_PLACE, undoLevel, undoPlace } from './undo-book.ts';
import { U_REOPEN, U_REOPEN_BIG, U_UNREST, undoReopen, undoRest } from './order-close.ts';
import { U_FILL, undoUsualFill } from './fill-undo.ts';

export { saveLevelOf, savePlace } from './undo-book.ts';
import type { UndoJournal } from './undo-journal.ts';

/**
 * How each part of the venue is put back when a command fails midway (command-log.ts). The
 * hot changes (order records, accounts and positions, allocations, the book's levels) write
 * what they are about to touch as an entry of the command's `UndoJournal` (numbers and
 * pointers, no closure, saved once per command); `undoEntry` puts an entry back. Rare changes
 * (a caller's own `onUndo`) still register a closure (`U_CLOSURE`).
 * Saving is O(1) (the book's levels are rebuilt only on failure).
 *
 * The venue's state is the undo's context (`undoEntry`'s `s`): an entry names an account, a
 * market or a book by its index there (an account's id, a market's index), so the common
 * entries (a record, a rest and its close, a level, a place, a usual fill, a market's trades and
 * averages) store numbers only: no write barrier when they are written, nothing for the
 * collector to trace while they wait, nothing to drop when the command ends. References remain
 * for what only a reference can hold: Money past the numbers, a level's queue of recorded
 * quantity, a closure, a position object, a market's recorded funding rate and its funding
 * averages (their bigint times and sums).
 */

/**
 * The order record's fields and flag `saveRecord` reads and writes (order-record.ts's), as
 * literals: an imported constant costs a load and a check at every use in optimized code (see
 * `Rec` in order-store.ts); test/venue/account-row-layout checks they agree.
 */
export const enum Rec {
  Bits = 1,
  Saved = 5,
  Stride = 12,
  ImBig = 32,
  RecordSaved = 3,
}

export const U_CLOSURE = 0;
/** An order record without Money kept off it: numbers only. */
const U_RECORD = 1;
const U_ACCOUNT = 2;
// 3: an order's allocation, now taken back by the order store's marks (`undoAllocations`).
// 4 and 5: U_LEVEL and U_PLACE, the books' entries (undo-book.ts); 13–15: an order's rest and
// close taken back by their inverse (order-close.ts); 20: a usual fill's account (fill-undo.ts).
const U_MARKET = 6;
const U_POSITION = 7;
const U_TRADES = 8;
/** An order record with Money kept off it (`B_IM_BIG`, a notional past 2^53): two references more. */
const U_RECORD_BIG = 9;
/** A market's funding averages (exported for test/venue/journal-numbers: the one common entry with references). */
export const U_AVERAGES = 12;

/** Registers a closure that takes back a change (rare paths). */
export function saveClosure(j: UndoJournal, fn: () => void): void {
  j.entry(U_CLOSURE, 0);
  j.ref(fn);
}

/**
 * Saves the record of order `slot` (once per command): only the fields a command changes (see
 * `OrderStore.saveRecordTo`), and the Money kept off the record when it has any.
 */
export function saveRecord(j: UndoJournal, store: OrderStore, slot: number): void {
  const d = store.data;
  const o = slot * Rec.Stride;
  const epoch = j.epoch;
  if (d[o + Rec.Saved] === epoch) return;
  d[o + Rec.Saved] = epoch;
  const big = store.hasBigMoney(slot);
  const at = j.entry(big ? U_RECORD_BIG : U_RECORD, 1 + Rec.RecordSaved);
  j.nums[at] = slot;
  store.saveRecordTo(slot, j.nums, at + 1);
  if (!big) return;
  j.ref((d[o + Rec.Bits]! & Rec.ImBig) === 0 ? 0n : store.reservedIm[slot]);
  j.ref(store.bigNotionalOf(slot));
}

/** Saves an account's money and open-order totals in `market` (once per command and market). */
export function saveAccount(j: UndoJournal, account: Account, market: Market): void {
  if (!account.markSaved(market.index, j.epoch, false)) return;
  const at = j.entry(U_ACCOUNT, 2 + MONEY_SAVED);
  j.nums[at] = market.index;
  j.nums[at + 1] = account.id;
  account.saveMoney(market.index, j.nums, at + 2, j);
}

/**
 * Saves the account's position in `market` and the money it settled (once per command and
 * market): only fills and funding change them, so resting and canceling orders skip this.
 */
export function savePosition(j: UndoJournal, account: Account, market: Market): void {
  if (!account.markSaved(market.index, j.epoch, true)) return;
  const p = account.findPosition(market);
  const at = j.entry(U_POSITION, 2 + (p === undefined ? 0 : PENDING_SAVED + POSITION_SAVED_NUMBERS));
  j.nums[at] = market.index;
  j.nums[at + 1] = account.id;
  j.ref(p);
  if (p === undefined) return;
  j.ref(p.tradingPnlBase);
  j.ref(p.feesBase);
  j.ref(p.funding);
  account.savePending(market.index, j.nums, at + 2);
  p.position.saveTo(j.nums, at + 2 + PENDING_SAVED, j);
}

/**
 * Puts back one journal entry (see `UndoJournal.rollBack`); `s`: the venue's state, where an
 * entry's indexes name its accounts, markets and books (and the order records are).
 */
export function undoEntry(op: number, nums: Float64Array, at: number, refs: unknown[], r: number, s: VenueState): void {
  switch (op) {
    case U_CLOSURE:
      (refs[r] as () => void)();
      return;
    case U_RECORD:
      s.orders.restoreRecord(nums[at]!, nums, at + 1, 0n, undefined);
      return;
    case U_RECORD_BIG:
      s.orders.restoreRecord(nums[at]!, nums, at + 1, refs[r] as Money, refs[r + 1] as bigint | undefined);
      return;
    case U_ACCOUNT:
      return s.accounts[nums[at + 1]!]!.restoreMoney(nums[at]!, nums, at + 2, refs, r);
    case U_POSITION:
      return undoPosition(nums, at, refs, r, s);
    case U_LEVEL:
      return undoLevel(nums, at, refs, r, s);
    case U_PLACE:
      return undoPlace(nums, at, s);
    case U_UNREST:
      return undoRest(nums, at, s);
    case U_REOPEN:
      return undoReopen(nums, at, refs, r, s, false);
    case U_REOPEN_BIG:
      return undoReopen(nums, at, refs, r, s, true);
    case U_FILL:
      return undoUsualFill(nums, at, s);
    case U_TRADES:
      return undoTrades(nums, at, s);
    case U_AVERAGES:
      return undoAverages(nums, at, refs, r, s);
    case U_MARKET:
      return s.markets[Market.savedIndex(nums, at)]!.restoreFrom(nums, at, refs, r);
    default:
      throw new Error(`unknown undo entry ${op}`);
  }
}

function undoPosition(nums: Float64Array, at: number, refs: unknown[], r: number, s: VenueState): void {
  const marketIndex = nums[at]!;
  const account = s.accounts[nums[at + 1]!]!;
  const p = refs[r] as AccountPosition | undefined;
  if (p === undefined) return account.dropPosition(marketIndex);
  p.tradingPnlBase = refs[r + 1] as Money;
  p.feesBase = refs[r + 2] as Money;
  p.funding = refs[r + 3] as Money;
  account.restorePending(marketIndex, nums, at + 2);
  p.position.restoreFrom(nums, at + 2 + PENDING_SAVED, refs, r + 4);
  p.forgetCache();
}

/** Saves a market's scalar state (state, index, mark, band) and record lists (once per command: `CommandLog.touchMarket`). */
export function saveMarket(j: UndoJournal, market: Market): void {
  market.saveTo(j, U_MARKET);
}

/** Saves a market's funding averages as numbers and references (before their first change in a command). */
export function saveAverages(j: UndoJournal, market: Market): void {
  const at = j.entry(U_AVERAGES, 1 + 2 * TWAP_SAVED_NUMBERS);
  j.nums[at] = market.index;
  market.markTwap.saveTo(j.nums, at + 1, j);
  market.indexTwap.saveTo(j.nums, at + 1 + TWAP_SAVED_NUMBERS, j);
}

function undoAverages(nums: Float64Array, at: number, refs: unknown[], r: number, s: VenueState): void {
  const market = s.markets[nums[at]!]!;
  market.markTwap.restoreFrom(nums, at + 1, refs, r);
  market.indexTwap.restoreFrom(nums, at + 1 + TWAP_SAVED_NUMBERS, refs, r + TWAP_SAVED_REFS);
}

/** Saves a market's candles and session stats as numbers (before its first trade in a command). */
export function saveTrades(j: UndoJournal, market: Market): void {
  const at = j.entry(U_TRADES, 1 + CANDLES_SAVED + STATS_SAVED);
  j.nums[at] = market.index;
  market.candles.saveTo(j.nums, at + 1);
  market.stats.saveTo(j.nums, at + 1 + CANDLES_SAVED);
}

function undoTrades(nums: Float64Array, at: number, s: VenueState): void {
  const market = s.markets[nums[at]!]!;
  market.candles.restoreFrom(nums, at + 1);
  market.stats.restoreFrom(nums, at + 1 + CANDLES_SAVED);
}
