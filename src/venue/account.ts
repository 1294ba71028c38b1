import { copyNumbers } from '../core/arrays.ts';
import type { Money } from '../core/money.ts';
import { POSITION_ROW_NUMBERS } from '../risk/position.ts';
import { fillStaysNumbers } from '../risk/position-bounds.ts';
import { AccountOpenOrders } from './account-open-orders.ts';
import { AccountPosition } from './account-position.ts';
import { APPROX_TERMS, MONEY_SAVED, PENDING_SAVED, copyPending, countFill, marginFitsApprox, pendingCashOf, pendingMoneyOf } from './account-rows.ts';
import type { Market } from './market.ts';

export { AccountPosition, marginOf } from './account-position.ts';
export { MONEY_SAVED, PENDING_SAVED } from './account-rows.ts';

const NO_PENDING = new Float64Array(PENDING_SAVED);

/**
 * The market row's numbers (`Mr` of account-rows.ts) and the pre-check's terms (`Tm`) this file
 * reads, as literals: an imported constant costs a load and a check at every use in optimized
 * code; test/venue/account-row-layout checks they agree.
 */
export const enum Mr {
  Count = 0,
  ImNotional = 2,
  Realized = 3,
  Taker = 4,
  Maker = 5,
  Position = 6,
  FillEnd = 14,
  PerMarket = 16,
}
export const enum Tm {
  Cash = 0,
  OpenImBig = 1,
  OrderIm = 2,
}

/** One user's money, positions and open orders. */
export class Account extends AccountOpenOrders {
  /** Cash but for the money of fills still pending in the market rows (`cash` adds it). */
  private cashBase: Money;
  /** The margin pre-check's doubles (`Tm`: cash kept, the others per check): not arguments, which are boxed per call. */
  private readonly approxTerms = new Float64Array(APPROX_TERMS);
  /** Σ admin credits and debits. */
  adjustments: Money = 0n;
  /** Positions by market index (sparse; iterate `positionList` for a stable order). */
  private readonly positionByMarket: (AccountPosition | undefined)[] = [];
  readonly positionList: AccountPosition[] = [];

  constructor(
    readonly id: number,
    readonly username: string,
    readonly startingCash: Money,
    /** The venue's markets, by index (their margin factors). */
    private readonly markets: readonly Market[],
  ) {
    super();
    this.cashBase = startingCash;
    this.approxTerms[Tm.Cash] = Number(startingCash);
  }

  /** Cash: starting cash + admin adjustments + Σ realized (trading − fees + funding). */
  get cash(): Money {
    return this.cashBase + this.pendingCash();
  }

  set cash(value: Money) {
    this.setCashBase(value - this.pendingCash());
  }

  private setCashBase(value: Money): void {
    this.cashBase = value;
    this.approxTerms[Tm.Cash] = Number(value);
  }

  /**
   * Books one fill's money in `market` without a bigint: `realizedTicks` of trading PnL and
   * `notionalTicks` (price × lots) at the taker's or maker's fee, as tick·lot counters in the
   * market row (read as Money by `cash`, `AccountPosition.tradingPnl` and `.fees`). Exact: a
   * counter that would pass 2^53 is first folded into the Money it stands for. The caller
   * checked that both are safe integers and that the market's fee factor is whole.
   */
  addFillTicks(market: Market, realizedTicks: number, notionalTicks: number, aggressor: boolean): void {
    const m = this.marketRow(market.index);
    const rows = this.byMarket;
    if (countFill(rows, m, realizedTicks, notionalTicks, aggressor)) return;
    this.foldPending(market.index);
    countFill(rows, m, realizedTicks, notionalTicks, aggressor);
  }

  /** `addFillTicks` of a usual fill, whose sums were checked to stay safe integers (fill-undo.ts): no fold. */
  addUsualFillTicks(marketIndex: number, realizedTicks: number, notionalTicks: number, aggressor: boolean): void {
    const rows = this.byMarket;
    const m = marketIndex * Mr.PerMarket;
    rows[m + Mr.Realized] = rows[m + Mr.Realized]! + realizedTicks;
    const fee = m + (aggressor === true ? Mr.Taker : Mr.Maker);
    rows[fee] = rows[fee]! + notionalTicks;
  }

  /** Books money of a fill that has no tick·lot counter (past 2^53, or a fee rate without whole factor). */
  addFillMoney(p: AccountPosition, realized: Money, fee: Money): void {
    p.addToBases(realized, fee);
    this.setCashBase(this.cashBase + realized - fee);
  }

  /** Realized trading PnL and fees still pending as counters in market `marketIndex`, as Money. */
  pendingOf(marketIndex: number): { realized: Money; fees: Money } {
    return pendingMoneyOf(this.byMarket, marketIndex * Mr.PerMarket, this.markets[marketIndex]!);
  }

  /** Σ over markets of pending realized PnL − fees, as Money. */
  private pendingCash(): Money {
    return pendingCashOf(this.byMarket, this.markets);
  }

  /** Turns the counters of market `marketIndex` into Money in the position's and the cash's bigints. */
  private foldPending(marketIndex: number): void {
    const { realized, fees } = this.pendingOf(marketIndex);
    copyPending(NO_PENDING, 0, this.byMarket, marketIndex * Mr.PerMarket + Mr.Realized);
    this.addFillMoney(this.positionByMarket[marketIndex]!, realized, fees);
  }

  /** The pending counters of market `marketIndex` as `restorePending` takes them back. */
  savePending(marketIndex: number, nums: Float64Array, at: number): void {
    copyPending(this.byMarket, this.marketRow(marketIndex) + Mr.Realized, nums, at);
  }

  restorePending(marketIndex: number, nums: Float64Array, at: number): void {
    copyPending(nums, at, this.byMarket, this.marketRow(marketIndex) + Mr.Realized);
  }

  /** Σ initial margin reserved by open orders (exact: Σ notional × factor per market, plus the orders kept as Money). */
  get openOrdersIm(): Money {
    let total = this.openImBig;
    const rows = this.byMarket;
    for (let m = 0, i = 0; m < rows.length; m += Mr.PerMarket, i++) {
      const notional = rows[m + Mr.ImNotional]!;
      if (notional !== 0) total += BigInt(notional) * this.markets[i]!.imFactor!;
    }
    return total;
  }

  /** The position in `market`, created on first use. */
  positionIn(market: Market): AccountPosition {
    let p = this.positionByMarket[market.index];
    if (p === undefined) {
      // Its numbers live in the market row (zero until it trades).
      p = new AccountPosition(market, this, this.byMarket, this.marketRow(market.index) + Mr.Position);
      this.positionByMarket[market.index] = p;
      this.positionList.push(p);
    }
    return p;
  }

  /** The position in market `marketIndex` if the account ever traded it. */
  positionAt(marketIndex: number): AccountPosition | undefined {
    return this.positionByMarket[marketIndex];
  }

  /** The position in `market` if the account ever traded it. */
  findPosition(market: Market): AccountPosition | undefined {
    return this.positionAt(market.index);
  }

  /** Whether `imApprox` (≈ a new order's initial margin) more fits, in doubles: 1 fits, -1 does not, 0 too close to call (`marginFitsApprox`). */
  initialMarginFits(imApprox: number): number {
    this.approxTerms[Tm.OrderIm] = imApprox;
    return this.marginFits();
  }

  /** `initialMarginFits` of `qtyLots` at `priceTicks` in `market` (order entry: no double argument). */
  orderMarginFits(market: Market, priceTicks: number, qtyLots: number): number {
    this.approxTerms[Tm.OrderIm] = priceTicks * qtyLots * market.imPerTickLotApprox;
    return this.marginFits();
  }

  private marginFits(): number {
    this.approxTerms[Tm.OpenImBig] = this.openImBigApprox;
    return marginFitsApprox(this.byMarket, this.markets, this.positionByMarket, this.approxTerms);
  }

  /** Money (account-wide) and open-order numbers in market `marketIndex`, as `restoreMoney` takes them back: `MONEY_SAVED` numbers. */
  saveMoney(marketIndex: number, nums: Float64Array, at: number, out: { ref(value: unknown): void }): void {
    this.saveOpenRow(this.marketRow(marketIndex), nums, at);
    out.ref(this.cashBase);
    out.ref(this.adjustments);
    out.ref(this.openImBig);
  }

  /** Puts back what `saveMoney` wrote (the venue's undo). */
  restoreMoney(marketIndex: number, nums: Float64Array, at: number, refs: readonly unknown[], refAt: number): void {
    this.setCashBase(refs[refAt] as Money);
    this.adjustments = refs[refAt + 1] as Money;
    this.setOpenImBig(refs[refAt + 2] as Money);
    copyNumbers(nums, at, this.byMarket, this.marketRow(marketIndex) + Mr.Count, MONEY_SAVED);
  }

  /**
   * The row at `m`'s open-order numbers (count, lots, margin notional): `MONEY_SAVED` numbers at
   * `nums[at]`. A loop in place, not `copyNumbers` as `restoreMoney`: this runs with the fills'
   * saves (trade-fills.ts), the restore only when a command fails.
   */
  private saveOpenRow(m: number, nums: Float64Array, at: number): void {
    const rows = this.byMarket;
    for (let k = 0; k < MONEY_SAVED; k++) nums[at + k] = rows[m + Mr.Count + k]!;
  }

  /**
   * Whether a fill of `notionalTicks` in market `marketIndex` (whose position exists) keeps every
   * amount a number, read from the market row alone: the position's totals and the realized PnL
   * it adds to the pending counter (`fillStaysNumbers`), and the taker's or maker's fee counter
   * (`countFill` without a fold).
   */
  usualFillFits(marketIndex: number, notionalTicks: number, aggressor: boolean): boolean {
    const rows = this.byMarket;
    const m = marketIndex * Mr.PerMarket;
    return fillStaysNumbers(rows, m + Mr.Position, notionalTicks, rows[m + Mr.Realized]!) && Number.isSafeInteger(rows[m + (aggressor === true ? Mr.Taker : Mr.Maker)]! + notionalTicks);
  }

  /**
   * What a usual fill changes of market `marketIndex`'s row (fill-undo.ts), one run of it: the
   * open-order numbers, the pending counters and the position's numbers, as `FILL_ROW_SAVED`
   * (= `Mr.FillEnd`, test/venue/account-row-layout) numbers at `nums[at]`.
   */
  saveFillRow(marketIndex: number, nums: Float64Array, at: number): void {
    const rows = this.byMarket;
    const m = marketIndex * Mr.PerMarket;
    // Written out, not a loop: per number a load and a store (a loop of 14 cost ~30 a number).
    nums[at] = rows[m]!;
    nums[at + 1] = rows[m + 1]!;
    nums[at + 2] = rows[m + 2]!;
    nums[at + 3] = rows[m + 3]!;
    nums[at + 4] = rows[m + 4]!;
    nums[at + 5] = rows[m + 5]!;
    nums[at + 6] = rows[m + 6]!;
    nums[at + 7] = rows[m + 7]!;
    nums[at + 8] = rows[m + 8]!;
    nums[at + 9] = rows[m + 9]!;
    nums[at + 10] = rows[m + 10]!;
    nums[at + 11] = rows[m + 11]!;
    nums[at + 12] = rows[m + 12]!;
    nums[at + 13] = rows[m + 13]!;
  }

  /** Puts back what `saveFillRow` wrote. */
  restoreFillRow(marketIndex: number, nums: Float64Array, at: number): void {
    copyNumbers(nums, at, this.byMarket, marketIndex * Mr.PerMarket, Mr.FillEnd);
  }

  /** Forgets the position in market `marketIndex` (created by a command that was rolled back). */
  dropPosition(marketIndex: number): void {
    const p = this.positionByMarket[marketIndex];
    if (p === undefined) return;
    this.positionByMarket[marketIndex] = undefined;
    // No fill before the position existed: nothing was pending in this market, its numbers were 0.
    this.restorePending(marketIndex, NO_PENDING, 0);
    const at = this.marketRow(marketIndex) + Mr.Position;
    for (let k = at; k < at + POSITION_ROW_NUMBERS; k++) this.byMarket[k] = 0;
    this.positionList.splice(this.positionList.indexOf(p), 1);
  }

  /** cash + unrealized PnL of every position at current marks. */
  equity(): Money {
    let equity = this.cash;
    for (const p of this.positionList) equity += p.unrealized();
    return equity;
  }

  /** Σ initial (or maintenance) margin of positions at current marks. */
  positionsMargin(kind: 'initial' | 'maintenance'): Money {
    let total = 0n;
    for (const p of this.positionList) {
      const inst = p.market.instrument;
      total += p.margin(kind === 'initial' ? inst.initialMarginPct : inst.maintenanceMarginPct);
    }
    return total;
  }

  /** True when any position is open. */
  hasOpenPosition(): boolean {
    for (const p of this.positionList) if (p.position.netLots !== 0) return true;
    return false;
  }
}
