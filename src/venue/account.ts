import type { Money } from '../core/money.ts';
import { tickLotsAtRate } from './money-rate.ts';
import { Position, tickLots } from '../risk/position.ts';
import type { Market } from './market.ts';
import { F_NEXT, F_PREV, NO_SLOT, type OrderStore } from './order-store.ts';
import type { BigRational } from '../market/rational.ts';
import type { Instrument } from './instrument.ts';

/** A position plus the money it has settled into cash. */
export class AccountPosition {
  readonly position = new Position();
  /** Realized trading PnL (FIFO), fees paid and funding received, all Money. */
  tradingPnl: Money = 0n;
  fees: Money = 0n;
  funding: Money = 0n;

  // The last unrealized PnL and margin, with the inputs they were computed from: the margin
  // check reads both for every order, and they only change when the mark or the position does
  // (bigint arithmetic allocates, so recomputing them per order was a large part of its cost).
  private uMark = NaN;
  private uVersion = -1;
  private uValue: Money = 0n;
  private mMark = NaN;
  private mNet = 0;
  private mPct: BigRational | undefined = undefined;
  private mValue: Money = 0n;

  constructor(readonly market: Market) {}

  /** Drops the cached values (the position was put back by an undo: its version repeats). */
  forgetCache(): void {
    this.uVersion = -1;
    this.mMark = NaN;
  }

  /** Realized PnL as the venue reports it: trading PnL − fees + funding received. */
  get realized(): Money {
    return this.tradingPnl - this.fees + this.funding;
  }

  unrealized(): Money {
    const mark = this.market.markTicks;
    const p = this.position;
    if (mark !== this.uMark || p.version !== this.uVersion) {
      this.uValue = p.unrealizedTicks(mark) * this.market.instrument.tickLotMoney;
      this.uMark = mark;
      this.uVersion = p.version;
    }
    return this.uValue;
  }

  /** Margin of the position at the current mark, for the given percent. */
  margin(pct: BigRational): Money {
    const net = this.position.netLots;
    if (net === 0) return 0n;
    const mark = this.market.markTicks;
    if (mark !== this.mMark || net !== this.mNet || pct !== this.mPct) {
      this.mValue = marginOf(this.market.instrument, mark, Math.abs(net), pct);
      this.mMark = mark;
      this.mNet = net;
      this.mPct = pct;
    }
    return this.mValue;
  }
}

/** Money margin of `lots` at `priceTicks`: lots × price × multiplier × pct. */
export function marginOf(instrument: Instrument, priceTicks: number, lots: number, pct: BigRational): Money {
  return tickLotsAtRate(tickLots(priceTicks, lots), instrument.tickLotMoney, pct);
}

// The numbers of `Account.byMarket`, per market.
const M_COUNT = 0;
const M_LOTS = 1;
const M_SAVED = 2;
const PER_MARKET = 3;

/** One user's money, positions and open orders. */
export class Account {
  /** Cash: starting cash + admin adjustments + Σ realized (trading − fees + funding). */
  cash: Money;
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
  /** Σ initial margin reserved by open orders. */
  openOrdersIm: Money = 0n;
  /**
   * Per market index, `PER_MARKET` numbers side by side (one cache line, not one array each):
   * open order count, Σ remaining lots of open orders (for the overflow bound of order entry),
   * and the number of the last command that saved this account in that market (the undo's
   * first-touch mark, see `markSaved`).
   */
  private readonly byMarket: number[] = [];

  constructor(
    readonly id: number,
    readonly username: string,
    readonly startingCash: Money,
  ) {
    this.cash = startingCash;
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

  /** The order in `slot` rests: chain it last, reserve `im`, count its unfilled lots. */
  addOpenOrder(store: OrderStore, slot: number, marketIndex: number, unfilledLots: number, im: Money): void {
    store.setField(slot, F_PREV, this.openTail);
    store.setField(slot, F_NEXT, NO_SLOT);
    if (this.openTail === NO_SLOT) this.openHead = slot;
    else store.setField(this.openTail, F_NEXT, slot);
    this.openTail = slot;
    this.openCount++;
    store.reservedIm[slot] = im;
    this.openOrdersIm += im;
    const m = this.marketRow(marketIndex);
    this.byMarket[m + M_COUNT]! += 1;
    this.byMarket[m + M_LOTS]! += unfilledLots;
  }

  /** An open order of this account in `market` filled `lots` (its remainder shrank). */
  openOrderFilled(marketIndex: number, lots: number): void {
    this.byMarket[marketIndex * PER_MARKET + M_LOTS]! -= lots;
  }

  /**
   * True the first time command number `epoch` asks about this account in market
   * `marketIndex` (the undo saves an account once per command and market).
   */
  markSaved(marketIndex: number, epoch: number): boolean {
    const at = this.marketRow(marketIndex) + M_SAVED;
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
    this.openOrdersIm -= store.reservedIm[slot]!;
    store.reservedIm[slot] = 0n;
    const m = marketIndex * PER_MARKET;
    this.byMarket[m + M_COUNT]! -= 1;
    this.byMarket[m + M_LOTS]! -= unfilledLots;
  }

  /** Re-reserves margin for an open order whose remainder changed. */
  setReservedIm(store: OrderStore, slot: number, im: Money): void {
    this.openOrdersIm += im - store.reservedIm[slot]!;
    store.reservedIm[slot] = im;
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
    const cash = Number(this.cash);
    const open = Number(this.openOrdersIm);
    let slack = cash - open - imApprox;
    let size = Math.abs(cash) + Math.abs(open) + Math.abs(imApprox);
    for (const p of this.positionList) {
      const net = p.position.netLots;
      if (net === 0) continue;
      const m = p.market;
      const uTicks = p.position.unrealizedTicksApprox(m.markTicks);
      const u = uTicks * m.tickLotMoneyApprox;
      const im = Math.abs(net) * m.markTicks * m.imPerTickLotApprox;
      slack += u - im;
      size += Math.abs(u) + Math.abs(im);
    }
    if (!Number.isFinite(slack) || !Number.isFinite(size)) return 0;
    const error = size * (this.positionList.length + 8) * 2 ** -52;
    return slack > error ? 1 : slack < -error ? -1 : 0;
  }

  /** Puts back money, the open-order chain's ends and the totals in market `marketIndex` (the venue's undo). */
  restoreMoney(marketIndex: number, cash: Money, adjustments: Money, openOrdersIm: Money, countIn: number, lotsIn: number, head: number, tail: number, count: number): void {
    this.cash = cash;
    this.adjustments = adjustments;
    this.openOrdersIm = openOrdersIm;
    const m = this.marketRow(marketIndex);
    this.byMarket[m + M_COUNT] = countIn;
    this.byMarket[m + M_LOTS] = lotsIn;
    this.openHead = head;
    this.openTail = tail;
    this.openCount = count;
  }

  /** Forgets the position in market `marketIndex` (created by a command that was rolled back). */
  dropPosition(marketIndex: number): void {
    const p = this.positionByMarket[marketIndex];
    if (p === undefined) return;
    this.positionByMarket[marketIndex] = undefined;
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
