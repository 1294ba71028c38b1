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
  /** Cumulative Σ priceTicks × lots of buys and sells. */
  buyNotionalTicks = 0n;
  sellNotionalTicks = 0n;
  /** Trading PnL realized by closing lots, in tick·lots (excludes fees and funding). */
  realizedTicks = 0n;
  /** Σ entry priceTicks × lots of the open lots (always ≥ 0; direction is the sign of netLots). */
  openCostTicks = 0n;

  // Open lots, oldest first, from index `head` on (compacted now and then).
  private lotPrices: number[] = [];
  private lotSizes: number[] = [];
  private head = 0;

  /**
   * Applies one fill and returns the trading PnL it realized, in tick·lots.
   * A fill against the position closes the oldest lots first; any excess opens the other way.
   */
  applyFill(side: Side, priceTicks: number, qtyLots: number): bigint {
    const notional = tickLots(priceTicks, qtyLots);
    if (side === 'B') {
      this.buyLots += qtyLots;
      this.buyNotionalTicks += notional;
    } else {
      this.sellLots += qtyLots;
      this.sellNotionalTicks += notional;
    }
    const direction = side === 'B' ? 1 : -1;
    let remaining = qtyLots;
    let realized = 0n;

    // Close opposite lots first (FIFO).
    while (remaining > 0 && this.netLots !== 0 && Math.sign(this.netLots) !== direction) {
      const i = this.head;
      const lotSize = this.lotSizes[i]!;
      const lotPrice = this.lotPrices[i]!;
      const closed = Math.min(lotSize, remaining);
      // Closing a long by selling gains (exit − entry); closing a short by buying gains (entry − exit).
      const perLot = direction === -1 ? priceTicks - lotPrice : lotPrice - priceTicks;
      realized += tickLots(perLot, closed);
      this.openCostTicks -= tickLots(lotPrice, closed);
      this.netLots += direction * closed;
      remaining -= closed;
      if (closed === lotSize) this.head++;
      else this.lotSizes[i] = lotSize - closed;
    }
    if (this.head > 64 && this.head * 2 > this.lotSizes.length) this.compact();

    // Whatever is left opens (or adds to) a position on the fill's side.
    if (remaining > 0) {
      this.lotPrices.push(priceTicks);
      this.lotSizes.push(remaining);
      this.openCostTicks += tickLots(priceTicks, remaining);
      this.netLots += direction * remaining;
    }
    if (this.netLots === 0) this.clearLots();
    this.realizedTicks += realized;
    return realized;
  }

  /** Unrealized PnL at `markTicks`, in tick·lots. */
  unrealizedTicks(markTicks: number): bigint {
    if (this.netLots === 0) return 0n;
    const value = tickLots(markTicks, Math.abs(this.netLots));
    return this.netLots > 0 ? value - this.openCostTicks : this.openCostTicks - value;
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
    this.lotPrices.length = 0;
    this.lotSizes.length = 0;
    this.head = 0;
  }
}

/** priceTicks × lots as an exact bigint, with a number fast path while the product is safe. */
export function tickLots(priceTicks: number, lots: number): bigint {
  const product = priceTicks * lots;
  return Number.isSafeInteger(product) ? BigInt(product) : BigInt(priceTicks) * BigInt(lots);
}
