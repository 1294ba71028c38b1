import type { Money } from '../core/money.ts';
import type { Market } from './market.ts';
import type { OrderStore } from './order-store.ts';

/**
 * The market row's numbers this file reads (`Mr` of account-rows.ts) as literals: an imported
 * constant costs a load and a check at every use in optimized code; test/venue/account-row-layout
 * checks they agree.
 */
export const enum Mr {
  Count = 0,
  Lots = 1,
  ImNotional = 2,
  BuyLots = 8,
  SellLots = 9,
  Saved = 14,
  SavedPosition = 15,
  PerMarket = 16,
}
/** The order record's fields and flag this file reads (order-record.ts's `F_*`, `Rec.ImBig`), likewise. */
export const enum Rec {
  Bits = 1,
  Price = 2,
  Qty = 3,
  Filled = 4,
  ImBig = 32,
}

/**
 * An account's market rows and what its open orders count in them (the base of `Account`):
 * per market, the open orders' count, remaining lots and margin notional, and the undo's
 * first-touch marks; the margin of orders kept as Money. Resting, filling and ending an order
 * change these and nothing else of the account; ending is taken back exactly by `reopenOrder`
 * (order-close.ts).
 */
export class AccountOpenOrders {
  /**
   * Initial margin of open orders kept as Money, one per order (`Rec.ImBig`: no whole Money factor
   * in their market, or a sum past 2^53); the others count as price × lots in their market's row
   * (`Mr.ImNotional`): see `openOrdersIm`.
   */
  protected openImBig: Money = 0n;
  /**
   * `openImBig` as a double, set with it (`setOpenImBig`): the margin pre-check's term, read per
   * order without a bigint comparison and conversion. Undefined in a snapshot made before it
   * existed: the pre-check then reads NaN and leaves the answer to the exact check.
   */
  protected openImBigApprox = 0;
  /**
   * Per market index, `Mr.PerMarket` numbers side by side (not five heap objects): open orders'
   * count, remaining lots (order entry's overflow bound) and margin notional, the fills' pending
   * money, the position's own numbers (its `Position` reads and writes them here), the undo's
   * first-touch marks (`markSaved`).
   */
  protected readonly byMarket: number[] = [];

  protected setOpenImBig(value: Money): void {
    this.openImBig = value;
    this.openImBigApprox = Number(value);
  }

  /** bought + sold lots of the position in `market` (0 without one). */
  tradedLotsIn(market: Market): number {
    const m = market.index * Mr.PerMarket;
    return (this.byMarket[m + Mr.BuyLots] ?? 0) + (this.byMarket[m + Mr.SellLots] ?? 0);
  }

  /** Open orders of this account in `market`. */
  openCountIn(market: Market): number {
    return this.byMarket[market.index * Mr.PerMarket + Mr.Count] ?? 0;
  }

  /** Σ remaining lots of this account's open orders in `market`. */
  openLotsIn(market: Market): number {
    return this.byMarket[market.index * Mr.PerMarket + Mr.Lots] ?? 0;
  }

  /**
   * The order in `slot` rests: reserve its initial margin, count it and its unfilled lots (the
   * order itself is found by a scan of the records: `openSlots`). The margin counts as price × lots in the market's row when the market has a whole
   * Money factor and the row's sum stays below 2^53, else as Money kept with the order.
   */
  addOpenOrder(store: OrderStore, slot: number, market: Market, unfilledLots: number): void {
    const m = this.marketRow(market.index);
    const rows = this.byMarket;
    rows[m + Mr.Count]! += 1;
    rows[m + Mr.Lots]! += unfilledLots;
    const priceTicks = store.field(slot, Rec.Price);
    const notional = rows[m + Mr.ImNotional]! + priceTicks * unfilledLots;
    if (market.imFactor !== undefined && Number.isSafeInteger(notional)) rows[m + Mr.ImNotional] = notional;
    else {
      const im = market.initialMarginOf(priceTicks, unfilledLots);
      store.setField(slot, Rec.Bits, store.field(slot, Rec.Bits) | Rec.ImBig);
      store.setReservedIm(slot, im);
      this.setOpenImBig(this.openImBig + im);
    }
  }

  /** The open order in `slot` (of `market`) filled `lots`: its remainder and margin shrink. Call before its filled lots grow. */
  restingFilled(store: OrderStore, slot: number, market: Market, lots: number): void {
    const m = market.index * Mr.PerMarket;
    const rows = this.byMarket;
    rows[m + Mr.Lots]! -= lots;
    const priceTicks = store.field(slot, Rec.Price);
    if (store.has(slot, Rec.ImBig)) {
      const im = market.initialMarginOf(priceTicks, store.field(slot, Rec.Qty) - store.field(slot, Rec.Filled) - lots);
      this.setOpenImBig(this.openImBig + im - store.reservedIm[slot]!);
      store.setReservedIm(slot, im);
    } else rows[m + Mr.ImNotional]! -= priceTicks * lots;
  }

  /**
   * True the first time command number `epoch` asks about this account in market
   * `marketIndex` (the undo saves an account once per command and market).
   */
  markSaved(marketIndex: number, epoch: number, position: boolean): boolean {
    const at = this.marketRow(marketIndex) + (position ? Mr.SavedPosition : Mr.Saved);
    if (this.byMarket[at] === epoch) return false;
    this.byMarket[at] = epoch;
    return true;
  }

  /** Where market `marketIndex`'s numbers start in `byMarket` (rows up to it made, zeroed). */
  protected marketRow(marketIndex: number): number {
    const m = marketIndex * Mr.PerMarket;
    while (this.byMarket.length < m + Mr.PerMarket) this.byMarket.push(0);
    return m;
  }

  /** An open order ends: its margin and lots are released. */
  removeOpenOrder(store: OrderStore, slot: number, marketIndex: number, unfilledLots: number): void {
    const m = marketIndex * Mr.PerMarket;
    const rows = this.byMarket;
    rows[m + Mr.Count]! -= 1;
    rows[m + Mr.Lots]! -= unfilledLots;
    if (store.has(slot, Rec.ImBig)) {
      this.setOpenImBig(this.openImBig - store.reservedIm[slot]!);
      store.setReservedIm(slot, 0n);
    } else rows[m + Mr.ImNotional]! -= store.field(slot, Rec.Price) * unfilledLots;
  }

  /** Takes back `removeOpenOrder` exactly (the undo of a failed command): `reservedIm`, the Money it released for an order flagged `Rec.ImBig`. */
  reopenOrder(store: OrderStore, slot: number, marketIndex: number, unfilledLots: number, reservedIm: Money | undefined): void {
    const m = marketIndex * Mr.PerMarket;
    const rows = this.byMarket;
    rows[m + Mr.Count]! += 1;
    rows[m + Mr.Lots]! += unfilledLots;
    if (reservedIm !== undefined) {
      this.setOpenImBig(this.openImBig + reservedIm);
      store.setReservedIm(slot, reservedIm);
    } else rows[m + Mr.ImNotional]! += store.field(slot, Rec.Price) * unfilledLots;
  }
}
