import type { Money } from '../core/money.ts';
import { M_COUNT, M_IM_NOTIONAL, M_LOTS, M_SAVED, M_SAVED_POSITION, M_TRADED, PER_MARKET } from './account-rows.ts';
import type { Market } from './market.ts';
import { B_IM_BIG, F_BITS, F_FILLED, F_PRICE, F_QTY, type OrderStore } from './order-store.ts';

/**
 * An account's market rows and what its open orders count in them (the base of `Account`):
 * per market, the open orders' count, remaining lots and margin notional, and the undo's
 * first-touch marks; the margin of orders kept as Money. Resting, filling and ending an order
 * change these and nothing else of the account; ending is taken back exactly by `reopenOrder`
 * (order-close.ts).
 */
export class AccountOpenOrders {
  /**
   * Initial margin of open orders kept as Money, one per order (`B_IM_BIG`: no whole Money factor
   * in their market, or a sum past 2^53); the others count as price × lots in their market's row
   * (`M_IM_NOTIONAL`): see `openOrdersIm`.
   */
  protected openImBig: Money = 0n;
  /**
   * Per market index, `PER_MARKET` numbers side by side (a cache line, not five heap objects): open
   * orders' count, remaining lots (order entry's overflow bound) and margin notional, the undo's
   * first-touch marks (`markSaved`), the position's totals.
   */
  protected readonly byMarket: number[] = [];

  /** bought + sold lots of the position in `market` (0 without one). */
  tradedLotsIn(market: Market): number {
    return this.byMarket[market.index * PER_MARKET + M_TRADED] ?? 0;
  }

  /** Open orders of this account in `market`. */
  openCountIn(market: Market): number {
    return this.byMarket[market.index * PER_MARKET + M_COUNT] ?? 0;
  }

  /** Σ remaining lots of this account's open orders in `market`. */
  openLotsIn(market: Market): number {
    return this.byMarket[market.index * PER_MARKET + M_LOTS] ?? 0;
  }

  /**
   * The order in `slot` rests: reserve its initial margin, count it and its unfilled lots (the
   * order itself is found by a scan of the records: `openSlots`). The margin counts as price × lots in the market's row when the market has a whole
   * Money factor and the row's sum stays below 2^53, else as Money kept with the order.
   */
  addOpenOrder(store: OrderStore, slot: number, market: Market, unfilledLots: number): void {
    const m = this.marketRow(market.index);
    const rows = this.byMarket;
    rows[m + M_COUNT]! += 1;
    rows[m + M_LOTS]! += unfilledLots;
    const priceTicks = store.field(slot, F_PRICE);
    const notional = rows[m + M_IM_NOTIONAL]! + priceTicks * unfilledLots;
    if (market.imFactor !== undefined && Number.isSafeInteger(notional)) rows[m + M_IM_NOTIONAL] = notional;
    else {
      const im = market.initialMarginOf(priceTicks, unfilledLots);
      store.setField(slot, F_BITS, store.field(slot, F_BITS) | B_IM_BIG);
      store.setReservedIm(slot, im);
      this.openImBig += im;
    }
  }

  /** The open order in `slot` (of `market`) filled `lots`: its remainder and margin shrink. Call before its filled lots grow. */
  restingFilled(store: OrderStore, slot: number, market: Market, lots: number): void {
    const m = market.index * PER_MARKET;
    const rows = this.byMarket;
    rows[m + M_LOTS]! -= lots;
    const priceTicks = store.field(slot, F_PRICE);
    if (store.has(slot, B_IM_BIG)) {
      const im = market.initialMarginOf(priceTicks, store.field(slot, F_QTY) - store.field(slot, F_FILLED) - lots);
      this.openImBig += im - store.reservedIm[slot]!;
      store.setReservedIm(slot, im);
    } else rows[m + M_IM_NOTIONAL]! -= priceTicks * lots;
  }

  /**
   * True the first time command number `epoch` asks about this account in market
   * `marketIndex` (the undo saves an account once per command and market).
   */
  markSaved(marketIndex: number, epoch: number, position: boolean): boolean {
    const at = this.marketRow(marketIndex) + (position ? M_SAVED_POSITION : M_SAVED);
    if (this.byMarket[at] === epoch) return false;
    this.byMarket[at] = epoch;
    return true;
  }

  /** Where market `marketIndex`'s numbers start in `byMarket` (rows up to it made, zeroed). */
  protected marketRow(marketIndex: number): number {
    const m = marketIndex * PER_MARKET;
    while (this.byMarket.length < m + PER_MARKET) this.byMarket.push(0);
    return m;
  }

  /** An open order ends: its margin and lots are released. */
  removeOpenOrder(store: OrderStore, slot: number, marketIndex: number, unfilledLots: number): void {
    const m = marketIndex * PER_MARKET;
    const rows = this.byMarket;
    rows[m + M_COUNT]! -= 1;
    rows[m + M_LOTS]! -= unfilledLots;
    if (store.has(slot, B_IM_BIG)) {
      this.openImBig -= store.reservedIm[slot]!;
      store.setReservedIm(slot, 0n);
    } else rows[m + M_IM_NOTIONAL]! -= store.field(slot, F_PRICE) * unfilledLots;
  }

  /** Takes back `removeOpenOrder` exactly (the undo of a failed command): `reservedIm`, the Money it released for an order flagged `B_IM_BIG`. */
  reopenOrder(store: OrderStore, slot: number, marketIndex: number, unfilledLots: number, reservedIm: Money | undefined): void {
    const m = marketIndex * PER_MARKET;
    const rows = this.byMarket;
    rows[m + M_COUNT]! += 1;
    rows[m + M_LOTS]! += unfilledLots;
    if (reservedIm !== undefined) {
      this.openImBig += reservedIm;
      store.setReservedIm(slot, reservedIm);
    } else rows[m + M_IM_NOTIONAL]! += store.field(slot, F_PRICE) * unfilledLots;
  }
}
