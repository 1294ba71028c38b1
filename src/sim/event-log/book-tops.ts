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

/** One side's part of a `BookTop` as last read, and the book's change count of that side then. */
class SideRead {
  changes = Number.NaN;
  price = Number.NaN;
  qty = Number.NaN;
  depth = Number.NaN;
}

/**
 * The last `book` row written per market, so the event log skips the book changes it cannot
 * see (anything below the fifth level, or a change undone within the instant). An empty side
 * reads as NaN prices and quantities.
 *
 * A side is read again only when the book's change count of that side moved since it was last
 * read (`OrderBook.changesOf`: it never stands still when a level changed): most book changes
 * touch one side, and reading a side's five levels was most of this check's cost.
 */
export class BookTops {
  private readonly rows: BookTop[];
  private readonly bids: SideRead[];
  private readonly asks: SideRead[];
  /** Columns a side's five best levels are read into: this runs on every book change of a day, so no level objects. */
  private readonly prices = new Float64Array(5);
  private readonly qtys = new Float64Array(5);

  constructor(marketCount: number) {
    this.rows = Array.from({ length: marketCount }, () => ({ bid: NaN, bidQty: NaN, ask: NaN, askQty: NaN, bidDepth: NaN, askDepth: NaN }));
    this.bids = Array.from({ length: marketCount }, () => new SideRead());
    this.asks = Array.from({ length: marketCount }, () => new SideRead());
  }

  /** The market's top now if it differs from the last one returned (which it then becomes), else undefined. */
  changed(market: Market): BookTop | undefined {
    const bids = this.bids[market.index]!;
    const asks = this.asks[market.index]!;
    const book = market.book;
    const bidChanges = book.changesOf('B');
    const askChanges = book.changesOf('S');
    if (bidChanges === bids.changes && askChanges === asks.changes) return undefined;
    if (bidChanges !== bids.changes) this.read(market, 'B', bids, bidChanges);
    if (askChanges !== asks.changes) this.read(market, 'S', asks, askChanges);
    const top = this.rows[market.index]!;
    if (same(top.bid, bids.price) && same(top.ask, asks.price) && same(top.bidQty, bids.qty) && same(top.askQty, asks.qty) && top.bidDepth === bids.depth && top.askDepth === asks.depth) {
      return undefined;
    }
    top.bid = bids.price;
    top.bidQty = bids.qty;
    top.ask = asks.price;
    top.askQty = asks.qty;
    top.bidDepth = bids.depth;
    top.askDepth = asks.depth;
    return top;
  }

  /** Reads a side's touch and five-level depth into `into`, as of the book's change count `changes`. */
  private read(market: Market, side: 'B' | 'S', into: SideRead, changes: number): void {
    const { prices, qtys } = this;
    const levels = market.book.l2Into(side, prices, qtys);
    let depth = 0;
    for (let i = 0; i < levels; i++) depth += qtys[i]!;
    into.price = levels > 0 ? prices[0]! : NaN;
    into.qty = levels > 0 ? qtys[0]! : NaN;
    into.depth = depth;
    into.changes = changes;
  }
}

/** Equal numbers, NaN equal to NaN (an empty side). */
export function same(a: number, b: number): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}
