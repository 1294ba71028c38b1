import type { Market } from '../../venue/market.ts';

/**
 * The price text of a number of ticks, per market, from a small direct-mapped cache: feeds
 * repeat the prices near the touch, so most lookups build no string.
 */
export class PriceTexts {
  private static readonly SIZE = 1024;
  private readonly ticks: Float64Array[] = [];
  private readonly texts: string[][] = [];

  of(market: Market, ticks: number): string {
    let keys = this.ticks[market.index];
    if (keys === undefined) {
      keys = this.ticks[market.index] = new Float64Array(PriceTexts.SIZE).fill(NaN);
      this.texts[market.index] = new Array<string>(PriceTexts.SIZE).fill('');
    }
    const texts = this.texts[market.index]!;
    const at = ticks & (PriceTexts.SIZE - 1);
    if (keys[at] !== ticks) {
      keys[at] = ticks;
      texts[at] = market.instrument.tick.toPrice(ticks);
    }
    return texts[at]!;
  }
}
