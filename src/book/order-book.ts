import type { Side } from '../core/types.ts';
import { Fnv1a64 } from '../core/hash.ts';
import type { BookEvent, L1View, L2View, L3View, PlaceCommand } from './events.ts';
import { BookEvents, CANCEL_REQUESTED, CANCEL_SELF_TRADE } from './book-events.ts';
import { hashSide, levelQueue, sideL2, sideL2Into, sideL3, sideLots, topView } from './book-views.ts';
import { IdIndex } from './id-index.ts';
import { NONE, O_ID, O_LEVEL, O_OWNER, O_QTY, OrderSlots, WIDE, fitsInt32, smi } from './order-slots.ts';
import { LevelSlots } from './price-levels.ts';
import { SideLevels } from './side-levels.ts';

const INT32_MAX = 2147483647;

/** How the book treats a taker meeting a resting order of the same owner. */
export type SelfTradePolicy = 'allow' | 'cancel-resting';

export interface OrderBookOptions {
  /** Default `allow`: the venue does not document self-trade prevention (decisions.md). */
  selfTrade?: SelfTradePolicy;
}

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
 */
export class OrderBook {
  private readonly orders = new OrderSlots();
  private readonly levels = new LevelSlots();
  private readonly bids = new SideLevels();
  private readonly asks = new SideLevels();
  private readonly ids = new IdIndex();
  private readonly cancelSelfTrades: boolean;
  /** Scratch buffer behind the value-returning commands. */
  private readonly scratch = new BookEvents();

  constructor(options: OrderBookOptions = {}) {
    this.cancelSelfTrades = (options.selfTrade ?? 'allow') === 'cancel-resting';
  }

  /** Number of resting orders. */
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

  /** Total lots resting at one price on one side (0 when there is no level). For overflow checks. */
  levelLots(side: Side, priceTicks: number): number {
    const level = side === 'B' ? this.bids.levelOf(priceTicks) : this.asks.levelOf(-priceTicks);
    return level === NONE ? 0 : this.levels.total[level]!;
  }

  /**
   * The live orders of one level in queue order, with their owners (empty when there is no
   * level). For the venue's undo of a failed command, which rebuilds levels from these.
   */
  levelQueue(side: Side, priceTicks: number): { orderId: number; ownerId: number; qtyLots: number }[] {
    const level = side === 'B' ? this.bids.levelOf(priceTicks) : this.asks.levelOf(-priceTicks);
    return level === NONE ? [] : levelQueue(this.levels, level, this.orders);
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

  /** `place`, with the outcomes appended to `out` as records. */
  placeInto(cmd: PlaceCommand, out: BookEvents): void {
    const { side, priceTicks, qtyLots } = cmd;
    if (!Number.isSafeInteger(priceTicks) || !Number.isSafeInteger(qtyLots) || qtyLots <= 0) {
      throw new RangeError(`order ${cmd.orderId}: price ${priceTicks} and quantity ${qtyLots} must be integers, quantity > 0`);
    }
    const orderId = smi(cmd.orderId);
    if (!this.ids.absent(orderId)) throw new RangeError(`order ${orderId} is already on the book`);
    const isBuy = side === 'B';

    if (cmd.postOnly && this.wouldCross(side, priceTicks)) {
      out.rejected(orderId);
      return;
    }

    const ownerId = smi(cmd.ownerId);
    // Most orders do not cross: the touch alone says so, without a call.
    const opposite = isBuy ? this.asks : this.bids;
    const n = opposite.length;
    const crosses = n > 0 && opposite.keys[n - 1]! >= (isBuy ? -priceTicks : priceTicks);
    const remaining = crosses ? this.match(orderId, ownerId, isBuy, smi(priceTicks), smi(qtyLots), out) : smi(qtyLots);
    if (remaining === 0) return;
    if (cmd.tif === 'IOC') {
      out.expired(orderId, remaining);
    } else {
      this.rest(orderId, ownerId, isBuy, priceTicks, remaining);
      out.rested(orderId, isBuy ? 0 : 1, smi(priceTicks), remaining);
    }
  }

  /** `cancel`, with the outcome appended to `out` as a record. */
  cancelInto(orderId: number, out: BookEvents): void {
    const ids = this.ids;
    const o = ids.take(orderId);
    if (o === NONE) {
      out.cancelRejected(smi(orderId));
      return;
    }
    const qtyLots = this.orders.field(o, O_QTY);
    this.retire(o, this.orders.data[o + O_LEVEL]!, qtyLots);
    out.canceled(smi(orderId), qtyLots, CANCEL_REQUESTED);
  }

  /** `reduce`, with the outcome appended to `out` as a record. */
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
    out.reduced(orders.field(o, O_ID), smi(byLots), smi(remainingLots));
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

  /** The number of levels of a side. */
  depthOf(side: Side): number {
    return (side === 'B' ? this.bids : this.asks).length;
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
    hashSide(h, 'B', this.levels, this.bids, this.orders);
    hashSide(h, 'S', this.levels, this.asks, this.orders);
    return h.hex();
  }

  private bestTicks(side: SideLevels): number | undefined {
    return side.length === 0 ? undefined : this.levels.price[side.levels[side.length - 1]!];
  }

  private wouldCross(side: Side, priceTicks: number): boolean {
    if (side === 'B') {
      const ask = this.bestAskTicks();
      return ask !== undefined && ask <= priceTicks;
    }
    const bid = this.bestBidTicks();
    return bid !== undefined && bid >= priceTicks;
  }

  /** Fills the taker against the opposite side; returns the lots left unfilled. */
  private match(takerId: number, takerOwnerId: number, isBuy: boolean, limitTicks: number, qtyLots: number, out: BookEvents): number {
    const side = isBuy ? this.asks : this.bids;
    // A level crosses when its key (price for bids, -price for asks) reaches this.
    const crossKey = isBuy ? -limitTicks : limitTicks;
    let remaining = qtyLots;
    while (remaining > 0 && side.length > 0 && side.keys[side.length - 1]! >= crossKey) {
      const level = side.levels[side.length - 1]!;
      remaining = this.matchLevel(level, takerId, takerOwnerId, isBuy ? 0 : 1, remaining, out);
      if (this.levels.count[level] === 0) {
        side.pop();
        this.freeLevel(level);
      }
    }
    return remaining;
  }

  /** Fills the taker against one level's queue, oldest first; returns the lots left unfilled. */
  private matchLevel(level: number, takerId: number, takerOwnerId: number, takerSideCode: number, qtyLots: number, out: BookEvents): number {
    const levels = this.levels;
    const orders = this.orders;
    const data = orders.data; // matching never allocates, so `data` stays current
    const priceTicks = levels.price[level]!;
    const ring = levels.ring[level]!;
    const mask = ring.length - 1;
    let head = levels.head[level]!;
    let queued = levels.queued[level]!;
    let remaining = qtyLots;
    // While the level has live orders one of them is in the ring; canceled entries before it
    // are dropped on the way.
    while (remaining > 0 && levels.count[level]! > 0) {
      const maker = ring[head]!;
      const rawLots = data[maker + O_QTY]!;
      const makerLots = rawLots === WIDE ? orders.field(maker, O_QTY) : rawLots;
      if (makerLots > 0 && !(this.cancelSelfTrades && orders.field(maker, O_OWNER) === takerOwnerId)) {
        const traded = makerLots < remaining ? makerLots : remaining;
        const makerRemainingLots = makerLots - traded;
        if (rawLots === WIDE) orders.setField(maker, O_QTY, makerRemainingLots);
        else data[maker + O_QTY] = makerRemainingLots;
        levels.total[level]! -= traded;
        remaining -= traded;
        const makerId = orders.field(maker, O_ID);
        out.trade(makerId, orders.field(maker, O_OWNER), takerId, takerOwnerId, takerSideCode, priceTicks, traded, makerRemainingLots, remaining);
        // The taker is done; the maker stays at the head.
        if (makerRemainingLots > 0) continue;
        this.ids.take(makerId);
        levels.count[level]!--;
      } else if (makerLots > 0) {
        // Self-trade prevention: the resting order goes, untraded.
        const orderId = orders.field(maker, O_ID);
        this.ids.take(orderId);
        levels.count[level]!--;
        levels.total[level]! -= makerLots;
        out.canceled(orderId, makerLots, CANCEL_SELF_TRADE);
      }
      // The head entry is done with: filled, self-trade canceled, or canceled earlier.
      head = (head + 1) & mask;
      queued--;
      orders.release(maker);
    }
    levels.head[level] = head;
    levels.queued[level] = queued;
    return remaining;
  }

  private rest(orderId: number, ownerId: number, isBuy: boolean, priceTicks: number, qtyLots: number): void {
    const side = isBuy ? this.bids : this.asks;
    const key = isBuy ? priceTicks : -priceTicks;
    const levels = this.levels;
    let level = side.levelOf(key);
    if (level === NONE) {
      level = levels.allocate(priceTicks, !isBuy);
      side.insert(key, level);
    }
    const orders = this.orders;
    const o = orders.allocate();
    const data = orders.data;
    data[o + O_LEVEL] = level;
    // Values beyond int32 go beside the record, exactly (see `OrderSlots`); the common case
    // costs a comparison, not a call (this function is too large for the call to be inlined).
    if (qtyLots <= INT32_MAX) data[o + O_QTY] = qtyLots;
    else orders.setField(o, O_QTY, qtyLots);
    if (fitsInt32(orderId)) data[o + O_ID] = orderId;
    else orders.setField(o, O_ID, orderId);
    if (fitsInt32(ownerId)) data[o + O_OWNER] = ownerId;
    else orders.setField(o, O_OWNER, ownerId);
    levels.enqueue(level, o);
    levels.count[level]!++;
    levels.total[level] = smi(levels.total[level]! + qtyLots);
    this.ids.add(orderId, o);
  }

  /**
   * Takes a resting order (its id already out of the index) off its level: marks the record
   * canceled (quantity 0) for the ring to drop later, and removes the level when it was the
   * last order there, or compacts the ring when canceled entries outnumber live ones.
   */
  private retire(o: number, level: number, qtyLots: number): void {
    const data = this.orders.data;
    const levels = this.levels;
    data[o + O_QTY] = 0;
    levels.total[level]! -= qtyLots;
    const live = --levels.count[level]!;
    if (live === 0) {
      const isAsk = levels.isAsk[level] === 1;
      const priceTicks = levels.price[level]!;
      (isAsk ? this.asks : this.bids).remove(isAsk ? -priceTicks : priceTicks);
      this.freeLevel(level);
    } else if (levels.queued[level]! > 2 * live + 16) {
      levels.compact(level, data, this.releaseOrder);
    }
  }

  private readonly releaseOrder = (o: number): void => this.orders.release(o);

  /** Frees a level with no live orders left, with the canceled records still in its ring. */
  private freeLevel(level: number): void {
    this.levels.compact(level, this.orders.data, this.releaseOrder);
    this.levels.release(level);
  }
}
