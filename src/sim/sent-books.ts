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
   * ask price, ask qty, and the book's change count of each side when it was read (an array read
   * by index: a map lookup per book change before).
   */
  private readonly lastL1: ([number, number, number, number, number, number] | undefined)[] = [];
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
    if (l1 !== undefined) (l1[0] = Number.NaN), (l1[4] = -1), (l1[5] = -1); // and both sides read again
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
    out.bidTicks = last[0] >= 0 ? last[0] : undefined;
    out.bidLots = last[1];
    out.askTicks = last[2] >= 0 ? last[2] : undefined;
    out.askLots = last[3];
  }

  /**
   * Records the market's top of book; false when it equals the one last recorded. A side is read
   * only when the book's change count of that side moved since it was last read
   * (`OrderBook.changesOf`, which moves whenever a level of the side changed): a book change
   * usually touches one side, and an unread side's top is the one recorded.
   */
  isNewTop(market: Market): boolean {
    const book = market.book;
    const bidChanges = book.changesOf('B');
    const askChanges = book.changesOf('S');
    let last = this.lastL1[market.index];
    if (last === undefined) this.lastL1[market.index] = last = [Number.NaN, 0, Number.NaN, 0, -1, -1];
    const { price, qty } = this;
    let bp = last[0];
    let bq = last[1];
    if (bidChanges !== last[4]) {
      const hasBid = book.l2Into('B', price, qty) > 0;
      bp = hasBid ? price[0]! : -1;
      bq = hasBid ? qty[0]! : 0;
      last[4] = bidChanges;
    }
    let ap = last[2];
    let aq = last[3];
    if (askChanges !== last[5]) {
      const hasAsk = book.l2Into('S', price, qty) > 0;
      ap = hasAsk ? price[0]! : -1;
      aq = hasAsk ? qty[0]! : 0;
      last[5] = askChanges;
    }
    if (last[0] === bp && last[1] === bq && last[2] === ap && last[3] === aq) return false;
    (last[0] = bp), (last[1] = bq), (last[2] = ap), (last[3] = aq);
    return true;
  }
}
