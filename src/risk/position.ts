import type { Side } from '../core/types.ts';

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

  // Open lots, oldest first, from index `head` on (compacted now and then). The arrays are
  // append-only: closing part of the oldest lot counts `headUsedLots` instead of rewriting its
  // size, and clearing starts new arrays, so a saved position (`save`) stays valid to restore.
  private lotPrices: number[] = [];
  private lotSizes: number[] = [];
  private head = 0;
  private headUsedLots = 0;

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
      // Every total below moves by at most notional + openCost (closing lots realizes at most
      // their cost plus the fill's notional): if that bound is safe, each step is exact.
      const bound = Math.abs(notional) + this.openCostN + Math.abs(this.realizedN) + Math.max(this.buyN, this.sellN);
      if (Number.isSafeInteger(notional) && bound <= Number.MAX_SAFE_INTEGER) return this.fillNumbers(side, priceTicks, qtyLots, notional);
      this.big = { buy: BigInt(this.buyN), sell: BigInt(this.sellN), realized: BigInt(this.realizedN), openCost: BigInt(this.openCostN) };
    }
    this.lastRealizedBig = this.fillBig(this.big, side, priceTicks, qtyLots);
    return NaN;
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
      const lotPrice = this.lotPrices[this.head]!;
      const closed = this.closeHead(direction, remaining);
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
      const lotPrice = this.lotPrices[this.head]!;
      const closed = this.closeHead(direction, remaining);
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

  /**
   * Closes up to `lots` of the oldest open lot (whose price is `lotPrices[head]`) against a fill
   * in `direction`; the caller checked that the position is open the other way. Returns the lots
   * closed. The FIFO bookkeeping both money paths (numbers and bigint) share.
   */
  private closeHead(direction: number, lots: number): number {
    const lotSize = this.lotSizes[this.head]! - this.headUsedLots;
    const closed = Math.min(lotSize, lots);
    this.netLots += direction * closed;
    if (closed === lotSize) {
      this.head++;
      this.headUsedLots = 0;
    } else {
      this.headUsedLots += closed;
    }
    return closed;
  }

  /** After the FIFO closing loop: compacts, opens what is left, clears when flat. */
  private afterClosing(direction: number, priceTicks: number, remaining: number): void {
    if (this.head > 64 && this.head * 2 > this.lotSizes.length) this.compact();
    // Whatever is left opens (or adds to) a position on the fill's side.
    if (remaining > 0) {
      this.lotPrices.push(priceTicks);
      this.lotSizes.push(remaining);
      this.netLots += direction * remaining;
    }
    if (this.netLots === 0) this.clearLots();
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
   * `unrealizedTicks` as a double, for estimates: exact while the values fit in 2^53 (else
   * within a unit in 2^53 of the exact value, as a conversion of the bigint would be).
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
    return this.lotSizes.length - this.head;
  }

  private compact(): void {
    this.lotPrices = this.lotPrices.slice(this.head);
    this.lotSizes = this.lotSizes.slice(this.head);
    this.head = 0;
  }

  private clearLots(): void {
    if (this.lotSizes.length === 0) return;
    this.lotPrices = [];
    this.lotSizes = [];
    this.head = 0;
    this.headUsedLots = 0;
  }

  /**
   * Writes what puts the position back as it is now (the venue's undo of a failed command):
   * `POSITION_SAVED_NUMBERS` numbers at `nums[at]`, and the lot arrays and big totals (copied:
   * they change in place) as `POSITION_SAVED_REFS` references through `out.ref`. O(1), no
   * allocation while the totals are numbers.
   */
  saveTo(nums: Float64Array, at: number, out: { ref(value: unknown): void }): void {
    nums[at] = this.netLots;
    nums[at + 1] = this.buyLots;
    nums[at + 2] = this.sellLots;
    nums[at + 3] = this.version;
    nums[at + 4] = this.buyN;
    nums[at + 5] = this.sellN;
    nums[at + 6] = this.realizedN;
    nums[at + 7] = this.openCostN;
    nums[at + 8] = this.head;
    nums[at + 9] = this.headUsedLots;
    nums[at + 10] = this.lotSizes.length;
    out.ref(this.big === undefined ? undefined : { ...this.big });
    out.ref(this.lotPrices);
    out.ref(this.lotSizes);
  }

  /** Puts the position back as `saveTo` saw it (later fills only appended to the saved arrays). */
  restoreFrom(nums: Float64Array, at: number, refs: readonly unknown[], refAt: number): void {
    this.netLots = nums[at]!;
    this.buyLots = nums[at + 1]!;
    this.sellLots = nums[at + 2]!;
    this.version = nums[at + 3]!;
    this.buyN = nums[at + 4]!;
    this.sellN = nums[at + 5]!;
    this.realizedN = nums[at + 6]!;
    this.openCostN = nums[at + 7]!;
    this.head = nums[at + 8]!;
    this.headUsedLots = nums[at + 9]!;
    const big = refs[refAt] as Position['big'];
    this.big = big === undefined ? undefined : { ...big };
    this.lotPrices = refs[refAt + 1] as number[];
    this.lotSizes = refs[refAt + 2] as number[];
    this.lotPrices.length = nums[at + 10]!;
    this.lotSizes.length = nums[at + 10]!;
  }
}

/** How many numbers and references `Position.saveTo` writes. */
export const POSITION_SAVED_NUMBERS = 11;
export const POSITION_SAVED_REFS = 3;

/** priceTicks × lots as an exact bigint, with a number fast path while the product is safe. */
export function tickLots(priceTicks: number, lots: number): bigint {
  const product = priceTicks * lots;
  return Number.isSafeInteger(product) ? BigInt(product) : BigInt(priceTicks) * BigInt(lots);
}
