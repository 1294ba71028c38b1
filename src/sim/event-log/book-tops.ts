import type { Side } from '../../core/types.ts';
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
 *
 * A side is read again only when the book's change count of that side moved since it was last
 * read (`OrderBook.changesOf`: it never stands still when a level changed): most book changes
 * touch one side, and reading a side's five levels was most of this check's cost. A side read
 * is compared with the row and written into it at once (as `SentBooks.readTouch` does the
 * touch): the row is the last read of each side, so no second copy of it is kept.
 */
export class BookTops {
  private readonly rows: BookTop[];
  /** The book's change count of each side when it was last read: the bid's at `2 × market.index`, the ask's after it. */
  private readonly changes: Float64Array;
  /** Columns a side's five best levels are read into: this runs on every book change of a day, so no level objects. */
  private readonly prices = new Float64Array(5);
  private readonly qtys = new Float64Array(5);

  constructor(marketCount: number) {
    this.rows = Array.from({ length: marketCount }, () => ({ bid: NaN, bidQty: NaN, ask: NaN, askQty: NaN, bidDepth: NaN, askDepth: NaN }));
    this.changes = new Float64Array(2 * marketCount).fill(NaN);
  }

  /** The market's top now if it differs from the last one returned (which it then becomes), else undefined. */
  changed(market: Market): BookTop | undefined {
    const at = 2 * market.index;
    const book = market.book;
    const changes = this.changes;
    const top = this.rows[market.index]!;
    let moved = false;
    const bidChanges = book.changesOf('B');
    if (bidChanges !== changes[at]) {
      changes[at] = bidChanges;
      moved = this.read(market, 'B', top);
    }
    const askChanges = book.changesOf('S');
    if (askChanges !== changes[at + 1]) {
      changes[at + 1] = askChanges;
      if (this.read(market, 'S', top)) moved = true;
    }
    return moved ? top : undefined;
  }

  /** Reads a side's touch and five-level depth into `top`; true when they differ from what it held. */
  private read(market: Market, side: Side, top: BookTop): boolean {
    const { prices, qtys } = this;
    const levels = market.book.l2Into(side, prices, qtys);
    let depth = 0;
    for (let i = 0; i < levels; i++) depth += qtys[i]!;
    const price = levels > 0 ? prices[0]! : NaN;
    const qty = levels > 0 ? qtys[0]! : NaN;
    if (side === 'B') {
      if (same(top.bid, price) && same(top.bidQty, qty) && top.bidDepth === depth) return false;
      top.bid = price;
      top.bidQty = qty;
      top.bidDepth = depth;
      return true;
    }
    if (same(top.ask, price) && same(top.askQty, qty) && top.askDepth === depth) return false;
    top.ask = price;
    top.askQty = qty;
    top.askDepth = depth;
    return true;
  }
}

/** Equal numbers, NaN equal to NaN (an empty side). */
export function same(a: number, b: number): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}
