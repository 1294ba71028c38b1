import type { Side } from '../core/types.ts';
import { Fnv1a64 } from '../core/hash.ts';
import type {
  BookEvent,
  L1View,
  L2View,
  L3LevelView,
  L3View,
  LevelView,
  PlaceCommand,
} from './events.ts';

/** A resting order: a node of its level's doubly linked FIFO queue. */
interface RestingOrder {
  readonly orderId: number;
  readonly ownerId: number;
  readonly side: Side;
  readonly priceTicks: number;
  qtyLots: number;
  level: PriceLevel;
  prev: RestingOrder | null;
  next: RestingOrder | null;
}

/** All resting orders at one price on one side, oldest first. */
interface PriceLevel {
  readonly priceTicks: number;
  totalLots: number;
  orderCount: number;
  head: RestingOrder | null;
  tail: RestingOrder | null;
}

/** How the book treats a taker meeting a resting order of the same owner. */
export type SelfTradePolicy = 'allow' | 'cancel-resting';

export interface OrderBookOptions {
  /** Default `allow`: the venue does not document self-trade prevention (decisions.md). */
  selfTrade?: SelfTradePolicy;
}

/**
 * One instrument's limit order book with price-time priority, in integer ticks and lots.
 *
 * Layout: each side keeps its levels in a sorted array with the best level *last* (bids
 * ascending, asks descending), so the touch is read in O(1) and levels are added or removed
 * near the touch with a short memmove; a Map from price to level finds an existing level in
 * O(1). Prices are sparse: a far-away order costs one level, never a dense price range.
 * Orders sit in a Map by id and in a per-level linked list, so cancel is O(1) (plus the
 * removal of its level when it was the last order there).
 *
 * Commands append their outcomes to `out` and return it; business outcomes are events,
 * while malformed commands (non-integer prices, duplicate ids) are caller bugs and throw.
 */
export class OrderBook {
  private readonly bidLevels: PriceLevel[] = []; // ascending, best last
  private readonly askLevels: PriceLevel[] = []; // descending, best last
  private readonly bidByPrice = new Map<number, PriceLevel>();
  private readonly askByPrice = new Map<number, PriceLevel>();
  private readonly orders = new Map<number, RestingOrder>();
  private readonly selfTrade: SelfTradePolicy;

  constructor(options: OrderBookOptions = {}) {
    this.selfTrade = options.selfTrade ?? 'allow';
  }

  /** Number of resting orders. */
  get orderCount(): number {
    return this.orders.size;
  }

  /** Best bid price in ticks, or undefined when there are no bids. O(1). */
  bestBidTicks(): number | undefined {
    const levels = this.bidLevels;
    return levels.length === 0 ? undefined : levels[levels.length - 1]!.priceTicks;
  }

  /** Best ask price in ticks, or undefined when there are no asks. O(1). */
  bestAskTicks(): number | undefined {
    const levels = this.askLevels;
    return levels.length === 0 ? undefined : levels[levels.length - 1]!.priceTicks;
  }

  /** True when an order with this id rests on the book. */
  has(orderId: number): boolean {
    return this.orders.has(orderId);
  }

  /** Open quantity of a resting order, or 0 when it is not on the book. */
  openLots(orderId: number): number {
    return this.orders.get(orderId)?.qtyLots ?? 0;
  }

  /**
   * Matches a new limit order against the opposite side, then rests (GTC) or expires (IOC)
   * the remainder. Post-only orders that would cross are rejected untouched.
   */
  place(cmd: PlaceCommand, out: BookEvent[] = []): BookEvent[] {
    const { orderId, side, priceTicks, qtyLots } = cmd;
    if (!Number.isSafeInteger(priceTicks) || !Number.isSafeInteger(qtyLots) || qtyLots <= 0) {
      throw new RangeError(`order ${orderId}: price ${priceTicks} and quantity ${qtyLots} must be integers, quantity > 0`);
    }
    if (this.orders.has(orderId)) throw new RangeError(`order ${orderId} is already on the book`);

    if (cmd.postOnly && this.wouldCross(side, priceTicks)) {
      out.push({ kind: 'rejected', orderId, reason: 'POST_ONLY_WOULD_CROSS' });
      return out;
    }

    const remaining = this.match(cmd, out);
    if (remaining === 0) return out;
    if (cmd.tif === 'IOC') {
      out.push({ kind: 'expired', orderId, qtyLots: remaining });
    } else {
      this.rest(cmd, remaining);
      out.push({ kind: 'rested', orderId, side, priceTicks, qtyLots: remaining });
    }
    return out;
  }

  /** Removes a resting order. An unknown (or already filled) id yields `cancel-rejected`. */
  cancel(orderId: number, out: BookEvent[] = []): BookEvent[] {
    const order = this.orders.get(orderId);
    if (order === undefined) {
      out.push({ kind: 'cancel-rejected', orderId, reason: 'UNKNOWN_ORDER' });
      return out;
    }
    this.unlink(order);
    out.push({ kind: 'canceled', orderId, qtyLots: order.qtyLots, reason: 'REQUESTED' });
    return out;
  }

  /**
   * Takes `byLots` off a resting order without losing its queue position (a partial cancel,
   * as in LOBSTER type-2 messages). Reducing by the whole open quantity cancels the order.
   */
  reduce(orderId: number, byLots: number, out: BookEvent[] = []): BookEvent[] {
    if (!Number.isSafeInteger(byLots) || byLots <= 0) throw new RangeError(`reduce by ${byLots}: must be an integer > 0`);
    const order = this.orders.get(orderId);
    if (order === undefined) {
      out.push({ kind: 'cancel-rejected', orderId, reason: 'UNKNOWN_ORDER' });
      return out;
    }
    if (byLots >= order.qtyLots) return this.cancel(orderId, out);
    order.qtyLots -= byLots;
    order.level.totalLots -= byLots;
    out.push({ kind: 'reduced', orderId, byLots, remainingLots: order.qtyLots });
    return out;
  }

  /** Top of each side. */
  l1(): L1View {
    return { bid: this.topView(this.bidLevels), ask: this.topView(this.askLevels) };
  }

  /** Every level (or the best `depth`), bids descending and asks ascending. */
  l2(depth = Infinity): L2View {
    return { bids: this.sideL2(this.bidLevels, depth), asks: this.sideL2(this.askLevels, depth) };
  }

  /** Every level with each order's open quantity in queue order. */
  l3(depth = Infinity): L3View {
    return { bids: this.sideL3(this.bidLevels, depth), asks: this.sideL3(this.askLevels, depth) };
  }

  /** Total open lots resting on the book (both sides). */
  restingLots(): number {
    let total = 0;
    for (const level of this.bidLevels) total += level.totalLots;
    for (const level of this.askLevels) total += level.totalLots;
    return total;
  }

  /** Hash of the full book content (levels, queue order, ids, owners, quantities). */
  stateHash(): string {
    const h = new Fnv1a64();
    for (const [name, levels] of [['B', this.bidLevels], ['S', this.askLevels]] as const) {
      h.update(name);
      for (let i = levels.length - 1; i >= 0; i--) {
        const level = levels[i]!;
        h.update(`${level.priceTicks}:${level.totalLots}`);
        for (let o = level.head; o !== null; o = o.next) h.update(`${o.orderId}/${o.ownerId}/${o.qtyLots}`);
      }
    }
    return h.hex();
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
  private match(cmd: PlaceCommand, out: BookEvent[]): number {
    const isBuy = cmd.side === 'B';
    const levels = isBuy ? this.askLevels : this.bidLevels;
    const byPrice = isBuy ? this.askByPrice : this.bidByPrice;
    const limit = cmd.priceTicks;
    let remaining = cmd.qtyLots;

    while (remaining > 0 && levels.length > 0) {
      const level = levels[levels.length - 1]!;
      if (isBuy ? level.priceTicks > limit : level.priceTicks < limit) break;

      let maker = level.head;
      while (maker !== null && remaining > 0) {
        const next = maker.next;
        if (maker.ownerId === cmd.ownerId && this.selfTrade === 'cancel-resting') {
          this.removeFromLevel(maker);
          out.push({ kind: 'canceled', orderId: maker.orderId, qtyLots: maker.qtyLots, reason: 'SELF_TRADE' });
          maker = next;
          continue;
        }
        const traded = maker.qtyLots < remaining ? maker.qtyLots : remaining;
        maker.qtyLots -= traded;
        level.totalLots -= traded;
        remaining -= traded;
        out.push({
          kind: 'trade',
          makerId: maker.orderId,
          makerOwnerId: maker.ownerId,
          takerId: cmd.orderId,
          takerOwnerId: cmd.ownerId,
          takerSide: cmd.side,
          priceTicks: level.priceTicks,
          qtyLots: traded,
          makerRemainingLots: maker.qtyLots,
          takerRemainingLots: remaining,
        });
        if (maker.qtyLots === 0) this.removeFromLevel(maker);
        maker = next;
      }
      if (level.orderCount === 0) {
        levels.pop();
        byPrice.delete(level.priceTicks);
      }
    }
    return remaining;
  }

  private rest(cmd: PlaceCommand, qtyLots: number): void {
    const isBuy = cmd.side === 'B';
    const byPrice = isBuy ? this.bidByPrice : this.askByPrice;
    let level = byPrice.get(cmd.priceTicks);
    if (level === undefined) {
      level = { priceTicks: cmd.priceTicks, totalLots: 0, orderCount: 0, head: null, tail: null };
      byPrice.set(cmd.priceTicks, level);
      insertLevel(isBuy ? this.bidLevels : this.askLevels, level, isBuy);
    }
    const order: RestingOrder = {
      orderId: cmd.orderId,
      ownerId: cmd.ownerId,
      side: cmd.side,
      priceTicks: cmd.priceTicks,
      qtyLots,
      level,
      prev: level.tail,
      next: null,
    };
    if (level.tail === null) level.head = order;
    else level.tail.next = order;
    level.tail = order;
    level.orderCount++;
    level.totalLots += qtyLots;
    this.orders.set(cmd.orderId, order);
  }

  /** Unlinks an order from its queue and the id map; the level stays even when empty. */
  private removeFromLevel(order: RestingOrder): void {
    const level = order.level;
    if (order.prev === null) level.head = order.next;
    else order.prev.next = order.next;
    if (order.next === null) level.tail = order.prev;
    else order.next.prev = order.prev;
    level.orderCount--;
    level.totalLots -= order.qtyLots;
    this.orders.delete(order.orderId);
  }

  /** Removes an order and, when it was the last one there, its level. */
  private unlink(order: RestingOrder): void {
    this.removeFromLevel(order);
    const level = order.level;
    if (level.orderCount > 0) return;
    const isBuy = order.side === 'B';
    const levels = isBuy ? this.bidLevels : this.askLevels;
    (isBuy ? this.bidByPrice : this.askByPrice).delete(level.priceTicks);
    // Levels near the touch are at the end: search from there.
    const at = findLevelIndex(levels, level.priceTicks, isBuy);
    levels.splice(at, 1);
  }

  private topView(levels: PriceLevel[]): LevelView | undefined {
    const top = levels[levels.length - 1];
    return top === undefined ? undefined : { priceTicks: top.priceTicks, qtyLots: top.totalLots };
  }

  private sideL2(levels: PriceLevel[], depth: number): LevelView[] {
    const n = Math.min(levels.length, depth);
    const view: LevelView[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const level = levels[levels.length - 1 - i]!;
      view[i] = { priceTicks: level.priceTicks, qtyLots: level.totalLots };
    }
    return view;
  }

  private sideL3(levels: PriceLevel[], depth: number): L3LevelView[] {
    const n = Math.min(levels.length, depth);
    const view: L3LevelView[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const level = levels[levels.length - 1 - i]!;
      const orders: { orderId: number; qtyLots: number }[] = [];
      for (let o = level.head; o !== null; o = o.next) orders.push({ orderId: o.orderId, qtyLots: o.qtyLots });
      view[i] = { priceTicks: level.priceTicks, qtyLots: level.totalLots, orders };
    }
    return view;
  }
}

/**
 * Index of the level with `priceTicks` in a side array (bids ascending, asks descending),
 * or of the slot where it would go.
 */
function findLevelIndex(levels: PriceLevel[], priceTicks: number, ascending: boolean): number {
  let lo = 0;
  let hi = levels.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const p = levels[mid]!.priceTicks;
    if (ascending ? p < priceTicks : p > priceTicks) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insertLevel(levels: PriceLevel[], level: PriceLevel, ascending: boolean): void {
  const at = findLevelIndex(levels, level.priceTicks, ascending);
  if (at === levels.length) levels.push(level);
  else levels.splice(at, 0, level);
}
