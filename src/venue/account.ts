import type { Money } from '../core/money.ts';
import type { Position } from '../risk/position.ts';
import { AccountPosition } from './account-position.ts';
import type { Market } from './market.ts';
import { B_IM_BIG, F_BITS, F_FILLED, F_NEXT, F_PREV, F_PRICE, F_QTY, NO_SLOT, type OrderStore } from './order-store.ts';

export { AccountPosition, marginOf } from './account-position.ts';

// The numbers of `Account.byMarket`, per market.
const M_COUNT = 0;
const M_LOTS = 1;
const M_SAVED = 2;
/** Σ priceTicks × remaining lots of open orders whose margin is this sum × the market's factor. */
const M_IM_NOTIONAL = 3;
// The position's bought + sold lots, net lots and open cost (tick·lots; NaN past 2^53), copied
// from it after every change (`syncPosition`): the order checks read them from here.
const M_TRADED = 4;
const M_NET = 5;
const M_COST = 6;
/** The undo's first-touch mark of the position (`M_SAVED`: of the money and open orders). */
const M_SAVED_POSITION = 7;
const PER_MARKET = 8;

/** One user's money, positions and open orders. */
export class Account {
  private cashMoney: Money;
  /** `cash` as a double (for the margin pre-check: no bigint conversion per order). */
  private cashApprox: number;
  /** Σ admin credits and debits. */
  adjustments: Money = 0n;
  /** Positions by market index (sparse; iterate `positionList` for a stable order). */
  private readonly positionByMarket: (AccountPosition | undefined)[] = [];
  readonly positionList: AccountPosition[] = [];
  /**
   * Open orders, oldest first, as a chain through the order records (`F_PREV` / `F_NEXT`):
   * first and last slot, and how many.
   */
  openHead = NO_SLOT;
  openTail = NO_SLOT;
  openCount = 0;
  /**
   * Initial margin of the open orders kept as Money, one per order (`B_IM_BIG`): orders of a
   * market whose margin rate gives no whole Money factor, or whose sum would pass 2^53. The
   * others count as price × lots in their market's row (`M_IM_NOTIONAL`): see `openOrdersIm`.
   */
  private openImBig: Money = 0n;
  /**
   * Per market index, `PER_MARKET` numbers side by side (one cache line, where they were five
   * heap objects): open order count, Σ remaining lots of open orders (for the overflow bound of
   * order entry), the undo's first-touch mark (`markSaved`), the open orders' margin notional,
   * and the position's totals.
   */
  private readonly byMarket: number[] = [];

  constructor(
    readonly id: number,
    readonly username: string,
    readonly startingCash: Money,
    /** The venue's markets, by index (their margin factors). */
    private readonly markets: readonly Market[],
  ) {
    this.cashMoney = startingCash;
    this.cashApprox = Number(startingCash);
  }

  /** Cash: starting cash + admin adjustments + Σ realized (trading − fees + funding). */
  get cash(): Money {
    return this.cashMoney;
  }

  set cash(value: Money) {
    this.cashMoney = value;
    this.cashApprox = Number(value);
  }

  /** Σ initial margin reserved by open orders (exact: Σ notional × factor per market, plus the orders kept as Money). */
  get openOrdersIm(): Money {
    let total = this.openImBig;
    const rows = this.byMarket;
    for (let m = 0; m < rows.length; m += PER_MARKET) {
      const notional = rows[m + M_IM_NOTIONAL]!;
      if (notional !== 0) total += BigInt(notional) * this.markets[m / PER_MARKET]!.imFactor!;
    }
    return total;
  }

  /** bought + sold lots of the position in `market` (0 without one). */
  tradedLotsIn(market: Market): number {
    return this.byMarket[market.index * PER_MARKET + M_TRADED] ?? 0;
  }

  /** Copies the position's totals into its market row (after a fill, or an undo put it back). */
  syncPosition(marketIndex: number, position: Position | undefined): void {
    const m = this.marketRow(marketIndex);
    const rows = this.byMarket;
    rows[m + M_TRADED] = position === undefined ? 0 : position.buyLots + position.sellLots;
    rows[m + M_NET] = position === undefined ? 0 : position.netLots;
    rows[m + M_COST] = position === undefined ? 0 : position.openCostNumber;
  }

  /** The position in `market`, created on first use. */
  positionIn(market: Market): AccountPosition {
    let p = this.positionByMarket[market.index];
    if (p === undefined) {
      p = new AccountPosition(market);
      this.positionByMarket[market.index] = p;
      this.positionList.push(p);
    }
    return p;
  }

  /** The position in `market` if the account ever traded it. */
  findPosition(market: Market): AccountPosition | undefined {
    return this.positionByMarket[market.index];
  }

  openCountIn(market: Market): number {
    return this.byMarket[market.index * PER_MARKET + M_COUNT] ?? 0;
  }

  /** Σ remaining lots of this account's open orders in `market`. */
  openLotsIn(market: Market): number {
    return this.byMarket[market.index * PER_MARKET + M_LOTS] ?? 0;
  }

  /**
   * The order in `slot` rests: chain it last, reserve its initial margin, count its unfilled
   * lots. The margin counts as price × lots in the market's row when the market has a whole
   * Money factor and the row's sum stays below 2^53, else as Money kept with the order.
   */
  addOpenOrder(store: OrderStore, slot: number, market: Market, unfilledLots: number): void {
    store.setField(slot, F_PREV, this.openTail);
    store.setField(slot, F_NEXT, NO_SLOT);
    if (this.openTail === NO_SLOT) this.openHead = slot;
    else store.setField(this.openTail, F_NEXT, slot);
    this.openTail = slot;
    this.openCount++;
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
      store.reservedIm[slot] = im;
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
      store.reservedIm[slot] = im;
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
  private marketRow(marketIndex: number): number {
    const m = marketIndex * PER_MARKET;
    while (this.byMarket.length < m + PER_MARKET) this.byMarket.push(0);
    return m;
  }

  /** Unchains an open order and releases its margin and lots. */
  removeOpenOrder(store: OrderStore, slot: number, marketIndex: number, unfilledLots: number): void {
    const prev = store.field(slot, F_PREV);
    const next = store.field(slot, F_NEXT);
    if (prev === NO_SLOT) this.openHead = next;
    else store.setField(prev, F_NEXT, next);
    if (next === NO_SLOT) this.openTail = prev;
    else store.setField(next, F_PREV, prev);
    this.openCount--;
    const m = marketIndex * PER_MARKET;
    const rows = this.byMarket;
    rows[m + M_COUNT]! -= 1;
    rows[m + M_LOTS]! -= unfilledLots;
    if (store.has(slot, B_IM_BIG)) {
      this.openImBig -= store.reservedIm[slot]!;
      store.reservedIm[slot] = 0n;
    } else rows[m + M_IM_NOTIONAL]! -= store.field(slot, F_PRICE) * unfilledLots;
  }

  /** Slots of the open orders, oldest first (a copy: safe to cancel while iterating). */
  openSlots(store: OrderStore): number[] {
    const out: number[] = [];
    for (let s = this.openHead; s !== NO_SLOT; s = store.field(s, F_NEXT)) out.push(s);
    return out;
  }

  /**
   * Whether `imApprox` (≈ the initial margin of a new order, as a double) more initial margin
   * fits: openOrdersIm + positions' initial margin + im ≤ equity. Decided in doubles, without a
   * bigint, when the slack is clearly away from zero: 1 fits, -1 does not, 0 too close to call
   * (or a value is not representable here), and the caller decides exactly. Why this is exact:
   * every term is an exact Money amount off by at most a few units in 2^53 of its size as a
   * double, so a slack beyond (terms + 8) × 2^-52 × Σ|terms| has the sign of the exact slack.
   */
  initialMarginFits(imApprox: number): number {
    const cash = this.cashApprox;
    const big = this.openImBig === 0n ? 0 : Number(this.openImBig);
    let slack = cash - big - imApprox;
    let size = Math.abs(cash) + Math.abs(big) + Math.abs(imApprox);
    const rows = this.byMarket;
    let terms = 3;
    for (let m = 0; m < rows.length; m += PER_MARKET) {
      const notional = rows[m + M_IM_NOTIONAL]!;
      const net = rows[m + M_NET]!;
      if (notional === 0 && net === 0) continue;
      const market = this.markets[m / PER_MARKET]!;
      const imPerTickLot = market.imPerTickLotApprox;
      if (notional !== 0) {
        const open = notional * imPerTickLot;
        slack -= open;
        size += Math.abs(open);
      }
      if (net !== 0) {
        const mark = market.markTicks;
        const cost = rows[m + M_COST]!;
        const uTicks = Number.isNaN(cost) ? this.positionByMarket[m / PER_MARKET]!.position.unrealizedTicksApprox(mark) : net > 0 ? mark * net - cost : cost + mark * net;
        const u = uTicks * market.tickLotMoneyApprox;
        const im = Math.abs(net) * mark * imPerTickLot;
        slack += u - im;
        size += Math.abs(u) + Math.abs(im);
      }
      terms += 3;
    }
    if (!Number.isFinite(slack) || !Number.isFinite(size)) return 0;
    const error = size * (terms + 8) * 2 ** -52;
    return slack > error ? 1 : slack < -error ? -1 : 0;
  }

  /** Money and open-order numbers (account-wide, then in market `marketIndex`) as `restoreMoney` takes them back. */
  saveMoney(marketIndex: number, nums: Float64Array, at: number, out: { ref(value: unknown): void }): void {
    const m = this.marketRow(marketIndex);
    nums[at] = this.byMarket[m + M_COUNT]!;
    nums[at + 1] = this.byMarket[m + M_LOTS]!;
    nums[at + 2] = this.byMarket[m + M_IM_NOTIONAL]!;
    nums[at + 3] = this.openHead;
    nums[at + 4] = this.openTail;
    nums[at + 5] = this.openCount;
    out.ref(this.cashMoney);
    out.ref(this.adjustments);
    out.ref(this.openImBig);
  }

  /** Puts back what `saveMoney` wrote (the venue's undo). */
  restoreMoney(marketIndex: number, nums: Float64Array, at: number, refs: readonly unknown[], refAt: number): void {
    this.cash = refs[refAt] as Money;
    this.adjustments = refs[refAt + 1] as Money;
    this.openImBig = refs[refAt + 2] as Money;
    const m = this.marketRow(marketIndex);
    this.byMarket[m + M_COUNT] = nums[at]!;
    this.byMarket[m + M_LOTS] = nums[at + 1]!;
    this.byMarket[m + M_IM_NOTIONAL] = nums[at + 2]!;
    const head = nums[at + 3]!;
    const tail = nums[at + 4]!;
    const count = nums[at + 5]!;
    this.openHead = head;
    this.openTail = tail;
    this.openCount = count;
  }

  /** Forgets the position in market `marketIndex` (created by a command that was rolled back). */
  dropPosition(marketIndex: number): void {
    const p = this.positionByMarket[marketIndex];
    if (p === undefined) return;
    this.positionByMarket[marketIndex] = undefined;
    this.syncPosition(marketIndex, undefined);
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
