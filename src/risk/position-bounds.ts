/**
 * When a fill keeps a position's totals numbers (`Position`'s fast path) and a usual fill's
 * realized PnL keeps its account's counter a safe integer: bounds read straight from the
 * position's row (no call on the position), so a fill's check is a few loads and sums.
 */

/**
 * The position's numbers these bounds read (position.ts's `Pn`), as literals: an imported
 * constant costs V8's optimized code a load and a check per use; test/venue/account-row-layout
 * checks they agree.
 */
export const enum Pn {
  Cost = 1,
  BuyN = 5,
  SellN = 6,
  RealizedN = 7,
}

/**
 * Whether a fill of `notionalTicks` tick·lots keeps every total of the position whose numbers are
 * at `rows[at]` exact as a number: each moves by at most notionalTicks + openCost (closing lots
 * realizes at most their cost plus the fill's notional), so if that bound is safe, each step is
 * exact. Doubles of non-negative terms: a sum that passes 2^53 cannot round below it. False
 * once the totals are bigints (the open cost is NaN in the row then: every comparison fails).
 */
export function totalsStayNumbers(rows: readonly number[], at: number, notionalTicks: number): boolean {
  if (!Number.isSafeInteger(notionalTicks)) return false;
  return Math.abs(notionalTicks) + rows[at + Pn.Cost]! + Math.abs(rows[at + Pn.RealizedN]!) + Math.max(rows[at + Pn.BuyN]!, rows[at + Pn.SellN]!) <= Number.MAX_SAFE_INTEGER;
}

/**
 * True when a fill of `notionalTicks` tick·lots keeps every total of the position at `rows[at]` a
 * number (`totalsStayNumbers`) and the trading PnL it realizes, added to `pendingTicks` (the
 * account's counter of it), stays a safe integer: |realized| ≤ notionalTicks + the open cost it
 * closes. Then `Position.applyUsualFill` takes it without asking again.
 */
export function fillStaysNumbers(rows: readonly number[], at: number, notionalTicks: number, pendingTicks: number): boolean {
  return totalsStayNumbers(rows, at, notionalTicks) && Math.abs(notionalTicks) + rows[at + Pn.Cost]! + Math.abs(pendingTicks) <= Number.MAX_SAFE_INTEGER;
}
