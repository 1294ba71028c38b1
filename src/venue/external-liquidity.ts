import { BookEvents, EV_TRADE } from '../book/book-events.ts';
import type { BookEvent, TradeEvent } from '../book/events.ts';
import type { OrderBook } from '../book/order-book.ts';
import type { Side } from '../core/types.ts';
import { EXTERNAL_OWNER } from './external-owner.ts';
import { LevelChangeLog } from './level-change-log.ts';
import { LastRowOfKey } from './level-keys.ts';
import type { Market } from './market.ts';
import type { Order } from './order.ts';
import type { OrderFlow } from './order-flow.ts';

/**
 * The ids recorded quantity shows (as a maker, in L3 views and the state hash) start here: far
 * above any `O-` counter (a run would have to place a billion orders to meet them), positive
 * (`L-` ids are negative), int32s for the first billion recorded level increases. Each
 * increase takes the next one, as each re-queued external order did when every recorded level
 * was a book order (so replays' state hashes did not change with the book's redesign).
 */
export const EXTERNAL_ID_BASE = 2 ** 30;

/** One recorded level's change: the new absolute external quantity at a price (0 removes it). */
export interface ExternalLevelUpdate {
  side: Side;
  priceTicks: number;
  qtyLots: number;
}

/**
 * A recorded book change as columns (no object per level): rows `from`..`to` (exclusive) of
 * `side` (1 bid, 2 ask), `priceTicks`, `qtyLots`, each the new absolute quantity at a price.
 */
export interface LevelColumns {
  side: Uint8Array;
  priceTicks: Float64Array;
  qtyLots: Float64Array;
  from: number;
  to: number;
}

const SIDE_BID = 1;

/**
 * Recorded (replayed L2) liquidity inside the venue's own books.
 *
 * Design: each recorded price level's quantity lives in the book's level record
 * (`OrderBook.setExternalInto`, src/book/book-external.ts), owned by `EXTERNAL_OWNER`, a
 * participant with no account. So everything that reads the book — market-data feeds, the
 * mark price, the price band, post-only checks, matching of crossing orders — sees the
 * recorded market with no parallel path, while the recorded side never touches margin, fees,
 * positions or funding (`OrderFlow.settleTrade` settles only the account side of a trade
 * with recorded quantity). A decrease keeps the quantity's place in its level's queue, an
 * increase moves it to the back (new quantity joins behind account orders already there)
 * with a new id, zero removes it. Not an order: no id index entry, no price → id map here
 * (a level change is the book's level lookup and a stored number).
 *
 * Accounts' orders sit in the same book. How far a resting account order is from the front of
 * a recorded level is not the book's FIFO (a recording does not say where quantity was added
 * or canceled): the replay layer's queue models estimate it and call `fillFromRecordedTrade`
 * when a recorded trade reaches the order. A recorded level that crosses account orders
 * trades with them at their prices (the recorded side takes), like a new aggressive order.
 */
export class ExternalLiquidity {
  /** Per market, the levels these changes touched (for market-data captures, `level-change-log.ts`). */
  private readonly logs = new Map<Market, LevelChangeLog>();
  private nextId = EXTERNAL_ID_BASE;
  private readonly events: BookEvent[] = [];
  /** The book's outcomes as records (no object per operation). */
  private readonly records = new BookEvents();
  /** Scratch of `applyLevelColumns`: each level's last row in the batch. */
  private readonly lastRow = new LastRowOfKey();
  /** Scratch of `applyLevelColumns`: rows, then the increases' rows. */
  private rowScratch = new Int32Array(64);
  /** Scratch of level scans (crossed levels, a reset): prices and lots, best first. */
  private scanPrices = new Float64Array(16);
  private scanLots = new Float64Array(16);

  constructor(private readonly flow: OrderFlow) {}

  /** The levels recorded changes touched in `market` (undefined before the first). */
  changeLog(market: Market): LevelChangeLog | undefined {
    return this.logs.get(market);
  }

  /** External lots displayed at (side, price) now (0 when none). */
  displayedLots(market: Market, side: Side, priceTicks: number): number {
    return market.book.externalLots(side, priceTicks);
  }

  /**
   * Applies recorded level changes; with `reset` every external level of the market goes
   * first (a snapshot). Account orders stay. One book change is announced for the batch.
   */
  applyLevels(market: Market, updates: readonly ExternalLevelUpdate[], reset: boolean): void {
    const n = updates.length;
    const columns: LevelColumns = { side: new Uint8Array(n), priceTicks: new Float64Array(n), qtyLots: new Float64Array(n), from: 0, to: n };
    updates.forEach((u, i) => {
      columns.side[i] = u.side === 'B' ? SIDE_BID : 2;
      columns.priceTicks[i] = u.priceTicks;
      columns.qtyLots[i] = u.qtyLots;
    });
    this.applyLevelColumns(market, columns, reset);
  }

  /** `applyLevels` on columns: what the replay calls, with no object per level. */
  applyLevelColumns(market: Market, c: LevelColumns, reset: boolean): void {
    const book = market.book;
    const log = this.logOf(market);
    log.begin(book.orderCount);
    if (reset) {
      this.clearSide(book, 'B');
      this.clearSide(book, 'S');
      log.forget();
    }
    const n = this.uniqueRows(c);
    const rows = this.rowScratch;
    // Decreases apply at once, increases after them: a batch that moves the touch never
    // crosses itself midway.
    let increases = 0;
    for (let u = 0; u < n; u++) {
      const i = rows[u]!;
      const bid = c.side[i] === SIDE_BID;
      const priceTicks = c.priceTicks[i]!;
      const qtyLots = c.qtyLots[i]!;
      log.add(bid ? priceTicks : -priceTicks);
      // A decrease (or removal) applies in the same level lookup that tells an increase.
      if (qtyLots > book.lowerExternal(bid ? 'B' : 'S', priceTicks, qtyLots)) rows[increases++] = i;
    }
    for (let u = 0; u < increases; u++) {
      const i = rows[u]!;
      this.raise(market, c.side[i] === SIDE_BID ? 'B' : 'S', c.priceTicks[i]!, c.qtyLots[i]!);
    }
    log.finish(book.orderCount);
    this.flow.afterBookChange(market);
  }

  /**
   * Rows `from`..`to` of `c` with one row per level, into `rowScratch` (returns their count):
   * a batch may name a level twice, and its last value counts, in the place of its first mention.
   */
  private uniqueRows(c: LevelColumns): number {
    const n = c.to - c.from;
    if (this.rowScratch.length < n) this.rowScratch = new Int32Array(Math.max(n, 2 * this.rowScratch.length));
    return this.lastRow.collect(c.side, c.priceTicks, c.from, c.to, this.rowScratch);
  }

  /**
   * A recorded trade reached an account's resting order: fill `lots` of it at `priceTicks`
   * against the recorded aggressor (the order is the maker). Caller checks `lots` ≤ open lots.
   */
  fillFromRecordedTrade(order: Order, lots: number, priceTicks: number): void {
    const market = order.market!;
    const log = this.logOf(market);
    log.begin(market.book.orderCount);
    market.book.reduce(order.seq, lots, this.cleared());
    log.add(keyOf(order.side, order.priceTicks));
    const takerSide: Side = order.side === 'B' ? 'S' : 'B';
    this.flow.settleTrade(externalTrade(order.seq, order.userId, takerSide, priceTicks, lots), undefined, market);
    log.finish(market.book.orderCount);
    this.flow.afterBookChange(market);
  }

  /** A recorded trade between recorded participants only: printed (trade feed, candles, stats). */
  printRecordedTrade(market: Market, priceTicks: number, lots: number, takerSide: Side): void {
    this.flow.settleTrade(externalTrade(0, EXTERNAL_OWNER, takerSide, priceTicks, lots), undefined, market);
  }

  /**
   * A level grows to `qtyLots`: its quantity goes to the back of the level's queue with a new
   * id, after removing the opposite recorded levels it crosses; the part that crosses account
   * orders trades with them at their prices (the recorded side takes).
   */
  private raise(market: Market, side: Side, priceTicks: number, qtyLots: number): void {
    const book = market.book;
    const best = side === 'B' ? book.bestAskTicks() : book.bestBidTicks();
    if (best !== undefined && (side === 'B' ? best <= priceTicks : best >= priceTicks)) this.removeCrossedExternal(market, side, priceTicks);
    const events = this.records;
    events.clear();
    book.setExternalInto(side, priceTicks, qtyLots, this.nextId++, events);
    market.levelLotsBound += qtyLots;
    for (let e = 0; e < events.length; e++) {
      if (events.kind(e) !== EV_TRADE) continue;
      // An account order on the other side traded: its level changed.
      this.logOf(market).add(side === 'B' ? -events.priceTicks(e) : events.priceTicks(e));
      this.flow.settleTrade(events.at(e) as TradeEvent, undefined, market);
    }
  }

  /**
   * Removes the opposite recorded quantity this price would cross: the recording has moved past
   * it (its later rows would remove it), and recorded liquidity never trades with itself.
   */
  private removeCrossedExternal(market: Market, side: Side, priceTicks: number): void {
    const book = market.book;
    const opposite: Side = side === 'B' ? 'S' : 'B';
    const log = this.logOf(market);
    const crosses = (p: number) => (side === 'B' ? p <= priceTicks : p >= priceTicks);
    // The crossed levels, best first (a scan as long as the scratch; longer only when all of it crosses).
    let n = book.l2Into(opposite, this.scanPrices, this.scanLots);
    while (n === this.scanPrices.length && crosses(this.scanPrices[n - 1]!)) n = this.growScan(book, opposite);
    for (let i = 0; i < n && crosses(this.scanPrices[i]!); i++) {
      const p = this.scanPrices[i]!;
      if (book.lowerExternal(opposite, p, 0) > 0) log.add(opposite === 'B' ? p : -p);
    }
  }

  /** Every recorded quantity of one side goes (a reset); account orders stay. */
  private clearSide(book: OrderBook, side: Side): void {
    let n = book.l2Into(side, this.scanPrices, this.scanLots);
    while (n < book.depthOf(side)) n = this.growScan(book, side);
    for (let i = 0; i < n; i++) book.lowerExternal(side, this.scanPrices[i]!, 0);
  }

  /** Doubles the scan scratch and reads the side again into it. */
  private growScan(book: OrderBook, side: Side): number {
    this.scanPrices = new Float64Array(2 * this.scanPrices.length);
    this.scanLots = new Float64Array(this.scanPrices.length);
    return book.l2Into(side, this.scanPrices, this.scanLots);
  }

  private logOf(market: Market): LevelChangeLog {
    let log = this.logs.get(market);
    if (log === undefined) this.logs.set(market, (log = new LevelChangeLog()));
    return log;
  }

  private cleared(): BookEvent[] {
    this.events.length = 0;
    return this.events;
  }
}

function keyOf(side: Side, priceTicks: number): number {
  return side === 'B' ? priceTicks : -priceTicks;
}

/** A trade whose aggressor is the recorded market (no account order). */
function externalTrade(makerId: number, makerOwnerId: number, takerSide: Side, priceTicks: number, qtyLots: number): TradeEvent {
  return { kind: 'trade', makerId, makerOwnerId, takerId: 0, takerOwnerId: EXTERNAL_OWNER, takerSide, priceTicks, qtyLots, makerRemainingLots: 0, takerRemainingLots: 0 };
}
