import type { ExternalLevelUpdate, LevelColumns } from '../../src/venue/external-liquidity.ts';
import { BookEvents, EV_RESTED, EV_TRADE } from '../../src/book/book-events.ts';
import type { BookEvent, TradeEvent } from '../../src/book/events.ts';
import type { Side } from '../../src/core/types.ts';
import { EXTERNAL_OWNER } from '../../src/venue/external-owner.ts';
import { LevelChangeLog } from '../../src/venue/level-change-log.ts';
import type { Market } from '../../src/venue/market.ts';
import type { Order } from '../../src/venue/order.ts';
import type { OrderFlow } from '../../src/venue/order-flow.ts';
import type { VenueState } from '../../src/venue/venue-state.ts';

const EXTERNAL_ID_BASE = 2 ** 30;
const ABSENT = -1;

/** Level key → book id, as the old `LevelKeyMap` answered (a plain Map: the oracle need not be fast). */
class LevelKeyMap extends Map<number, number> {
  override get(key: number): number {
    return super.get(key) ?? ABSENT;
  }
  keyList(): number[] {
    return [...this.keys()];
  }
}

const SIDE_BID = 1;

/**
 * THE ORACLE of the venue's recorded liquidity: `ExternalLiquidity` as it was before recorded
 * quantity moved into the book's level records (round 7 of issue 10) — each recorded price
 * level ONE book order owned by `EXTERNAL_OWNER`, reduced in place on a decrease, re-queued
 * (`raiseLast` in place when it is last) with a new id on an increase. Test-only: the property
 * test drives it and the real one side by side (`external-liquidity-oracle.test.ts`).
 *
 * The original comment follows.
 *
 * Recorded (replayed L2) liquidity inside the venue's own books.
 *
 * Design: each recorded price level is ONE resting book order owned by `EXTERNAL_OWNER`, a
 * participant with no account. So everything that reads the book — market-data feeds, the
 * mark price, the price band, post-only checks, matching of crossing orders — sees the
 * recorded market with no parallel path, while the recorded side never touches margin, fees,
 * positions or funding (`OrderFlow.settleTrade` settles only the account side of a trade
 * with an external order). The level's order is restated when the recording changes it:
 * a decrease reduces it in place (keeping its queue place), an increase re-queues it at the
 * back (new quantity joins behind orders already there), zero removes it.
 *
 * Accounts' orders sit in the same book. How far a resting account order is from the front of
 * a recorded level is not the book's FIFO (a recording does not say where quantity was added
 * or canceled): the replay layer's queue models estimate it and call `fillFromRecordedTrade`
 * when a recorded trade reaches the order. A recorded level that crosses account orders
 * trades with them at their prices (the recorded side takes), like a new aggressive order.
 */
export class RecordedOrdersOracle {
  /** Book id of the external order at each (market, side, price); key = price for bids, −price for asks. */
  private readonly levels = new Map<Market, LevelKeyMap>();
  /** Per market, the levels these changes touched (for market-data captures, `level-change-log.ts`). */
  private readonly logs = new Map<Market, LevelChangeLog>();
  private nextId = EXTERNAL_ID_BASE;
  private readonly events: BookEvent[] = [];
  /** The book's outcomes as records (no object per operation). */
  private readonly records = new BookEvents();
  /** Scratch of `applyLevelColumns`: rows, then the increases' rows, book ids and shown lots. */
  private rowScratch = new Int32Array(64);
  private idScratch = new Float64Array(64);
  private shownScratch = new Float64Array(64);
  /** External levels removed because a recorded level crossed them (a change count). */
  private removed = 0;

  constructor(
    private readonly s: VenueState,
    private readonly flow: OrderFlow,
  ) {}

  /** The levels recorded changes touched in `market` (undefined before the first). */
  changeLog(market: Market): LevelChangeLog | undefined {
    return this.logs.get(market);
  }

  /** External lots displayed at (side, price) now (0 when none). */
  displayedLots(market: Market, side: Side, priceTicks: number): number {
    const id = this.levelsOf(market).get(keyOf(side, priceTicks));
    return id === ABSENT ? 0 : market.book.openLots(id);
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
    const levels = this.levelsOf(market);
    const book = market.book;
    const log = this.logOf(market);
    log.begin(book.orderCount);
    if (reset) {
      for (const id of levels.values()) if (book.has(id)) book.cancelInto(id, this.clearedRecords());
      levels.clear();
      log.forget();
    }
    const n = this.uniqueRows(c);
    const rows = this.rowScratch;
    const ids = this.idScratch;
    const shown = this.shownScratch;
    // Each level is looked up once (its book id, then its open lots); decreases apply at once,
    // increases after them: a batch that moves the touch never crosses itself midway.
    let increases = 0;
    for (let u = 0; u < n; u++) {
      const i = rows[u]!;
      const key = c.side[i] === SIDE_BID ? c.priceTicks[i]! : -c.priceTicks[i]!;
      const id = levels.get(key);
      const lots = id === ABSENT ? 0 : book.openLots(id);
      const qtyLots = c.qtyLots[i]!;
      log.add(key);
      if (qtyLots < lots) {
        book.reduceInto(id, lots - qtyLots, this.clearedRecords());
        if (qtyLots === 0) levels.delete(key);
      } else if (qtyLots > lots) {
        rows[increases] = i;
        ids[increases] = id;
        shown[increases++] = lots;
      }
    }
    // What was looked up stays true until an increase removes crossed levels (then look again).
    const removedBefore = this.removed;
    for (let u = 0; u < increases; u++) {
      const i = rows[u]!;
      const side: Side = c.side[i] === SIDE_BID ? 'B' : 'S';
      const priceTicks = c.priceTicks[i]!;
      if (this.removed === removedBefore) this.raise(market, levels, side, priceTicks, c.qtyLots[i]!, ids[u]!, shown[u]!);
      else this.setLevel(market, levels, side, priceTicks, c.qtyLots[i]!);
    }
    log.finish(book.orderCount);
    this.flow.afterBookChange(market);
  }

  /**
   * Rows `from`..`to` of `c` with one row per level, into `rowScratch` (returns their count):
   * a batch may name a level twice, and its last value counts, in the place of its first mention.
   * A plain Map (its keys keep the order of their first set), not the venue's `LastRowOfKey`:
   * the oracle would not see that table's bugs if it used it.
   */
  private uniqueRows(c: LevelColumns): number {
    const n = c.to - c.from;
    if (this.rowScratch.length < n) {
      const size = Math.max(n, 2 * this.rowScratch.length);
      this.rowScratch = new Int32Array(size);
      this.idScratch = new Float64Array(size);
      this.shownScratch = new Float64Array(size);
    }
    const lastRow = new Map<number, number>();
    for (let row = c.from; row < c.to; row++) lastRow.set(c.side[row] === SIDE_BID ? c.priceTicks[row]! : -c.priceTicks[row]!, row);
    let u = 0;
    for (const row of lastRow.values()) this.rowScratch[u++] = row;
    return u;
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

  private setLevel(market: Market, levels: LevelKeyMap, side: Side, priceTicks: number, qtyLots: number): void {
    const key = keyOf(side, priceTicks);
    const id = levels.get(key);
    const shown = id === ABSENT ? 0 : market.book.openLots(id);
    if (qtyLots < shown) {
      market.book.reduceInto(id, shown - qtyLots, this.clearedRecords());
      if (qtyLots === 0) levels.delete(key);
      return;
    }
    if (qtyLots > shown) this.raise(market, levels, side, priceTicks, qtyLots, id, shown);
  }

  /**
   * A level grows from `shown` lots (its order `id`, or ABSENT) to `qtyLots`: its order goes to
   * the back of the level's queue with the new quantity (a new id), after removing the opposite
   * external levels it crosses; the part that crosses account orders trades with them (the
   * old order, on the other side of the book, takes no part in that).
   */
  private raise(market: Market, levels: LevelKeyMap, side: Side, priceTicks: number, qtyLots: number, id: number, shown: number): void {
    const book = market.book;
    const log = this.logOf(market);
    // (The original raised its order in place with `OrderBook.raiseLast` when it was last in its
    // level: the same book as what follows, which the oracle always does.)
    this.removeCrossedExternal(market, levels, side, priceTicks);
    const newId = this.nextId++;
    const events = this.clearedRecords();
    book.placeInto({ orderId: newId, ownerId: EXTERNAL_OWNER, side, priceTicks, qtyLots, tif: 'GTC', postOnly: false }, events);
    let rested = false;
    for (let e = 0; e < events.length; e++) {
      const kind = events.kind(e);
      if (kind === EV_TRADE) {
        // An account order on the other side traded: its level changed.
        log.add(side === 'B' ? -events.priceTicks(e) : events.priceTicks(e));
        this.flow.settleTrade(events.at(e) as TradeEvent, undefined, market);
      }
      else if (kind === EV_RESTED) rested = true;
    }
    // The old order goes after the new one is queued behind it: the same queue as removing it
    // first, but a level that never empties midway is not freed and made again in the book.
    if (id !== ABSENT && shown > 0) book.cancelInto(id, this.clearedRecords());
    const key = keyOf(side, priceTicks);
    if (rested) levels.set(key, newId);
    else levels.delete(key);
  }

  /**
   * Removes opposite external levels this price would cross: the recording has moved past them
   * (its later rows would remove them), and recorded liquidity never trades with itself.
   */
  private removeCrossedExternal(market: Market, levels: LevelKeyMap, side: Side, priceTicks: number): void {
    const best = side === 'B' ? market.book.bestAskTicks() : market.book.bestBidTicks();
    if (best === undefined || (side === 'B' ? best > priceTicks : best < priceTicks)) return;
    const remove = (key: number): void => {
      const id = levels.get(key);
      if (id === ABSENT) return;
      if (market.book.has(id)) market.book.cancelInto(id, this.clearedRecords());
      levels.delete(key);
      this.logOf(market).add(key);
      this.removed++;
    };
    // The crossed range is usually a few ticks: probe it; scan the map only when it is wider.
    const width = Math.abs(priceTicks - best) + 1;
    if (width <= levels.size) {
      for (let i = 0; i < width; i++) remove(side === 'B' ? -(best + i) : best - i);
      return;
    }
    for (const key of levels.keyList()) {
      if ((key > 0) === (side === 'B')) continue;
      const p = Math.abs(key);
      if (side === 'B' ? p <= priceTicks : p >= priceTicks) remove(key);
    }
  }

  private levelsOf(market: Market): LevelKeyMap {
    let levels = this.levels.get(market);
    if (levels === undefined) this.levels.set(market, (levels = new LevelKeyMap()));
    return levels;
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

  private clearedRecords(): BookEvents {
    this.records.clear();
    return this.records;
  }
}

function keyOf(side: Side, priceTicks: number): number {
  return side === 'B' ? priceTicks : -priceTicks;
}

/** A trade whose aggressor is the recorded market (no account order). */
function externalTrade(makerId: number, makerOwnerId: number, takerSide: Side, priceTicks: number, qtyLots: number): TradeEvent {
  return { kind: 'trade', makerId, makerOwnerId, takerId: 0, takerOwnerId: EXTERNAL_OWNER, takerSide, priceTicks, qtyLots, makerRemainingLots: 0, takerRemainingLots: 0 };
}
