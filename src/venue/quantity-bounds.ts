import type { Account } from './account.ts';
import type { Market } from './market.ts';
import type { Side } from '../core/types.ts';

/**
 * Order entry's overflow bound. Lots are JavaScript numbers, exact only up to 2^53 − 1, and
 * several running totals add them up: the book's level totals (the L2 `q`), candle and session
 * volumes, and a position's bought / sold / net lots. An order that could push any of them
 * past `Number.MAX_SAFE_INTEGER` is rejected before anything changes, so a fill can never fail
 * (or silently round) halfway through settlement.
 *
 * The account bound covers fills that happen later, when the order rests and another order
 * trades against it: bought + sold lots + the remainder of open orders only grows by an
 * accepted order's quantity, and a fill moves lots from "open" to "bought or sold" without
 * changing the sum, so if the sum fits at entry every later fill of those orders fits too
 * (and |net| ≤ bought + sold). The volume bounds are checked when the order would trade on
 * arrival (`crosses`): a trade only ever happens at a taker's entry.
 *
 * `time.nowSec` is the sim time (Unix seconds) a trade would happen at (read only for an order
 * that crosses: as an argument it would be a heap number per order, past the small integers).
 * Returns the reject text, or undefined when the order fits.
 */
export function quantityOverflow(account: Account, market: Market, side: Side, priceTicks: number, qty: number, time: { readonly nowSec: number }, crosses: boolean): string | undefined {
  const room = Number.MAX_SAFE_INTEGER - qty;
  // The bound decides almost always; the exact level total only when it cannot (written so a
  // bound that is not a number, from a snapshot made before it existed, asks the book).
  if (!(market.levelLotsBound <= room) && market.book.levelLots(side, priceTicks) > room) return 'quantity would overflow the price level total';
  if (crosses) {
    const sec = time.nowSec;
    if (!market.candles.volumeFits(sec, qty) || !market.stats.volumeFits(sec, qty)) return 'quantity would overflow the traded volume';
  }
  if (account.tradedLotsIn(market) + account.openLotsIn(market) > room) return 'quantity would overflow the position totals';
  return undefined;
}
