/**
 * Price level records, shared by both sides, each with the FIFO queue of its orders.
 *
 * Why a ring of order references per level and not a linked list through the orders: a
 * doubly linked list makes a cancel write to both neighbours, two more random places in
 * memory, and makes matching chase one pointer at a time. Here a cancel only marks its order
 * record (quantity 0) and leaves the reference in the ring; matching skips such entries when
 * it reaches them and frees their records, and a level whose ring holds more canceled entries
 * than live ones is compacted, so memory stays within a small factor of the live orders and
 * cancel stays O(1) amortized. Matching reads references that sit side by side, so the
 * processor can fetch several order records at once.
 *
 * `price` and `total` are number arrays, not Float64Arrays, because they flow into events and
 * views (see `OrderSlots` for why that matters).
 */
import { growI32, growNumbers, smi, zeros, type OrderSlots } from './order-slots.ts';

/**
 * Literals for the hot methods (a module-level constant costs a load and a check at every use
 * in V8's optimized code; see `Rec` in `book-core.ts`).
 */
export const enum K {
  /** `NONE` of `order-slots.ts`: no level. */
  None = -1,
  /** `O_QTY` of `order-slots.ts`. */
  Qty = 0,
  InitialLevels = 256,
  InitialRing = 8,
}

/** Level records. Fields are public for the book's hot loops. */
export class LevelSlots {
  /** Price, ticks. */
  readonly price = zeros(K.InitialLevels);
  /** Open lots of the live orders at the level. */
  readonly total = zeros(K.InitialLevels);
  /** Number of live orders at the level. */
  count = new Int32Array(K.InitialLevels);
  /** 1 for an ask level, 0 for a bid level. */
  isAsk = new Uint8Array(K.InitialLevels);
  /** Per level, a ring (power-of-two length) of order references, oldest first. */
  readonly ring: Int32Array[] = [];
  /** Position of the oldest entry in the level's ring; the free list for free level slots. */
  head = new Int32Array(K.InitialLevels);
  /** Entries in the level's ring, live and canceled. */
  queued = new Int32Array(K.InitialLevels);

  private highWater = 0;
  private freeHead = K.None;

  /** An empty level at `priceTicks`; may grow the arrays. */
  allocate(priceTicks: number, isAsk: boolean): number {
    let slot = this.freeHead;
    if (slot !== K.None) {
      this.freeHead = this.head[slot]!;
    } else {
      if (this.highWater === this.count.length) this.grow();
      slot = this.highWater++;
      this.ring.push(new Int32Array(K.InitialRing));
    }
    this.price[slot] = smi(priceTicks);
    this.total[slot] = 0;
    this.count[slot] = 0;
    this.isAsk[slot] = isAsk ? 1 : 0;
    this.head[slot] = 0;
    this.queued[slot] = 0;
    return slot;
  }

  /** Returns a level slot, whose ring the caller has emptied, to the free list. */
  release(slot: number): void {
    this.head[slot] = this.freeHead;
    this.freeHead = slot;
  }

  /** Appends an order reference to the level's queue. */
  enqueue(level: number, o: number): void {
    let ring = this.ring[level]!;
    const n = this.queued[level]!;
    if (n === ring.length) ring = this.regrow(level, ring.length * 2);
    ring[(this.head[level]! + n) & (ring.length - 1)] = o;
    this.queued[level] = n + 1;
  }

  /**
   * Rewrites the level's queue without its canceled entries (quantity 0 in their records),
   * returning each of their records to `orders`, in queue order. A method of `orders` rather
   * than a callback: V8 inlines a call on a known class, not one through a closure.
   */
  compact(level: number, orders: OrderSlots): void {
    const data = orders.data;
    const ring = this.ring[level]!;
    const mask = ring.length - 1;
    const start = this.head[level]!;
    const n = this.queued[level]!;
    let kept = 0;
    // Live entries move towards the head, never past an entry not yet read, so one pass in
    // place suffices.
    for (let k = 0; k < n; k++) {
      const o = ring[(start + k) & mask]!;
      if (data[o + K.Qty] === 0) orders.release(o);
      else ring[(start + kept++) & mask] = o;
    }
    this.queued[level] = kept;
  }

  private regrow(level: number, capacity: number): Int32Array {
    const old = this.ring[level]!;
    const ring = new Int32Array(capacity);
    const start = this.head[level]!;
    const n = this.queued[level]!;
    // At most two runs (the ring wraps once), each one memory copy rather than a loop of masked
    // element copies (which was ~5% of `book.mix`'s instructions, queues growing from empty).
    const first = Math.min(n, old.length - start);
    ring.set(old.subarray(start, start + first), 0);
    if (first < n) ring.set(old.subarray(0, n - first), first);
    this.ring[level] = ring;
    this.head[level] = 0;
    return ring;
  }

  private grow(): void {
    const capacity = this.count.length * 2;
    growNumbers(this.price, capacity);
    growNumbers(this.total, capacity);
    this.count = growI32(this.count, capacity);
    this.head = growI32(this.head, capacity);
    this.queued = growI32(this.queued, capacity);
    const isAsk = new Uint8Array(capacity);
    isAsk.set(this.isAsk);
    this.isAsk = isAsk;
  }
}
