import type { Account } from './account.ts';
import type { AccountPosition } from './account-position.ts';
import type { Market } from './market.ts';
import type { UndoJournal } from './undo-journal.ts';
import type { VenueState } from './venue-state.ts';
import { FILL_ROW_SAVED } from './account-rows.ts';
import { LOTS_SAVED } from '../risk/position.ts';

/**
 * The undo of what a usual fill changes in its account and market: the market row's open-order
 * and pending-money numbers and the position's numbers (one run of the row: the position's live
 * there) and the venue's fee counters of the market, copied before the fill as one entry of
 * numbers (`U_FILL`), with no Money. A usual fill is one whose every amount stays a number:
 * the position's totals (`fillStaysNumbers`), the pending tick·lot counters (no fold
 * into Money), a whole fee factor, a resting order's margin as price × lots (not `B_IM_BIG`),
 * and a position that exists already. Any other fill saves the account's and the position's
 * Money too (`saveAccount`, `savePosition`: undo.ts), and the market's state (`touchMarket`).
 *
 * The entry is written per fill, not once per command: a copy taken just before its fill, so
 * the journal, running newest first, composes it with any other copy or inverse of the same
 * account made before or after it in the command (a second fill, a cancel-all, a liquidation's
 * saves). It marks nothing as saved: a later `saveAccount` of the same account in the same
 * command still saves the Money this entry leaves out. One exception: a taker's usual fills
 * after its first in a command (a sweep) write none, the first one's copy being the state
 * before all of them (`TradeFills.fill`).
 */

export const U_FILL = 20;

let narrow = true;

/** Test hook: off, every fill saves the account and position whole (the path before, for twin tests). */
export function setNarrowFillUndo(on: boolean): void {
  narrow = on;
}

/**
 * Whether a fill of `lots` at `priceTicks` to `account` (with a position in `market`: the caller
 * asks) is a usual one (see above): then `saveUsualFill` is its undo. `bigMargin`: the order is
 * resting with its margin kept as Money (`B_IM_BIG`).
 */
export function isUsualFill(account: Account, market: Market, priceTicks: number, lots: number, aggressor: boolean, bigMargin: boolean): boolean {
  // `=== true`: a boolean argument of a call V8 does not inline is tested as any value would be
  // (false, '', 0, NaN, 0n: ~12 instructions), a comparison with true is one.
  if (narrow !== true || bigMargin === true) return false;
  if ((aggressor === true ? market.takerFeeFactor : market.makerFeeFactor) === undefined) return false;
  return account.usualFillFits(market.index, priceTicks * lots, aggressor);
}

/**
 * Writes the `U_FILL` entry of a usual fill (`isUsualFill`) to `account`, whose position in
 * `market` is `p`: a copy of what the fill changes, taken before it.
 */
export function saveUsualFill(j: UndoJournal, account: Account, p: AccountPosition, market: Market): void {
  const mi = market.index;
  const at = j.entry(U_FILL, 4 + FILL_ROW_SAVED + LOTS_SAVED);
  const nums = j.nums;
  nums[at] = mi;
  // The account by its id (the undo finds it in the venue's state): no reference in the entry.
  nums[at + 3] = account.id;
  // The venue's fee counters of the market (`VenueState.collectFeeTicks`): a usual fill is what
  // changes them, so the market's whole state is not saved for it (`touchMarket`).
  nums[at + 1] = market.takerFeeTicks;
  nums[at + 2] = market.makerFeeTicks;
  account.saveFillRow(mi, nums, at + 4);
  // The position is the account's in market `mi`: its lots' numbers (the rest are in the row).
  p.position.saveLotsTo(nums, at + 4 + FILL_ROW_SAVED, j);
}

/** Takes back a usual fill (the journal's entry at `nums[at]`; `s`: the venue's state, whose account it names). */
export function undoUsualFill(nums: Float64Array, at: number, s: VenueState): void {
  const account = s.accounts[nums[at + 3]!]!;
  const mi = nums[at]!;
  const p = account.positionAt(mi)!;
  p.market.takerFeeTicks = nums[at + 1]!;
  p.market.makerFeeTicks = nums[at + 2]!;
  account.restoreFillRow(mi, nums, at + 4);
  p.position.restoreLots(nums, at + 4 + FILL_ROW_SAVED);
  p.forgetCache();
}
