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

/**
 * A level's int32 fields, side by side at `rec[level * Lv.Stride + Lv.*]`: one array, so a
 * command that reads or updates a level pays one base-pointer load and one bounds check, and
 * touches one cache line, instead of one of each per field array.
 */
export const enum Lv {
  /** Position of the oldest entry in the level's ring; the next free level while free. */
  Head = 0,
  /** Entries in the level's ring, live and canceled. */
  Queued = 1,
  /** Number of live orders at the level. */
  Count = 2,
  /** The level's side: 0 bid, 1 ask (the book's side codes). */
  Side = 3,
  /**
   * The queue place of the level's recorded (external) quantity: how many ring entries, live or
   * canceled, are ahead of it (`Queued` when it is last); `None` when the level has none. In the
   * same line as the fields every command reads, so a level without it costs one load to tell.
   */
  Ext = 4,
  /** Eight, not five: a record never straddles a cache line. */
  Stride = 8,
}

/** Level records. Fields are public for the book's hot loops. */
export class LevelSlots {
  /** Price, ticks. */
  readonly price = zeros(K.InitialLevels);
  /** Open lots of the live orders at the level, and of its recorded quantity. */
  readonly total = zeros(K.InitialLevels);
  /** Recorded (external) lots at the level; read only while `Ext` is not None. */
  readonly extLots = zeros(K.InitialLevels);
  /** The id the recorded quantity shows as a maker and in views (any number). */
  readonly extId = zeros(K.InitialLevels);
  /** The int32 fields of each level (see `Lv`). Replaced (grown) by `allocate`. */
  rec = new Int32Array(K.InitialLevels * Lv.Stride);
  /** Per level, a ring (power-of-two length) of order references, oldest first. */
  readonly ring: Int32Array[] = [];

  private highWater = 0;
  private freeHead = K.None;

  /** An empty level at `priceTicks` on side `sideCode` (0 bid, 1 ask); may replace `rec`. */
  allocate(priceTicks: number, sideCode: number): number {
    let slot = this.freeHead;
    if (slot !== K.None) {
      this.freeHead = this.rec[slot * Lv.Stride + Lv.Head]!;
    } else {
      if (this.highWater * Lv.Stride === this.rec.length) this.grow();
      slot = this.highWater++;
      this.ring.push(new Int32Array(K.InitialRing));
    }
    this.price[slot] = smi(priceTicks);
    this.total[slot] = 0;
    const rec = this.rec;
    const b = slot * Lv.Stride;
    rec[b + Lv.Head] = 0;
    rec[b + Lv.Queued] = 0;
    rec[b + Lv.Count] = 0;
    rec[b + Lv.Side] = sideCode;
    rec[b + Lv.Ext] = K.None;
    return slot;
  }

  /** Returns a level slot, whose ring the caller has emptied, to the free list. */
  release(slot: number): void {
    this.rec[slot * Lv.Stride + Lv.Head] = this.freeHead;
    this.freeHead = slot;
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
    const rec = this.rec;
    const b = level * Lv.Stride;
    const start = rec[b + Lv.Head]!;
    const n = rec[b + Lv.Queued]!;
    const ext = rec[b + Lv.Ext]!;
    let kept = 0;
    // Live entries move towards the head, never past an entry not yet read, so one pass in
    // place suffices. The recorded quantity keeps its place among the live ones.
    for (let k = 0; k < n; k++) {
      if (k === ext) rec[b + Lv.Ext] = kept;
      const o = ring[(start + k) & mask]!;
      if (data[o + K.Qty] === 0) orders.release(o);
      else ring[(start + kept++) & mask] = o;
    }
    if (ext === n) rec[b + Lv.Ext] = kept;
    rec[b + Lv.Queued] = kept;
  }

  /** The level's ring with room for `capacity` entries, its queue from position 0. */
  regrow(level: number, capacity: number): Int32Array {
    const old = this.ring[level]!;
    const ring = new Int32Array(capacity);
    const b = level * Lv.Stride;
    const start = this.rec[b + Lv.Head]!;
    const n = this.rec[b + Lv.Queued]!;
    // At most two runs (the ring wraps once), each one memory copy rather than a loop of masked
    // element copies (which was ~5% of `book.mix`'s instructions, queues growing from empty).
    const first = Math.min(n, old.length - start);
    ring.set(old.subarray(start, start + first), 0);
    if (first < n) ring.set(old.subarray(0, n - first), first);
    this.ring[level] = ring;
    this.rec[b + Lv.Head] = 0;
    return ring;
  }

  private grow(): void {
    const capacity = this.highWater * 2;
    growNumbers(this.price, capacity);
    growNumbers(this.total, capacity);
    growNumbers(this.extLots, capacity);
    growNumbers(this.extId, capacity);
    this.rec = growI32(this.rec, capacity * Lv.Stride);
  }
}
