import type { Side } from '../core/types.ts';
import type { Market } from '../venue/market.ts';
import type { Venue } from '../venue/venue.ts';
import type { BookUpdate } from '../wire/market-data.ts';
import type { TopRecord } from './order-notes.ts';
import { L2Capture } from './lazy-book-levels.ts';
import type { PortHub } from './port-hub.ts';

/**
 * What one in-process port last sent of each market's book, so it skips an update that repeats
 * it, as the websocket does: the touch for LEVEL_1, the captured levels for LEVEL_2.
 */
export class SentBooks {
  /**
   * Top of book last recorded per LEVEL_1 subscription, by `market.index`: bid price, bid qty,
   * the bid side's change count when it was read, then the same three of the ask side (an array
   * read by index: a map lookup per book change before).
   */
  private readonly lastL1: (number[] | undefined)[] = [];
  /** Levels last sent per LEVEL_2 subscription (bids, asks), by `market.index` (read at every update: no map lookup). */
  private readonly lastL2: (L2Capture | undefined)[] = [];
  /** One level a side, read into reused arrays (no level objects per check). */
  private readonly price = new Float64Array(1);
  private readonly qty = new Float64Array(1);

  constructor(
    private readonly venue: Venue,
    private readonly hub: PortHub,
  ) {}

  /** Forgets what was sent of `market`: the next update is sent whatever it shows (a new subscription). */
  forget(market: Market): void {
    // The L1 entry is kept (agents glance at books: a delete and a new array each time) but
    // made unequal to any top: NaN equals nothing.
    const l1 = this.lastL1[market.index];
    if (l1 !== undefined) (l1[0] = Number.NaN), (l1[2] = -1), (l1[5] = -1); // and both sides read again
    this.lastL2[market.index] = undefined;
  }

  /**
   * The LEVEL_2 update of `market` now (its first `depth` levels a side), unless those levels
   * equal the last one sent: the levels are captured as numbers and rendered as text only when
   * the strategy reads them (`lazy-book-levels.ts`), so reading the touch of a deep book costs
   * the touch.
   */
  level2Update(market: Market, depth: number, sec: number, nanos: number): BookUpdate | undefined {
    const book = market.book;
    const changes = this.hub.bookChanges(market);
    const log = this.venue.external.changeLog(market);
    let capture = this.lastL2[market.index];
    if (capture === undefined) this.lastL2[market.index] = capture = L2Capture.of(book, depth, changes, log);
    else if (!capture.next(book, changes, log)) return undefined;
    const tick = market.instrument.tick;
    return { t: '2', ts: sec, tn: nanos, s: market.symbol, b: capture.bids.levels(tick), a: capture.asks.levels(tick) };
  }

  /**
   * Writes into `out` the top `isNewTop` recorded last for `market`, in ticks and lots: what a
   * LEVEL_1 update shows, with no price text.
   */
  writeTop(out: TopRecord, market: Market): void {
    const last = this.lastL1[market.index]!;
    out.s = market.symbol;
    out.marketIndex = market.index;
    out.bidTicks = last[0]! >= 0 ? last[0] : undefined;
    out.bidLots = last[1]!;
    out.askTicks = last[3]! >= 0 ? last[3] : undefined;
    out.askLots = last[4]!;
  }

  /**
   * Records the market's top of book; false when it equals the one last recorded. A side is read
   * only when the book's change count of that side moved since it was last read
   * (`OrderBook.changesOf`, which moves whenever a level of the side changed): a book change
   * usually touches one side, and an unread side's top is the one recorded.
   */
  isNewTop(market: Market): boolean {
    let last = this.lastL1[market.index];
    if (last === undefined) this.lastL1[market.index] = last = [Number.NaN, 0, -1, Number.NaN, 0, -1];
    const bidMoved = this.readTouch(market, 'B', last, 0);
    return this.readTouch(market, 'S', last, 3) || bidMoved;
  }

  /**
   * Reads one side's touch (price, or -1 when empty; lots) into `last[at]`, `last[at + 1]` when
   * the side's change count (kept at `last[at + 2]`) moved; true when the touch differs from
   * the one recorded.
   */
  private readTouch(market: Market, side: Side, last: number[], at: number): boolean {
    const book = market.book;
    const changes = book.changesOf(side);
    if (changes === last[at + 2]) return false;
    last[at + 2] = changes;
    const { price, qty } = this;
    const has = book.l2Into(side, price, qty) > 0;
    const priceTicks = has ? price[0]! : -1;
    const lots = has ? qty[0]! : 0;
    if (last[at] === priceTicks && last[at + 1] === lots) return false;
    last[at] = priceTicks;
    last[at + 1] = lots;
    return true;
  }
}
