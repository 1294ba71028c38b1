import type { Side } from '../core/types.ts';
import { Fnv1a64 } from '../core/hash.ts';
import type { BookEvent, L1View, L2View, L3View, PlaceCommand } from './events.ts';
import { BookEvents } from './book-events.ts';
import { Chunk, LevelRec, Mark, Rec, type OrderBookOptions } from './book-core.ts';
import { BookExternal, type QueueEntry } from './book-external.ts';
import { hashSide, levelQueue, sideL2, sideL2Arrays, sideL2Into, sideL3, sideLots, topView } from './book-views.ts';
import { NONE, O_ID, O_LEVEL, O_QTY, smi } from './order-slots.ts';
import type { SideLevels } from './side-levels.ts';

export type { OrderBookOptions, SelfTradePolicy } from './book-core.ts';
export type { QueueEntry } from './book-external.ts';

/**
 * One instrument's limit order book with price-time priority, in integer ticks and lots.
 *
 * Layout (flat arrays, so that hundreds of thousands of resting orders cost the garbage
 * collector next to nothing and an operation touches few cache lines): orders are records in
 * `OrderSlots`, each level keeps a FIFO ring of its orders (`LevelSlots`), and an `IdIndex`
 * maps order ids to records, so cancel is O(1): it marks the record and leaves it in the ring
 * until matching or a compaction passes it. Each side keeps its levels in a `SideLevels`
 * array sorted with the best level *last*, so the touch is read in O(1) and levels come and
 * go near the touch with a short move. Prices are sparse: a far-away order costs one level,
 * never a dense price range.
 *
 * Commands append their outcomes to an event buffer: `placeInto` / `cancelInto` /
 * `reduceInto` write records into a reusable `BookEvents` (the hot path: no allocation), and
 * `place` / `cancel` / `reduce` return the same outcomes as `BookEvent` values. Business
 * outcomes are events, while malformed commands (non-integer prices, duplicate ids) are caller
 * bugs and throw.
 *
 * Recorded (replayed) liquidity is a per-level lot total with a queue place, not an order:
 * `setExternalInto` / `externalLots` / `restoreLevelInto` (see `book-external.ts`); every view
 * shows it as an order of the external owner at its place.
 */
export class OrderBook extends BookExternal {
  /** Scratch buffer behind the value-returning commands. */
  private readonly scratch = new BookEvents();

  constructor(options: OrderBookOptions = {}) {
    super(options);
  }

  /** Number of resting orders (recorded quantity is not an order). */
  get orderCount(): number {
    return this.ids.size;
  }

  /** Best bid price in ticks, or undefined when there are no bids. O(1). */
  bestBidTicks(): number | undefined {
    return this.bestTicks(this.bids);
  }

  /** Best ask price in ticks, or undefined when there are no asks. O(1). */
  bestAskTicks(): number | undefined {
    return this.bestTicks(this.asks);
  }

  /** Total lots resting at one price on one side, recorded included (0 when there is no level). For overflow checks. */
  levelLots(side: Side, priceTicks: number): number {
    const level = this.levelAt(side, priceTicks);
    return level === NONE ? 0 : this.levels.total[level]!;
  }

  /**
   * The live orders of one level in queue order, with their owners, the recorded quantity as an
   * entry of the external owner at its place (empty when there is no level). For the venue's
   * undo of a failed command, which rebuilds levels from these (`restoreLevelInto`).
   */
  levelQueue(side: Side, priceTicks: number): QueueEntry[] {
    const level = this.levelAt(side, priceTicks);
    return level === NONE ? [] : levelQueue(this.levels, level, this.orders, this.externalOwner);
  }

  /** True when an order with this id rests on the book. */
  has(orderId: number): boolean {
    return this.ids.get(orderId) !== NONE;
  }

  /** Open quantity of a resting order, or 0 when it is not on the book. */
  openLots(orderId: number): number {
    const o = this.ids.get(orderId);
    return o === NONE ? 0 : this.orders.field(o, O_QTY);
  }

  /**
   * Matches a new limit order against the opposite side, then rests (GTC) or expires (IOC)
   * the remainder. Post-only orders that would cross are rejected untouched. Returns the
   * outcomes as values, appended to `out`.
   */
  place(cmd: PlaceCommand, out: BookEvent[] = []): BookEvent[] {
    const events = this.scratch;
    events.clear();
    this.placeInto(cmd, events);
    return events.appendTo(out);
  }

  /** Removes a resting order. An unknown (or already filled) id yields `cancel-rejected`. */
  cancel(orderId: number, out: BookEvent[] = []): BookEvent[] {
    const events = this.scratch;
    events.clear();
    this.cancelInto(orderId, events);
    return events.appendTo(out);
  }

  /**
   * Takes `byLots` off a resting order without losing its queue position (a partial cancel,
   * as in LOBSTER type-2 messages). Reducing by the whole open quantity cancels the order.
   */
  reduce(orderId: number, byLots: number, out: BookEvent[] = []): BookEvent[] {
    const events = this.scratch;
    events.clear();
    this.reduceInto(orderId, byLots, events);
    return events.appendTo(out);
  }

  /** `OrderBook.reduce`, with the outcome appended to `out` as a record. */
  reduceInto(orderId: number, byLots: number, out: BookEvents): void {
    if (!Number.isSafeInteger(byLots) || byLots <= 0) throw new RangeError(`reduce by ${byLots}: must be an integer > 0`);
    const o = this.ids.get(orderId);
    if (o === NONE) {
      out.cancelRejected(smi(orderId));
      return;
    }
    const orders = this.orders;
    const openLots = orders.field(o, O_QTY);
    if (byLots >= openLots) {
      this.cancelInto(orderId, out);
      return;
    }
    const remainingLots = openLots - byLots;
    orders.setField(o, O_QTY, remainingLots);
    const level = orders.data[o + O_LEVEL]!;
    this.levels.total[level] = smi(this.levels.total[level]! - byLots);
    this.sideChanges[this.levels.rec[level * LevelRec.Stride + LevelRec.Side]!]!++;
    out.reduced(orders.field(o, O_ID), smi(byLots), smi(remainingLots));
  }

  /**
   * Gives the last entry of its level's queue, an order, a new id and more lots, in place: the
   * same book as placing `newId` at its price with `qtyLots` and then canceling it (it was last
   * and stays last), without a new record, a level lookup or a match. False, and nothing
   * changed, when a live order or the recorded quantity is behind it.
   */
  raiseLast(orderId: number, newId: number, qtyLots: number): boolean {
    const o = this.ids.get(orderId);
    if (o === Mark.None) return false;
    const orders = this.orders;
    const openLots = orders.field(o, Rec.Qty);
    if (!Number.isSafeInteger(qtyLots) || qtyLots <= openLots) throw new RangeError(`raise order ${orderId} to ${qtyLots}: must be an integer above its ${openLots} lots`);
    const levels = this.levels;
    const data = orders.data;
    const level = data[o + Rec.Level]!;
    // Last among the live: canceled entries (quantity 0) may follow it in the queue. Queues are
    // chunks linked forward, so the walk is from the head (in the recorded-orders design this
    // serves, a level holds one order).
    const b = level * LevelRec.Stride;
    const slab = levels.slab;
    let lastLive = Mark.None;
    let lastLiveAt = -1;
    for (let k = 0, at = levels.rec[b + LevelRec.Head]!, n = levels.rec[b + LevelRec.Queued]!; k < n; k++) {
      const entry = slab[at++]!;
      if ((at & Chunk.Mask) === Chunk.Link) at = slab[at]!;
      if (data[entry + Rec.Qty] !== 0) {
        lastLive = entry;
        lastLiveAt = k;
      }
    }
    if (lastLive !== o || levels.rec[b + LevelRec.Ext]! > lastLiveAt) return false;
    const id = smi(newId);
    if (!this.ids.absent(id)) throw new RangeError(`order ${id} is already on the book`);
    this.ids.take(orderId);
    this.ids.add(id, o);
    orders.setField(o, Rec.Id, id);
    orders.setField(o, Rec.Qty, qtyLots);
    levels.total[level] = smi(levels.total[level]! + (qtyLots - openLots));
    this.sideChanges[levels.rec[b + LevelRec.Side]!]!++;
    return true;
  }

  /** Top of each side. */
  l1(): L1View {
    return { bid: topView(this.levels, this.bids), ask: topView(this.levels, this.asks) };
  }

  /** Every level (or the best `depth`), bids descending and asks ascending. */
  l2(depth = Infinity): L2View {
    return { bids: sideL2(this.levels, this.bids, depth), asks: sideL2(this.levels, this.asks, depth) };
  }

  /**
   * A side's levels, best first, written into columns (no object per level; for capturing a
   * deep book on every change): as many as the columns hold, at most `depthOf(side)` (shorter
   * columns take the best levels only). Returns the count written.
   */
  l2Into(side: Side, priceTicks: Float64Array, qtyLots: Float64Array): number {
    return sideL2Into(this.levels, side === 'B' ? this.bids : this.asks, priceTicks, qtyLots);
  }

  /** A side's best `depth` levels (all when Infinity), best first, as two new number arrays (no object per level). */
  l2Arrays(side: Side, depth: number): { priceTicks: number[]; qtyLots: number[] } {
    return sideL2Arrays(this.levels, side === 'B' ? this.bids : this.asks, depth);
  }

  /** `sideChanges` of one side: unchanged since a read, the side's levels are as they were then. */
  changesOf(side: Side): number {
    return this.sideChanges[side === 'B' ? 0 : 1]!;
  }

  /** The number of levels of a side. */
  depthOf(side: Side): number {
    const levels = side === 'B' ? this.bids : this.asks;
    return levels.length - levels.empties;
  }

  /** Every level with each order's open quantity in queue order. */
  l3(depth = Infinity): L3View {
    return {
      bids: sideL3(this.levels, this.bids, this.orders, depth),
      asks: sideL3(this.levels, this.asks, this.orders, depth),
    };
  }

  /** Total open lots resting on the book (both sides). */
  restingLots(): number {
    return sideLots(this.levels, this.asks, sideLots(this.levels, this.bids, 0));
  }

  /** Hash of the full book content (levels, queue order, ids, owners, quantities). */
  stateHash(): string {
    const h = new Fnv1a64();
    hashSide(h, 'B', this.levels, this.bids, this.orders, this.externalOwner);
    hashSide(h, 'S', this.levels, this.asks, this.orders, this.externalOwner);
    return h.hex();
  }

  private bestTicks(side: SideLevels): number | undefined {
    return side.length === 0 ? undefined : this.levels.price[side.levels[side.length - 1]!];
  }
}
