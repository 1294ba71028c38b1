import type { AccountPosition, Account } from './account.ts';
import type { Market } from './market.ts';
import { tickLots } from '../risk/position.ts';
import type { VenueState } from './venue-state.ts';

/**
 * Books one fill's money: its realized trading PnL (`realizedTicks`, NaN when the position's
 * totals are bigints: then `lastRealizedBig`) and its fee, to the account, its position and the
 * venue's fees. The usual fill stays tick·lot counters until read (no bigint, see
 * `Account.addFillTicks`); a notional past 2^53, a fee rate without a whole factor or a
 * position past 2^53 takes the exact bigint path.
 */
export function bookFillMoney(s: VenueState, account: Account, position: AccountPosition, market: Market, priceTicks: number, lots: number, aggressor: boolean, realizedTicks: number): void {
  const notional = priceTicks * lots;
  if (!Number.isNaN(realizedTicks) && Number.isSafeInteger(notional) && (aggressor ? market.takerFeeFactor : market.makerFeeFactor) !== undefined) {
    // The usual fill: its PnL and fee stay tick·lot counters until read (no bigint).
    account.addFillTicks(market, realizedTicks, notional, aggressor);
    s.collectFeeTicks(market, notional, aggressor);
  } else {
    const fee = market.feeOf(tickLots(priceTicks, lots), aggressor);
    const realized = Number.isNaN(realizedTicks) ? position.position.lastRealizedBig : BigInt(realizedTicks);
    account.addFillMoney(position, realized * market.instrument.tickLotMoney, fee);
    s.feesCollectedBase += fee;
  }
}

/**
 * `bookFillMoney` of a usual fill (fill-undo.ts: `saveUsualFill` checked that its realized PnL and
 * notional add to the account's counters as safe integers and that the fee factor is whole):
 * the counters grow without the checks and folds of the general path.
 */
export function bookUsualFillMoney(s: VenueState, account: Account, market: Market, notionalTicks: number, aggressor: boolean, realizedTicks: number): void {
  account.addUsualFillTicks(market.index, realizedTicks, notionalTicks, aggressor);
  s.collectFeeTicks(market, notionalTicks, aggressor);
}
