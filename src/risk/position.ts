import { copyNumbers } from '../core/arrays.ts';
import type { Side } from '../core/types.ts';
import { FifoLots } from './fifo-lots.ts';
import { totalsStayNumbers } from './position-bounds.ts';

/**
 * A position's numbers in its row (`rows` from `at`; account-rows.ts's `Mr` holds them), as
 * literals; the open cost NaN once the totals are bigints. The FIFO lots' indexes stay small
 * integers in `FifoLots`. test/venue/account-row-layout checks the copies.
 */
export const enum Pn {
  Net = 0,
  Cost = 1,
  BuyLots = 2,
  SellLots = 3,
  Version = 4,
  BuyN = 5,
  SellN = 6,
  RealizedN = 7,
  Count = 8,
}

/**
 * One account's position in one instrument, in integer ticks and lots.
 *
 * Realized PnL uses FIFO lot matching so that it stays an exact integer number of tick·lots:
 * an average-cost method would need to divide the cost basis on every partial close. Whatever
 * the matching method, realized + unrealized equals the sum of signed trade cash flows plus
 * net × mark, so PnL across all accounts sums to zero exactly.
 */
export class Position {
  // Tick·lot totals as numbers (in the row) while each is a safe integer (no bigint per fill);
  // `big` holds them as bigints from the first fill that could pass 2^53 on (`Pn.Cost` NaN then).
  private big: { buy: bigint; sell: bigint; realized: bigint; openCost: bigint } | undefined = undefined;

  /** Open lots, oldest first (FIFO matching), pinned by a save of the running command. */
  private readonly lots = new FifoLots();

  /** `rows` from `at`: its `Pn.Count` numbers (zero: never traded), in its account's market row or an array of its own. */
  constructor(
    private readonly rows: number[] = new Array<number>(Pn.Count).fill(0),
    private readonly at = 0,
  ) {}

  /** Signed net position in lots: > 0 long, < 0 short. */
  get netLots(): number {
    return this.rows[this.at + Pn.Net]!;
  }
  /** Cumulative bought and sold lots (never reset). */
  get buyLots(): number {
    return this.rows[this.at + Pn.BuyLots]!;
  }
  get sellLots(): number {
    return this.rows[this.at + Pn.SellLots]!;
  }
  /** Grows by one with every fill (for caches of values derived from the position). */
  get version(): number {
    return this.rows[this.at + Pn.Version]!;
  }

  /** Cumulative Σ priceTicks × lots of buys and sells. */
  get buyNotionalTicks(): bigint {
    return this.big?.buy ?? BigInt(this.rows[this.at + Pn.BuyN]!);
  }
  get sellNotionalTicks(): bigint {
    return this.big?.sell ?? BigInt(this.rows[this.at + Pn.SellN]!);
  }
  /** Trading PnL realized by closing lots, in tick·lots (excludes fees and funding). */
  get realizedTicks(): bigint {
    return this.big?.realized ?? BigInt(this.rows[this.at + Pn.RealizedN]!);
  }
  /** Σ entry priceTicks × lots of the open lots (always ≥ 0; direction is the sign of netLots). */
  get openCostTicks(): bigint {
    return this.big?.openCost ?? BigInt(this.rows[this.at + Pn.Cost]!);
  }

  /** Applies one fill, returns the trading PnL it realized (tick·lots): it closes the oldest opposite lots first, any excess opens. */
  applyFill(side: Side, priceTicks: number, qtyLots: number): bigint {
    const realized = this.applyFillTicks(side, priceTicks, qtyLots);
    return Number.isNaN(realized) ? this.lastRealizedBig : realized === 0 ? 0n : BigInt(realized);
  }

  /** `applyFill` with the realized tick·lots as a number while the totals are numbers; NaN once bigints (then `lastRealizedBig`). */
  applyFillTicks(side: Side, priceTicks: number, qtyLots: number): number {
    const rows = this.rows;
    const at = this.at;
    rows[at + Pn.Version]!++;
    if (this.big === undefined) {
      const notional = priceTicks * qtyLots;
      if (totalsStayNumbers(rows, at, notional)) return this.fillNumbers(side, priceTicks, qtyLots, notional);
      this.big = { buy: BigInt(rows[at + Pn.BuyN]!), sell: BigInt(rows[at + Pn.SellN]!), realized: BigInt(rows[at + Pn.RealizedN]!), openCost: BigInt(rows[at + Pn.Cost]!) };
      rows[at + Pn.Cost] = NaN;
    }
    this.lastRealizedBig = this.fillBig(this.big, side, priceTicks, qtyLots);
    return NaN;
  }

  /** `applyFillTicks` of a fill that `fillStaysNumbers` (position-bounds.ts) said keeps the totals numbers (not asked again). */
  applyUsualFill(side: Side, priceTicks: number, qtyLots: number): number {
    this.rows[this.at + Pn.Version]!++;
    return this.fillNumbers(side, priceTicks, qtyLots, priceTicks * qtyLots);
  }

  /** Trading PnL the last `applyFillTicks` realized when it answered NaN, in tick·lots. */
  lastRealizedBig = 0n;

  private fillNumbers(side: Side, priceTicks: number, qtyLots: number, notional: number): number {
    const rows = this.rows;
    const at = this.at;
    const direction = side === 'B' ? 1 : -1;
    if (direction === 1) {
      rows[at + Pn.BuyLots]! += qtyLots;
      rows[at + Pn.BuyN]! += notional;
    } else {
      rows[at + Pn.SellLots]! += qtyLots;
      rows[at + Pn.SellN]! += notional;
    }
    let net = rows[at + Pn.Net]!;
    let cost = rows[at + Pn.Cost]!;
    let remaining = qtyLots;
    let realized = 0;
    // Close opposite lots first (FIFO).
    while (remaining > 0 && net !== 0 && Math.sign(net) !== direction) {
      const lotPrice = this.lots.headPrice();
      const closed = this.lots.closeHead(remaining);
      net += direction * closed;
      // Closing a long by selling gains (exit − entry); closing a short by buying gains (entry − exit).
      realized += (direction === -1 ? priceTicks - lotPrice : lotPrice - priceTicks) * closed;
      cost -= lotPrice * closed;
      remaining -= closed;
    }
    // Whatever is left opens (or adds to) a position on the fill's side.
    if (remaining > 0) {
      this.lots.append(priceTicks, remaining);
      net += direction * remaining;
      cost += priceTicks * remaining;
    }
    rows[at + Pn.Net] = net;
    rows[at + Pn.Cost] = cost;
    if (net === 0) this.lots.clear();
    rows[at + Pn.RealizedN]! += realized;
    return realized;
  }

  private fillBig(big: NonNullable<Position['big']>, side: Side, priceTicks: number, qtyLots: number): bigint {
    const rows = this.rows;
    const at = this.at;
    const notional = tickLots(priceTicks, qtyLots);
    if (side === 'B') {
      rows[at + Pn.BuyLots]! += qtyLots;
      big.buy += notional;
    } else {
      rows[at + Pn.SellLots]! += qtyLots;
      big.sell += notional;
    }
    const direction = side === 'B' ? 1 : -1;
    let remaining = qtyLots;
    let realized = 0n;
    while (remaining > 0 && rows[at + Pn.Net] !== 0 && Math.sign(rows[at + Pn.Net]!) !== direction) {
      const lotPrice = this.lots.headPrice();
      const closed = this.lots.closeHead(remaining);
      rows[at + Pn.Net]! += direction * closed;
      const perLot = direction === -1 ? priceTicks - lotPrice : lotPrice - priceTicks;
      realized += tickLots(perLot, closed);
      big.openCost -= tickLots(lotPrice, closed);
      remaining -= closed;
    }
    if (remaining > 0) {
      this.lots.append(priceTicks, remaining);
      rows[at + Pn.Net]! += direction * remaining;
      big.openCost += tickLots(priceTicks, remaining);
    }
    if (rows[at + Pn.Net] === 0) this.lots.clear();
    big.realized += realized;
    return realized;
  }

  /** Unrealized PnL at `markTicks`, in tick·lots. */
  unrealizedTicks(markTicks: number): bigint {
    const net = this.netLots;
    if (net === 0) return 0n;
    if (this.big === undefined) {
      const value = markTicks * Math.abs(net);
      const cost = this.rows[this.at + Pn.Cost]!;
      if (Number.isSafeInteger(value)) return BigInt(net > 0 ? value - cost : cost - value);
    }
    const value = tickLots(markTicks, Math.abs(net));
    const cost = this.openCostTicks;
    return net > 0 ? value - cost : cost - value;
  }

  /**
   * `unrealizedTicks` as a double, for estimates: exact while the values fit in 2^53. Past it,
   * mark × lots and the difference are each rounded once, so the result is within
   * (|mark × lots| + |unrealized|) × 2^-53 of the exact value (not within a unit of the result:
   * when the open cost cancels most of mark × lots, the product's rounding dominates).
   */
  unrealizedTicksApprox(markTicks: number): number {
    const net = this.netLots;
    if (net === 0) return 0;
    if (this.big === undefined) {
      const value = markTicks * Math.abs(net);
      const cost = this.rows[this.at + Pn.Cost]!;
      return net > 0 ? value - cost : cost - value;
    }
    return Number(this.unrealizedTicks(markTicks));
  }

  /** Number of open FIFO lots (for tests and memory checks). */
  get openLotCount(): number {
    return this.lots.count;
  }

  /** The open lots, oldest first, as [priceTicks, lots] (the oldest less what was closed of it). */
  openLots(): [number, number][] {
    return this.lots.list();
  }

  /**
   * Writes what puts the position back as it is now (the venue's undo): `POSITION_SAVED_NUMBERS`
   * numbers at `nums[at]` and the big totals (copied) as one reference through
   * `out.ref`; pins the lot storage for the command of `out.epoch` (see `FifoLots`).
   */
  saveTo(nums: Float64Array, at: number, out: { ref(value: unknown): void; readonly epoch: number }): void {
    this.saveNumbersTo(nums, at, out);
    out.ref(this.big === undefined ? undefined : { ...this.big });
  }

  /** `saveTo`'s numbers (the row's and the lots'): `restoreNumbers` puts them back. Pins the lot storage. */
  private saveNumbersTo(nums: Float64Array, at: number, pin: { readonly epoch: number }): void {
    const rows = this.rows;
    const from = this.at;
    for (let k = 0; k < Pn.Count; k++) nums[at + k] = rows[from + k]!;
    this.saveLotsTo(nums, at + Pn.Count, pin);
  }

  /**
   * The lots' `LOTS_SAVED` numbers at `nums[at]` after reclaiming what the command before closed,
   * the storage pinned for the command of `pin.epoch` (see `FifoLots`): with the row's numbers
   * (copied by their owner), what a usual fill's undo puts back.
   */
  saveLotsTo(nums: Float64Array, at: number, pin: { readonly epoch: number }): void {
    const lots = this.lots;
    lots.reclaim();
    nums[at] = lots.head;
    nums[at + 1] = lots.headUsedLots;
    nums[at + 2] = lots.len;
    lots.pinFor(pin);
  }

  /** Puts the position back as `saveTo` saw it (later fills only appended to the lot storage). */
  restoreFrom(nums: Float64Array, at: number, refs: readonly unknown[], refAt: number): void {
    this.restoreNumbers(nums, at);
    const big = refs[refAt] as Position['big'];
    this.big = big === undefined ? undefined : { ...big };
  }

  /** Puts back what `saveNumbersTo` wrote (`restoreFrom` then puts back the big totals). */
  private restoreNumbers(nums: Float64Array, at: number): void {
    copyNumbers(nums, at, this.rows, this.at, Pn.Count);
    this.restoreLots(nums, at + Pn.Count);
  }

  /**
   * Puts back what `saveLotsTo` wrote, the totals numbers then (a usual fill's undo: a later fill
   * of the command that made them bigints was taken back first, the journal running newest first).
   */
  restoreLots(nums: Float64Array, at: number): void {
    const lots = this.lots;
    lots.head = nums[at]!;
    lots.headUsedLots = nums[at + 1]!;
    lots.len = nums[at + 2]!;
    this.big = undefined;
  }
}

/** How many numbers of the lot storage `saveLotsTo` writes. */
export const LOTS_SAVED = 3;
/** How many numbers of the position its row holds (`Pn`). */
export const POSITION_ROW_NUMBERS = Pn.Count;
/** How many numbers `Position.saveTo` writes (its one reference is the big totals). */
export const POSITION_SAVED_NUMBERS = Pn.Count + LOTS_SAVED;

/** priceTicks × lots as an exact bigint, with a number fast path while the product is safe. */
export function tickLots(priceTicks: number, lots: number): bigint {
  const product = priceTicks * lots;
  return Number.isSafeInteger(product) ? BigInt(product) : BigInt(priceTicks) * BigInt(lots);
}
