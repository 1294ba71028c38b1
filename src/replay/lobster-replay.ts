import type { BookEvent, L3LevelView, LevelView } from '../book/events.ts';
import { OrderBook } from '../book/order-book.ts';
import type { Side } from '../core/types.ts';
import type { Level } from './levels.ts';
import type { LobsterRow } from './lobster-reader.ts';

/**
 * Drives a real `OrderBook` order by order from LOBSTER messages (L3 replay).
 *
 * - 1 new order → `place` GTC (never crosses in LOBSTER data; one that would is an anomaly and
 *   is not placed); 2 partial cancel → `reduce`; 3 delete → `cancel`; 4 visible execution →
 *   `reduce` the resting order by the executed size (the aggressor is not in the data);
 *   5 hidden execution, 6 cross trade, 7 halt → no book change.
 * - Orders resting before the file starts are unknown: the book is seeded from the first
 *   orderbook row with the first message undone (row k is the state *after* message k) as
 *   anonymous orders (negative ids, one per level), and messages about unknown ids take their
 *   size from the anonymous liquidity at their price.
 * - A level-L message file only has events inside the top L levels. Levels beyond the L-th
 *   level of the previous row were out of sight: when one comes into the window (a level above
 *   it emptied), its quantity can only come from the orderbook row, so levels *beyond the
 *   previous window* are set from the row (`revealedLevels`), including removing levels that
 *   went away while out of sight. Levels inside the previous window are never touched: there
 *   the messages alone must reproduce the row, which is what the oracle checks.
 */
export class LobsterBookReplay {
  readonly book = new OrderBook();
  readonly stats = {
    /** Rows whose messages alone did not give the row's top L levels, so levels beyond the old window were set from it. */
    revealRows: 0,
    /** Levels that entered the window from beyond it, set from the orderbook row. */
    revealedLevels: 0,
    /** Lots added as anonymous orders by those reveals (and by seeding). */
    revealedLots: 0,
    /** Lots removed beyond the window because they were gone by the time the level came back in view. */
    staleLots: 0,
    /** Messages about order ids not on the book, applied to anonymous liquidity at their price. */
    unknownOrderMessages: 0,
  };
  /** Data problems inside the window (the first few, described), e.g. a new order that would cross. */
  readonly anomalies: string[] = [];
  anomalyCount = 0;

  private readonly out: BookEvent[] = [];
  /** Anonymous order ids per level (bids keyed by price, asks by −price), oldest first. */
  private readonly anonymous = new Map<number, number[]>();
  private nextAnonymousId = -1;
  /** Prices of the LOBSTER orders on the book. */
  private readonly knownPrices = new Map<number, number>();
  /** LOBSTER orders whose level went out of sight: their lots are part of the anonymous pool. */
  private readonly pooledIds = new Set<number>();
  private seeded = false;
  // The last row's window: prices at or inside these were verified. ±Infinity: the whole side.
  private bidBoundary = -Infinity;
  private askBoundary = Infinity;

  /** @param levels L, the number of levels per side in the orderbook file. */
  constructor(readonly levels: number) {}

  /** Applies one row's message; returns true when the book's top L levels then equal the row. */
  apply(row: LobsterRow): boolean {
    if (!this.seeded) this.seed(row);
    this.applyMessage(row);
    if (!this.matches(row)) {
      this.stats.revealRows++;
      this.reveal('B', row.bids);
      this.reveal('S', row.asks);
    }
    const ok = this.matches(row);
    const bidBoundary = row.bids.length === this.levels ? row.bids[this.levels - 1]!.priceTicks : -Infinity;
    const askBoundary = row.asks.length === this.levels ? row.asks[this.levels - 1]!.priceTicks : Infinity;
    if (bidBoundary > this.bidBoundary || askBoundary < this.askBoundary) this.hideLevels(bidBoundary, askBoundary);
    this.bidBoundary = bidBoundary;
    this.askBoundary = askBoundary;
    return ok;
  }

  /**
   * Levels pushed out of the window lose their orders' identities: out of sight an order may be
   * replaced (NASDAQ gives it a new id) or deleted without a message here. So their orders join
   * the level's anonymous liquidity, which later messages about unknown ids draw on.
   */
  private hideLevels(bidBoundary: number, askBoundary: number): void {
    // One message moves a window by at most one level (a new level inside it), so the level
    // that was L-th is now at most (L+1)-th.
    const view = this.book.l3(this.levels + 1);
    for (const level of view.bids) {
      if (level.priceTicks < bidBoundary && level.priceTicks >= this.bidBoundary) this.makeAnonymous('B', level);
    }
    for (const level of view.asks) {
      if (level.priceTicks > askBoundary && level.priceTicks <= this.askBoundary) this.makeAnonymous('S', level);
    }
  }

  private makeAnonymous(side: Side, level: L3LevelView): void {
    const key = side === 'B' ? level.priceTicks : -level.priceTicks;
    const ids = this.anonymous.get(key) ?? [];
    for (const { orderId } of level.orders) {
      if (orderId > 0 && !this.pooledIds.has(orderId)) {
        this.pooledIds.add(orderId);
        ids.push(orderId);
      }
    }
    if (ids.length > 0) this.anonymous.set(key, ids);
  }

  /** True when the top L levels of the book equal the row's. */
  matches(row: LobsterRow): boolean {
    const view = this.book.l2(this.levels);
    return sameLevels(view.bids, row.bids) && sameLevels(view.asks, row.asks);
  }

  /** The state before row 1: its orderbook row with its message undone, as anonymous orders. */
  private seed(first: LobsterRow): void {
    this.seeded = true;
    const bids = new Map(first.bids.map((l) => [l.priceTicks, l.qtyLots]));
    const asks = new Map(first.asks.map((l) => [l.priceTicks, l.qtyLots]));
    const levels = first.side === 'B' ? bids : asks;
    const at = levels.get(first.priceTicks) ?? 0;
    if (first.type === 1) {
      if (at > first.size) levels.set(first.priceTicks, at - first.size);
      else levels.delete(first.priceTicks);
    } else if (first.type === 2 || first.type === 3 || first.type === 4) {
      levels.set(first.priceTicks, at + first.size);
    }
    for (const [priceTicks, qtyLots] of bids) this.addAnonymous('B', priceTicks, qtyLots);
    for (const [priceTicks, qtyLots] of asks) this.addAnonymous('S', priceTicks, qtyLots);
    this.bidBoundary = first.bids.length === this.levels ? first.bids[this.levels - 1]!.priceTicks : -Infinity;
    this.askBoundary = first.asks.length === this.levels ? first.asks[this.levels - 1]!.priceTicks : Infinity;
  }

  private applyMessage(row: LobsterRow): void {
    const { type, orderId, size, priceTicks, side } = row;
    if (type >= 5) return;
    const out = this.out;
    out.length = 0;
    if (type === 1) {
      const best = side === 'B' ? this.book.bestAskTicks() : this.book.bestBidTicks();
      if (this.book.has(orderId)) return this.anomaly(row, `new order ${orderId} is already on the book`);
      if (best !== undefined && (side === 'B' ? priceTicks >= best : priceTicks <= best)) {
        return this.anomaly(row, `new ${side === 'B' ? 'buy' : 'sell'} order ${orderId} at ${priceTicks} would cross the best ${side === 'B' ? 'ask' : 'bid'} ${best}; not placed`);
      }
      this.book.place({ orderId, ownerId: 0, side, priceTicks, qtyLots: size, tif: 'GTC', postOnly: false }, out);
      this.knownPrices.set(orderId, priceTicks);
      return;
    }
    const open = orderId > 0 && this.knownPrices.get(orderId) === priceTicks ? this.book.openLots(orderId) : 0;
    if (open === 0) {
      // Not on the book at this price: it rested before the file started, or was placed or
      // replaced out of sight. Its lots are part of the anonymous liquidity there.
      this.stats.unknownOrderMessages++;
      const missing = this.takeAnonymous(side, priceTicks, size);
      if (missing > 0 && this.isInWindow(side, priceTicks)) {
        this.anomaly(row, `unknown order ${orderId}: only ${size - missing} of ${size} lots of anonymous liquidity at ${priceTicks}`);
      }
      return;
    }
    // A pooled order (its level went out of sight) may have changed unseen, and other pooled
    // orders may have lent it lots: the message's size is what the level loses.
    const pooled = this.pooledIds.has(orderId);
    if (!pooled && (type === 3 ? size !== open : size > open)) {
      this.anomaly(row, `order ${orderId} has ${open} lots open, the message ${type === 3 ? 'deletes' : 'takes'} ${size}`);
    }
    if (size >= open || (type === 3 && !pooled)) {
      this.book.cancel(orderId, out);
      this.forget(orderId);
      if (size > open) this.takeAnonymous(side, priceTicks, size - open);
    } else {
      this.book.reduce(orderId, size, out);
    }
  }

  /** Drops a LOBSTER order that left the book from the bookkeeping. */
  private forget(orderId: number): void {
    this.knownPrices.delete(orderId);
    this.pooledIds.delete(orderId);
  }

  /** True when `priceTicks` was inside the last verified window of its side. */
  private isInWindow(side: Side, priceTicks: number): boolean {
    return side === 'B' ? priceTicks >= this.bidBoundary : priceTicks <= this.askBoundary;
  }

  /** Makes the side's levels beyond the previous window equal the row's (see the class comment). */
  private reveal(side: Side, expected: readonly Level[]): void {
    const full = expected.length === this.levels;
    const last = expected[expected.length - 1]?.priceTicks;
    // Inside the region: beyond the old window, and not beyond the row's last level (when full).
    const inRegion = (p: number): boolean =>
      !this.isInWindow(side, p) && (!full || (side === 'B' ? p >= last! : p <= last!));
    const want = new Map(expected.filter((l) => inRegion(l.priceTicks)).map((l) => [l.priceTicks, l.qtyLots]));
    for (const level of this.levelsUpTo(side, full ? last! : undefined)) {
      if (!inRegion(level.priceTicks)) continue;
      const target = want.get(level.priceTicks) ?? 0;
      want.delete(level.priceTicks);
      if (level.qtyLots > target) this.removeLots(side, level.priceTicks, level.qtyLots - target);
      else if (level.qtyLots < target) this.addAnonymous(side, level.priceTicks, target - level.qtyLots);
      if (level.qtyLots !== target) this.stats.revealedLevels++;
    }
    for (const [priceTicks, qtyLots] of want) {
      this.addAnonymous(side, priceTicks, qtyLots);
      this.stats.revealedLevels++;
    }
  }

  /** The book's levels on one side from the best down to `limit` (inclusive), or all of them. */
  private levelsUpTo(side: Side, limit: number | undefined): LevelView[] {
    for (let depth = 2 * this.levels; ; depth *= 2) {
      const view = this.book.l2(depth);
      const levels = side === 'B' ? view.bids : view.asks;
      const worst = levels[levels.length - 1];
      const pastLimit = limit !== undefined && worst !== undefined && (side === 'B' ? worst.priceTicks < limit : worst.priceTicks > limit);
      if (levels.length < depth || pastLimit) return levels;
    }
  }

  private addAnonymous(side: Side, priceTicks: number, qtyLots: number): void {
    if (qtyLots <= 0) return;
    const orderId = this.nextAnonymousId--;
    this.book.place({ orderId, ownerId: 1, side, priceTicks, qtyLots, tif: 'GTC', postOnly: false }, this.out);
    this.out.length = 0;
    const key = side === 'B' ? priceTicks : -priceTicks;
    const ids = this.anonymous.get(key);
    if (ids === undefined) this.anonymous.set(key, [orderId]);
    else ids.push(orderId);
    this.stats.revealedLots += qtyLots;
  }

  /** Takes up to `lots` from the anonymous orders at a level, oldest first; returns what was not found. */
  private takeAnonymous(side: Side, priceTicks: number, lots: number): number {
    const key = side === 'B' ? priceTicks : -priceTicks;
    const ids = this.anonymous.get(key);
    // Hidden-away LOBSTER orders in the list may have left the book since (by their own id).
    while (ids !== undefined && ids.length > 0 && lots > 0) {
      const id = ids[0]!;
      const open = this.book.openLots(id);
      const take = Math.min(open, lots);
      if (take > 0) this.book.reduce(id, take, this.out);
      this.out.length = 0;
      lots -= take;
      if (take === open) {
        ids.shift();
        if (id > 0) this.forget(id);
      }
    }
    if (ids !== undefined && ids.length === 0) this.anonymous.delete(key);
    return lots;
  }

  /** Removes stale lots at a level out of sight: anonymous first, then known orders, newest first. */
  private removeLots(side: Side, priceTicks: number, lots: number): void {
    this.stats.staleLots += lots;
    let left = this.takeAnonymous(side, priceTicks, lots);
    if (left === 0) return;
    const orders = this.ordersAt(side, priceTicks);
    for (let i = orders.length - 1; i >= 0 && left > 0; i--) {
      const { orderId, qtyLots } = orders[i]!;
      const take = Math.min(qtyLots, left);
      this.book.reduce(orderId, take, this.out);
      this.out.length = 0;
      if (take === qtyLots) this.forget(orderId);
      left -= take;
    }
  }

  /** The orders at one level, in queue order (none when the level is empty). */
  private ordersAt(side: Side, priceTicks: number): { orderId: number; qtyLots: number }[] {
    const depth = this.levelsUpTo(side, priceTicks).length;
    const view = this.book.l3(depth);
    return (side === 'B' ? view.bids : view.asks).find((l) => l.priceTicks === priceTicks)?.orders ?? [];
  }

  private anomaly(row: LobsterRow, what: string): void {
    this.anomalyCount++;
    if (this.anomalies.length < 20) this.anomalies.push(`row ${row.row}: ${what}`);
  }
}

function sameLevels(got: readonly LevelView[], expected: readonly Level[]): boolean {
  if (got.length !== expected.length) return false;
  for (let i = 0; i < got.length; i++) {
    if (got[i]!.priceTicks !== expected[i]!.priceTicks || got[i]!.qtyLots !== expected[i]!.qtyLots) return false;
  }
  return true;
}
