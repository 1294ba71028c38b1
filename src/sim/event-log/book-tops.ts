import type { Market } from '../../venue/market.ts';

/** What a `book` row shows of a market: the touch and the lots of the five best levels a side. */
export interface BookTop {
  bid: number;
  bidQty: number;
  ask: number;
  askQty: number;
  bidDepth: number;
  askDepth: number;
}

/**
 * The last `book` row written per market, so the event log skips the book changes it cannot
 * see (anything below the fifth level, or a change undone within the instant). An empty side
 * reads as NaN prices and quantities.
 */
export class BookTops {
  private readonly rows: BookTop[];
  /** Columns a side's five best levels are read into: this runs on every book change of a day, so no level objects. */
  private readonly prices = new Float64Array(5);
  private readonly qtys = new Float64Array(5);

  constructor(marketCount: number) {
    this.rows = Array.from({ length: marketCount }, () => ({ bid: NaN, bidQty: NaN, ask: NaN, askQty: NaN, bidDepth: NaN, askDepth: NaN }));
  }

  /** The market's top now if it differs from the last one returned (which it then becomes), else undefined. */
  changed(market: Market): BookTop | undefined {
    const { prices, qtys } = this;
    const bidLevels = market.book.l2Into('B', prices, qtys);
    const bid = bidLevels > 0 ? prices[0]! : NaN;
    const bidQty = bidLevels > 0 ? qtys[0]! : NaN;
    let bidDepth = 0;
    for (let i = 0; i < bidLevels; i++) bidDepth += qtys[i]!;
    const askLevels = market.book.l2Into('S', prices, qtys);
    const ask = askLevels > 0 ? prices[0]! : NaN;
    const askQty = askLevels > 0 ? qtys[0]! : NaN;
    let askDepth = 0;
    for (let i = 0; i < askLevels; i++) askDepth += qtys[i]!;
    const top = this.rows[market.index]!;
    if (same(top.bid, bid) && same(top.ask, ask) && same(top.bidQty, bidQty) && same(top.askQty, askQty) && top.bidDepth === bidDepth && top.askDepth === askDepth) {
      return undefined;
    }
    top.bid = bid;
    top.bidQty = bidQty;
    top.ask = ask;
    top.askQty = askQty;
    top.bidDepth = bidDepth;
    top.askDepth = askDepth;
    return top;
  }
}

/** Equal numbers, NaN equal to NaN (an empty side). */
export function same(a: number, b: number): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}
