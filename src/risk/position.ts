import type { Side } from '../core/types.ts';
import { FifoLots } from './fifo-lots.ts';

/**
 * One account's position in one instrument, in integer ticks and lots.
 *
 * Realized PnL uses FIFO lot matching so that it stays an exact integer number of tick·lots:
 * an average-cost method would need to divide the cost basis on every partial close. Whatever
 * the matching method, realized + unrealized equals the sum of signed trade cash flows plus
 * net × mark, so PnL across all accounts sums to zero exactly.
 *
 * Tick·lot amounts are bigint: cumulative notionals of a long run exceed 2^53.
 */
export class Position {
  /** Signed net position in lots: > 0 long, < 0 short. */
  netLots = 0;
  /** Cumulative bought and sold lots (never reset). */
  buyLots = 0;
  sellLots = 0;
  /** Grows by one with every fill (for caches of values derived from the position). */
  version = 0;

  // Tick·lot totals as numbers while every one of them is a safe integer (the usual case: no
  // bigint allocation per fill); `big` holds them all as bigints from the first fill that
  // could take one past 2^53 on. The public getters give bigints either way.
  private buyN = 0;
  private sellN = 0;
  private realizedN = 0;
  private openCostN = 0;
  private big: { buy: bigint; sell: bigint; realized: bigint; openCost: bigint } | undefined = undefined;

  /** Open lots, oldest first (FIFO matching), pinned by a save of the running command. */
  private readonly lots = new FifoLots();

  /** Cumulative Σ priceTicks × lots of buys and sells. */
  get buyNotionalTicks(): bigint {
    return this.big?.buy ?? BigInt(this.buyN);
  }
  get sellNotionalTicks(): bigint {
    return this.big?.sell ?? BigInt(this.sellN);
  }
  /** Trading PnL realized by closing lots, in tick·lots (excludes fees and funding). */
  get realizedTicks(): bigint {
    return this.big?.realized ?? BigInt(this.realizedN);
  }
  /** `openCostTicks` as a number while the totals are numbers, else NaN. */
  get openCostNumber(): number {
    return this.big === undefined ? this.openCostN : NaN;
  }

  /** Σ entry priceTicks × lots of the open lots (always ≥ 0; direction is the sign of netLots). */
  get openCostTicks(): bigint {
    return this.big?.openCost ?? BigInt(this.openCostN);
  }

  /**
   * Applies one fill and returns the trading PnL it realized, in tick·lots.
   * A fill against the position closes the oldest lots first; any excess opens the other way.
   */
  applyFill(side: Side, priceTicks: number, qtyLots: number): bigint {
    const realized = this.applyFillTicks(side, priceTicks, qtyLots);
    return Number.isNaN(realized) ? this.lastRealizedBig : realized === 0 ? 0n : BigInt(realized);
  }

  /**
   * `applyFill` with the realized tick·lots as a number (a safe integer) while the totals are
   * numbers, so the caller needs no bigint; NaN once they are bigints, the realized amount
   * then being `lastRealizedBig`.
   */
  applyFillTicks(side: Side, priceTicks: number, qtyLots: number): number {
    this.version++;
    if (this.big === undefined) {
      const notional = priceTicks * qtyLots;
      if (this.totalsStayNumbers(notional)) return this.fillNumbers(side, priceTicks, qtyLots, notional);
      this.big = { buy: BigInt(this.buyN), sell: BigInt(this.sellN), realized: BigInt(this.realizedN), openCost: BigInt(this.openCostN) };
    }
    this.lastRealizedBig = this.fillBig(this.big, side, priceTicks, qtyLots);
    return NaN;
  }

  /** `applyFillTicks` of a fill that `fillStaysNumbers` said keeps the totals numbers (not asked again). */
  applyUsualFill(side: Side, priceTicks: number, qtyLots: number): number {
    this.version++;
    return this.fillNumbers(side, priceTicks, qtyLots, priceTicks * qtyLots);
  }

  /** Trading PnL the last `applyFillTicks` realized when it answered NaN, in tick·lots. */
  lastRealizedBig = 0n;

  private fillNumbers(side: Side, priceTicks: number, qtyLots: number, notional: number): number {
    if (side === 'B') {
      this.buyLots += qtyLots;
      this.buyN += notional;
    } else {
      this.sellLots += qtyLots;
      this.sellN += notional;
    }
    const direction = side === 'B' ? 1 : -1;
    let remaining = qtyLots;
    let realized = 0;
    // Close opposite lots first (FIFO).
    while (remaining > 0 && this.netLots !== 0 && Math.sign(this.netLots) !== direction) {
      const lotPrice = this.lots.headPrice();
      const closed = this.lots.closeHead(remaining);
      this.netLots += direction * closed;
      // Closing a long by selling gains (exit − entry); closing a short by buying gains (entry − exit).
      realized += (direction === -1 ? priceTicks - lotPrice : lotPrice - priceTicks) * closed;
      this.openCostN -= lotPrice * closed;
      remaining -= closed;
    }
    this.afterClosing(direction, priceTicks, remaining);
    if (remaining > 0) this.openCostN += priceTicks * remaining;
    this.realizedN += realized;
    return realized;
  }

  private fillBig(big: NonNullable<Position['big']>, side: Side, priceTicks: number, qtyLots: number): bigint {
    const notional = tickLots(priceTicks, qtyLots);
    if (side === 'B') {
      this.buyLots += qtyLots;
      big.buy += notional;
    } else {
      this.sellLots += qtyLots;
      big.sell += notional;
    }
    const direction = side === 'B' ? 1 : -1;
    let remaining = qtyLots;
    let realized = 0n;
    while (remaining > 0 && this.netLots !== 0 && Math.sign(this.netLots) !== direction) {
      const lotPrice = this.lots.headPrice();
      const closed = this.lots.closeHead(remaining);
      this.netLots += direction * closed;
      const perLot = direction === -1 ? priceTicks - lotPrice : lotPrice - priceTicks;
      realized += tickLots(perLot, closed);
      big.openCost -= tickLots(lotPrice, closed);
      remaining -= closed;
    }
    this.afterClosing(direction, priceTicks, remaining);
    if (remaining > 0) big.openCost += tickLots(priceTicks, remaining);
    big.realized += realized;
    return realized;
  }

  /** After the FIFO closing loop: opens what is left, clears when flat. */
  private afterClosing(direction: number, priceTicks: number, remaining: number): void {
    // Whatever is left opens (or adds to) a position on the fill's side.
    if (remaining > 0) {
      this.lots.append(priceTicks, remaining);
      this.netLots += direction * remaining;
    }
    if (this.netLots === 0) this.lots.clear();
  }

  /** Unrealized PnL at `markTicks`, in tick·lots. */
  unrealizedTicks(markTicks: number): bigint {
    if (this.netLots === 0) return 0n;
    if (this.big === undefined) {
      const value = markTicks * Math.abs(this.netLots);
      if (Number.isSafeInteger(value)) return BigInt(this.netLots > 0 ? value - this.openCostN : this.openCostN - value);
    }
    const value = tickLots(markTicks, Math.abs(this.netLots));
    const cost = this.openCostTicks;
    return this.netLots > 0 ? value - cost : cost - value;
  }

  /**
   * `unrealizedTicks` as a double, for estimates: exact while the values fit in 2^53. Past it,
   * mark × lots and the difference are each rounded once, so the result is within
   * (|mark × lots| + |unrealized|) × 2^-53 of the exact value (not within a unit of the result:
   * when the open cost cancels most of mark × lots, the product's rounding dominates).
   */
  unrealizedTicksApprox(markTicks: number): number {
    if (this.netLots === 0) return 0;
    if (this.big === undefined) {
      const value = markTicks * Math.abs(this.netLots);
      return this.netLots > 0 ? value - this.openCostN : this.openCostN - value;
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
   * Writes what puts the position back as it is now (the venue's undo of a failed command):
   * `POSITION_SAVED_NUMBERS` numbers at `nums[at]`, and the big totals (copied: they change in
   * place) as `POSITION_SAVED_REFS` references through `out.ref`. Pins the lot storage for the
   * command of `out.epoch` (see `FifoLots`). O(1), no allocation while the totals are numbers.
   */
  saveTo(nums: Float64Array, at: number, out: { ref(value: unknown): void; readonly epoch: number }): void {
    this.saveNumbersTo(nums, at, out);
    out.ref(this.big === undefined ? undefined : { ...this.big });
  }

  /**
   * `saveTo`'s numbers alone, for a position whose totals are numbers and stay so
   * (`fillStaysNumbers`): `restoreNumbers` puts it back. Pins the lot storage the same way.
   */
  saveNumbersTo(nums: Float64Array, at: number, pin: { readonly epoch: number }): void {
    // The command before is over: what it closed is reclaimed before this one pins the storage.
    const lots = this.lots;
    lots.reclaim();
    nums[at] = this.netLots;
    nums[at + 1] = this.buyLots;
    nums[at + 2] = this.sellLots;
    nums[at + 3] = this.version;
    nums[at + 4] = this.buyN;
    nums[at + 5] = this.sellN;
    nums[at + 6] = this.realizedN;
    nums[at + 7] = this.openCostN;
    nums[at + 8] = lots.head;
    nums[at + 9] = lots.headUsedLots;
    nums[at + 10] = lots.len;
    lots.pinFor(pin);
  }

  /** Puts the position back as `saveTo` saw it (later fills only appended to the lot storage). */
  restoreFrom(nums: Float64Array, at: number, refs: readonly unknown[], refAt: number): void {
    this.restoreNumbers(nums, at);
    const big = refs[refAt] as Position['big'];
    this.big = big === undefined ? undefined : { ...big };
  }

  /** Puts back what `saveNumbersTo` wrote (the totals numbers then). */
  restoreNumbers(nums: Float64Array, at: number): void {
    this.netLots = nums[at]!;
    this.buyLots = nums[at + 1]!;
    this.sellLots = nums[at + 2]!;
    this.version = nums[at + 3]!;
    this.buyN = nums[at + 4]!;
    this.sellN = nums[at + 5]!;
    this.realizedN = nums[at + 6]!;
    this.openCostN = nums[at + 7]!;
    const lots = this.lots;
    lots.head = nums[at + 8]!;
    lots.headUsedLots = nums[at + 9]!;
    lots.len = nums[at + 10]!;
    this.big = undefined;
  }

  /**
   * True when a fill of `qtyLots` at `priceTicks` keeps every total a number (`applyFillTicks`'s
   * own bound, the same doubles) and the trading PnL it realizes, added to `pendingTicks` (the
   * account's counter of it), stays a safe integer: |realized| ≤ notional + the open cost it
   * closes. Sums of non-negative terms in doubles: one that passes 2^53 exactly cannot round
   * below it.
   */
  fillStaysNumbers(priceTicks: number, qtyLots: number, pendingTicks: number): boolean {
    const notional = priceTicks * qtyLots;
    if (this.big !== undefined || !this.totalsStayNumbers(notional)) return false;
    return Math.abs(notional) + this.openCostN + Math.abs(pendingTicks) <= Number.MAX_SAFE_INTEGER;
  }

  /**
   * Whether a fill of `notional` tick·lots keeps every total exact as a number (the totals
   * numbers now): each moves by at most notional + openCost (closing lots realizes at most their
   * cost plus the fill's notional), so if that bound is safe, each step is exact. Doubles of
   * non-negative terms: a sum that passes 2^53 cannot round below it.
   */
  private totalsStayNumbers(notional: number): boolean {
    if (!Number.isSafeInteger(notional)) return false;
    return Math.abs(notional) + this.openCostN + Math.abs(this.realizedN) + Math.max(this.buyN, this.sellN) <= Number.MAX_SAFE_INTEGER;
  }
}

/** How many numbers and references `Position.saveTo` writes. */
export const POSITION_SAVED_NUMBERS = 11;
export const POSITION_SAVED_REFS = 1;

/** priceTicks × lots as an exact bigint, with a number fast path while the product is safe. */
export function tickLots(priceTicks: number, lots: number): bigint {
  const product = priceTicks * lots;
  return Number.isSafeInteger(product) ? BigInt(product) : BigInt(priceTicks) * BigInt(lots);
}
