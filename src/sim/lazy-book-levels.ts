import type { OrderBook } from '../book/order-book.ts';
import type { TickSize } from '../core/price.ts';
import type { Side } from '../core/types.ts';
import type { LevelChangeLog } from '../venue/level-change-log.ts';
import type { BookLevel } from '../wire/market-data.ts';
import { offerSideTicks } from '../strategy/book-ticks.ts';
import { LazyLevelsHandler } from './lazy-levels-handler.ts';
import { firstAtOrAbove, firstAtOrBelow } from './sorted-prices.ts';

/**
 * One side of a LEVEL_2 book update for an in-process strategy, captured as numbers when the
 * update is sent and rendered as wire levels (`{ p, q }`, decimal price text) only when read.
 *
 * Why: a recorded book has ~2,000 levels and changes on every recorded diff, while a strategy
 * typically reads the touch. Rendering every level as decimal text for every update was most
 * of a market-making replay's time. The capture (two number arrays) is cheap, and the levels a
 * strategy reads render once each, on first read, into the same objects every later read sees.
 *
 * To the strategy it is an array of `BookLevel`: indexing, `length`, iteration, `map`,
 * `JSON.stringify` all behave as on a plain array; a write of any kind (`sort`, `push`, an
 * assignment) first renders every level, then works on the plain array underneath.
 *
 * The capture itself is offered as the side's `SideTicks` (`sideTicks(levels)`), so a strategy
 * can read prices in ticks without rendering or parsing any text; not once the array was written.
 */
export class CapturedSide {
  private constructor(
    readonly priceTicks: readonly number[],
    readonly qtyLots: readonly number[],
  ) {}

  /** One side of `book` now, best first, as `book.l2(depth)` lists it. */
  static of(book: OrderBook, side: Side, depth = Infinity): CapturedSide {
    return CapturedSide.unlessSame(book, side, undefined, depth);
  }

  /**
   * `of`, or `last` itself when the side's levels equal it (captures never change, so an
   * unchanged side is shared). Read straight into two new number arrays, compared after:
   * `L2Capture` calls this only for a side whose change count moved, which has almost always
   * changed (every one of the example market maker's 54,667 an hour had). Plain arrays, not
   * views into a shared typed slab: a view took a builtin call each (`subarray`, ~700
   * instructions; two per side), about a third of a listener's LEVEL_2 update.
   */
  static unlessSame(book: OrderBook, side: Side, last: CapturedSide | undefined, depth = Infinity): CapturedSide {
    const { priceTicks, qtyLots } = book.l2Arrays(side, depth);
    if (last !== undefined && last.length === priceTicks.length && last.sameAs(priceTicks, qtyLots)) return last;
    return new CapturedSide(priceTicks, qtyLots);
  }

  /**
   * `of`, computed from `last` (a capture of the same side) and the prices of this side whose
   * levels may have changed since (`changed`, any order, repeats allowed; every changed level
   * must be among them): `last` is copied in bulk (`slice`) and only the named levels are read
   * from the book and set, inserted or removed. `last` itself when nothing changed.
   */
  static updated(book: OrderBook, side: Side, last: CapturedSide, changed: number[]): CapturedSide {
    const bids = side === 'B';
    // Worst first: bids by rising price, asks by falling price. An edit then moves only levels
    // worse than the next one named, so each named price sits where it sat in `last`.
    changed.sort(bids ? (x, y) => x - y : (x, y) => y - x);
    const oldP = last.priceTicks;
    const oldQ = last.qtyLots;
    const n = oldP.length;
    let outP: number[] | undefined;
    let outQ: number[] | undefined;
    for (let c = 0; c < changed.length; c++) {
      const p = changed[c]!;
      if (c > 0 && p === changed[c - 1]) continue;
      const at = bids ? firstAtOrBelow(oldP, p) : firstAtOrAbove(oldP, p);
      const q = book.levelLots(side, p);
      const listed = at < n && oldP[at] === p;
      if (listed ? q === oldQ[at] : q <= 0) continue;
      if (outP === undefined || outQ === undefined) (outP = oldP.slice()), (outQ = oldQ.slice());
      if (!listed) outP.splice(at, 0, p), outQ.splice(at, 0, q);
      else if (q > 0) outQ[at] = q;
      else outP.splice(at, 1), outQ.splice(at, 1);
    }
    return outP === undefined || outQ === undefined ? last : new CapturedSide(outP, outQ);
  }

  get length(): number {
    return this.priceTicks.length;
  }

  /** Same levels (prices and quantities) as `other`: an update identical to the last one sent. */
  equals(other: CapturedSide): boolean {
    return other.length === this.length && this.sameAs(other.priceTicks, other.qtyLots);
  }

  /** Same levels as the first `length` numbers of these columns. */
  private sameAs(priceTicks: ArrayLike<number>, qtyLots: ArrayLike<number>): boolean {
    const n = this.priceTicks.length;
    const p = this.priceTicks;
    const q = this.qtyLots;
    for (let i = 0; i < n; i++) if (p[i] !== priceTicks[i] || q[i] !== qtyLots[i]) return false;
    return true;
  }

  /** The side as an array of wire levels that renders each level on first read (offered to `sideTicks` by identity). */
  levels(tick: TickSize): BookLevel[] {
    const handler = new LazyLevelsHandler(this, tick);
    const view = new Proxy(new Array<BookLevel>(this.length), handler);
    handler.view = view;
    offerSideTicks(handler);
    return view;
  }
}

/**
 * The LEVEL_2 book a port last sent for one market, and how the next is captured: a side whose
 * change count (`OrderBook.changesOf`) stands is the last capture, unread; else from the last
 * one and the levels recorded liquidity changed since (`LevelChangeLog`) when every book change
 * in between was external, else in full. Either way the result equals `CapturedSide.of` of both
 * sides now (tested against it).
 */
export class L2Capture {
  private constructor(
    public bids: CapturedSide,
    public asks: CapturedSide,
    /** Levels a side (Infinity: all); only a whole book is updated from the log. */
    private readonly depth: number,
    /** `bookChanges` and the log's `announced` and `end` when captured. */
    private bookChanges: number,
    private announced: number,
    private logEnd: number,
    /** The book captured and its sides' change counts then. */
    private readonly book: OrderBook,
    private bidChanges: number,
    private askChanges: number,
  ) {}

  /** Both sides of `book` now (the first `depth` levels of each), in full. */
  static of(book: OrderBook, depth: number, bookChanges: number, log: LevelChangeLog | undefined): L2Capture {
    const bids = CapturedSide.of(book, 'B', depth);
    const asks = CapturedSide.of(book, 'S', depth);
    return new L2Capture(bids, asks, depth, bookChanges, log?.announced ?? 0, log?.end ?? 0, book, book.changesOf('B'), book.changesOf('S'));
  }

  /**
   * Captures the book again (`bookChanges`: the venue's book-change announcements for the
   * market so far); false when neither side changed since the last capture.
   */
  next(book: OrderBook, bookChanges: number, log: LevelChangeLog | undefined): boolean {
    const lastBids = this.bids;
    const lastAsks = this.asks;
    const bidChanges = book.changesOf('B');
    const askChanges = book.changesOf('S');
    // A side whose change count stands is not read at all (a third of a market maker's captures).
    const bidsStand = book === this.book && bidChanges === this.bidChanges;
    const asksStand = book === this.book && askChanges === this.askChanges;
    this.bidChanges = bidChanges;
    this.askChanges = askChanges;
    if (bidsStand && asksStand) {
      this.recordSeen(bookChanges, log);
      return false;
    }
    if (log !== undefined && this.depth === Infinity && bookChanges - this.bookChanges === log.announced - this.announced && book.orderCount === log.orderCount && log.knownSince(this.logEnd)) {
      const bids: number[] = [];
      const asks: number[] = [];
      for (let at = this.logEnd; at < log.end; at++) {
        const key = log.keyAt(at);
        if (key > 0) bids.push(key);
        else asks.push(-key);
      }
      this.bids = bids.length === 0 ? lastBids : CapturedSide.updated(book, 'B', lastBids, bids);
      this.asks = asks.length === 0 ? lastAsks : CapturedSide.updated(book, 'S', lastAsks, asks);
    } else {
      if (!bidsStand) this.bids = CapturedSide.unlessSame(book, 'B', lastBids, this.depth);
      if (!asksStand) this.asks = CapturedSide.unlessSame(book, 'S', lastAsks, this.depth);
    }
    this.recordSeen(bookChanges, log);
    return this.bids !== lastBids || this.asks !== lastAsks;
  }

  /** The venue's announcements and the log's position as of this capture. */
  private recordSeen(bookChanges: number, log: LevelChangeLog | undefined): void {
    this.bookChanges = bookChanges;
    this.announced = log?.announced ?? 0;
    this.logEnd = log?.end ?? 0;
  }
}
