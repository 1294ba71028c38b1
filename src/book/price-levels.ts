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
 * Why the queues live in one shared Int32Array (`slab`) of 64-entry chunks, each chunk's last
 * entry linking the next, rather than in a power-of-two ring of its own per level: reaching a
 * ring of its own meant loading the ring object (its length and data pointer) from the heap,
 * one more cache line per rest and per level matched, a first-level cache miss on most of them
 * in `book.mix` (~0.5 M a pass, callgrind's cache simulation: a hundred levels' ring objects
 * do not stay in that cache between two orders at the same price). Power-of-two blocks of one
 * slab removed those misses but not the cost of growing: the blocks a ring outgrows stay as
 * large as the rings (nothing coalesces them), and a slab twice the size has fresh pages to
 * fault in every pass. Chunks never move: a queue takes a chunk when its tail fills one and
 * gives it back when its head leaves it, so the slab follows the queued entries (canceled ones
 * included until compaction) and grows only with them. The head and tail positions are slab
 * indices in the level record.
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
  /** Entries of a chunk, a power of two; chunks start at multiples of it. */
  Chunk = 64,
  ChunkMask = 63,
  /** A chunk's last entry: the slab index of the next chunk (of the queue, or free). */
  Link = 63,
  /** Chunks of a new slab. */
  InitialChunks = 16,
}

/**
 * A level's int32 fields, side by side at `rec[level * Lv.Stride + Lv.*]`: one array, so a
 * command that reads or updates a level pays one base-pointer load and one bounds check, and
 * touches one cache line, instead of one of each per field array.
 */
export const enum Lv {
  /** Slab index of the oldest entry in the level's queue; the next free level while free. */
  Head = 0,
  /** Entries in the level's queue, live and canceled. */
  Queued = 1,
  /** Number of live orders at the level. */
  Count = 2,
  /** The level's side: 0 bid, 1 ask (the book's side codes). */
  Side = 3,
  /**
   * The queue place of the level's recorded (external) quantity: how many queue entries, live
   * or canceled, are ahead of it (`Queued` when it is last); `None` when the level has none. In
   * the same line as the fields every command reads, so a level without it costs one load to tell.
   */
  Ext = 4,
  /** Slab index where the level's next entry goes (never a chunk's `Link` entry). */
  Tail = 5,
  /** Eight, not six: a record never straddles a cache line. */
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
  /**
   * Every level's queue of order references, oldest first, in chunks (see the file comment):
   * from `rec[l * Lv.Stride + Lv.Head]` to `Lv.Tail`, `Lv.Queued` entries, a chunk's `Link`
   * entry leading to the next chunk. Replaced (grown) by `allocate` and `nextChunk`.
   */
  slab = new Int32Array(K.InitialChunks * K.Chunk);

  private highWater = 0;
  private freeHead = K.None;
  /** Where the next chunk is carved from the slab. */
  private slabTop = 0;
  /** The first free chunk (its `Link` entry links the next), or None. */
  private freeChunks = K.None;

  /** An empty level at `priceTicks` on side `sideCode` (0 bid, 1 ask); may replace `rec`. */
  allocate(priceTicks: number, sideCode: number): number {
    let slot = this.freeHead;
    if (slot !== K.None) {
      this.freeHead = this.rec[slot * Lv.Stride + Lv.Head]!;
    } else {
      if (this.highWater * Lv.Stride === this.rec.length) this.grow();
      slot = this.highWater++;
    }
    const chunk = this.takeChunk();
    this.price[slot] = smi(priceTicks);
    this.total[slot] = 0;
    const rec = this.rec;
    const b = slot * Lv.Stride;
    rec[b + Lv.Head] = chunk;
    rec[b + Lv.Tail] = chunk;
    rec[b + Lv.Queued] = 0;
    rec[b + Lv.Count] = 0;
    rec[b + Lv.Side] = sideCode;
    rec[b + Lv.Ext] = K.None;
    return slot;
  }

  /** Returns a level slot, whose queue the caller has emptied (one chunk left), and its chunk to the free lists. */
  release(slot: number): void {
    const head = this.rec[slot * Lv.Stride + Lv.Head]!;
    this.freeChunk(head - (head & K.ChunkMask));
    this.rec[slot * Lv.Stride + Lv.Head] = this.freeHead;
    this.freeHead = slot;
  }

  /**
   * The level's tail reached `linkAt`, a chunk's `Link` entry: a chunk joins the queue there and
   * the tail moves to its start. May replace `slab`.
   */
  nextChunk(level: number, linkAt: number): void {
    const chunk = this.takeChunk();
    this.slab[linkAt] = chunk;
    this.rec[level * Lv.Stride + Lv.Tail] = chunk;
  }

  /** A free chunk: one given back, or carved from the slab's end. May replace `slab`. */
  private takeChunk(): number {
    const free = this.freeChunks;
    if (free !== K.None) {
      this.freeChunks = this.slab[free + K.Link]!;
      return free;
    }
    if (this.slabTop === this.slab.length) this.slab = growI32(this.slab, 2 * this.slab.length);
    const chunk = this.slabTop;
    this.slabTop += K.Chunk;
    return chunk;
  }

  /** Gives a chunk back (matching calls it when the head leaves one; the slab stays as it is). */
  freeChunk(chunk: number): void {
    this.slab[chunk + K.Link] = this.freeChunks;
    this.freeChunks = chunk;
  }

  /**
   * Rewrites the level's queue without its canceled entries (quantity 0 in their records),
   * returning each of their records to `orders`, in queue order. A method of `orders` rather
   * than a callback: V8 inlines a call on a known class, not one through a closure.
   */
  compact(level: number, orders: OrderSlots): void {
    const data = orders.data;
    const slab = this.slab;
    const rec = this.rec;
    const b = level * Lv.Stride;
    const n = rec[b + Lv.Queued]!;
    const ext = rec[b + Lv.Ext]!;
    let read = rec[b + Lv.Head]!;
    let write = read;
    let kept = 0;
    // Live entries move towards the head, never past an entry not yet read, so one pass in
    // place suffices. The recorded quantity keeps its place among the live ones.
    for (let k = 0; k < n; k++) {
      if (k === ext) rec[b + Lv.Ext] = kept;
      const o = slab[read++]!;
      if ((read & K.ChunkMask) === K.Link) read = slab[read]!;
      if (data[o + K.Qty] === 0) {
        orders.release(o);
        continue;
      }
      slab[write++] = o;
      kept++;
      if ((write & K.ChunkMask) === K.Link) write = slab[write]!;
    }
    if (ext === n) rec[b + Lv.Ext] = kept;
    // The chunks after the new tail's go back.
    const keep = write - (write & K.ChunkMask);
    const last = rec[b + Lv.Tail]! - (rec[b + Lv.Tail]! & K.ChunkMask);
    for (let chunk = keep; chunk !== last; ) {
      const next = slab[chunk + K.Link]!;
      if (chunk !== keep) this.freeChunk(chunk);
      chunk = next;
    }
    if (last !== keep) this.freeChunk(last);
    rec[b + Lv.Tail] = write;
    rec[b + Lv.Queued] = kept;
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
