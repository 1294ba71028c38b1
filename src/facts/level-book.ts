/**
 * One symbol's L2 book rebuilt from normalized book rows, kept sorted so the touch and the depth
 * near the mid are cheap to read after every update: each side is an array of prices, best
 * first, and a map from price to lots.
 */
export class LevelBook {
  /** Bid prices, highest first. */
  private readonly bidPrices: number[] = [];
  /** Ask prices, lowest first. */
  private readonly askPrices: number[] = [];
  private readonly bidLots = new Map<number, number>();
  private readonly askLots = new Map<number, number>();

  clear(): void {
    this.bidPrices.length = 0;
    this.askPrices.length = 0;
    this.bidLots.clear();
    this.askLots.clear();
  }

  /** The level at `priceTicks` on `side` now holds `qtyLots` (0 removes it). */
  set(side: 'B' | 'S', priceTicks: number, qtyLots: number): void {
    const prices = side === 'B' ? this.bidPrices : this.askPrices;
    const lots = side === 'B' ? this.bidLots : this.askLots;
    const dir = side === 'B' ? -1 : 1;
    const had = lots.has(priceTicks);
    if (qtyLots <= 0) {
      if (!had) return;
      lots.delete(priceTicks);
      prices.splice(position(prices, priceTicks, dir), 1);
      return;
    }
    lots.set(priceTicks, qtyLots);
    if (!had) prices.splice(position(prices, priceTicks, dir), 0, priceTicks);
  }

  get bestBidTicks(): number | undefined {
    return this.bidPrices[0];
  }

  get bestAskTicks(): number | undefined {
    return this.askPrices[0];
  }

  /** Lots at the best bid plus the best ask (0 for an empty side). */
  touchLots(): number {
    const b = this.bidPrices[0];
    const a = this.askPrices[0];
    return (b === undefined ? 0 : this.bidLots.get(b)!) + (a === undefined ? 0 : this.askLots.get(a)!);
  }

  /**
   * Lots on both sides at prices within `distanceTicks` of `midTicks` (|price − mid| ≤ distance).
   * Walks each side from the touch outwards, so it costs the levels counted.
   */
  depthWithin(midTicks: number, distanceTicks: number): number {
    let lots = 0;
    for (const p of this.bidPrices) {
      if (midTicks - p > distanceTicks) break;
      lots += this.bidLots.get(p)!;
    }
    for (const p of this.askPrices) {
      if (p - midTicks > distanceTicks) break;
      lots += this.askLots.get(p)!;
    }
    return lots;
  }
}

/** Where `price` is or would go in `prices` (sorted best first: dir −1 descending, +1 ascending). */
function position(prices: readonly number[], price: number, dir: number): number {
  let lo = 0;
  let hi = prices.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (dir * (prices[mid]! - price) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
