/**
 * Order id → order slot, as an open-addressing hash table in one Int32Array.
 *
 * Why not a `Map<number, number>`: with hundreds of thousands of live orders and one insert and
 * one delete per order, a Map costs more per operation and its backing store is traced by the
 * garbage collector. Why not a dense array indexed by id: ids are arbitrary (replayed LOBSTER
 * ids, ids that only grow over a long run), so a dense array would grow with the largest id
 * ever seen rather than with the live orders.
 *
 * Layout: cell `i` is `table[2i]` (the id) and `table[2i + 1]` (the slot; 0 marks an empty cell,
 * slots are > 0), 8 bytes, so a fresh table needs no filling. Why not also keep the order's open
 * lots and level in the cell, so that a cancel need not read the order's record (a second cache
 * miss): measured, a cancel cost the same either way (the record's line is fetched anyway to
 * mark it canceled), while the table was twice the bytes, every insert, partial fill and resize
 * paid for the wider cells, and a partial fill had to find the cell again to keep it in step.
 * Linear probing, at most half full, deletion by backward shift so that no tombstones pile up
 * under churn; the table shrinks again when mostly empty.
 *
 * The hash keeps consecutive ids in every other cell (the low bits of the id rotated left by
 * one, with the higher bits folded in): venues and feeds hand out ids in sequence, and on a
 * machine where a cache miss costs as much as the rest of an insert, a scrambling hash that
 * scatters each new id to a random cell halves throughput. Every other cell rather than every
 * cell: recent ids are mostly live, so in consecutive cells they made one long probe run, and
 * the backward shift of each filled or canceled order walked to its end (7.3 cells a filled
 * maker in `book.mix`, ~33 instructions a cell); with a free cell between them a run is a
 * collision or two long. Folding in the higher bits spreads strided ids (multiples of a power
 * of two) over the table. Ids that are not int32s (fractions, NaN, beyond 2^31) go to a
 * plain Map, so lookups keep `Map` semantics for every number (-0 is stored as 0, the same key
 * for a Map).
 */

/**
 * Literals for the hot methods (a module-level constant costs a load and a check at every use
 * in V8's optimized code; see `Rec` in `book-core.ts`).
 */
const enum K {
  /** Returned for absent ids. */
  Absent = -1,
  /** The slot of an empty cell. */
  Empty = 0,
  MinBits = 10,
  /** 2^30 - 1: no table has more cells (an Int32Array of 2^31 elements cannot be made). */
  MaxMask = 0x3fffffff,
}

/**
 * What the book needs of an id index: its own `IdIndex`, or one its caller keeps (a venue keeps
 * each order's book record in the order's own record, found through the venue's one index of
 * its orders: see `OrderBookOptions.ids`). Slots (the book's record references) are > 0.
 */
export interface OrderIndex {
  /** Number of ids held. */
  readonly size: number;
  /** Slot of `id`, or -1 when absent. */
  get(id: number): number;
  /** True when `id` is absent. */
  absent(id: number): boolean;
  /** Adds `id` → `slot`; the caller guarantees `id` is absent and `slot` > 0. */
  add(id: number, slot: number): void;
  /** Removes `id` and returns its slot, or -1 when it was absent. */
  take(id: number): number;
}

/** A set of distinct ids, each with a positive slot number. */
export class IdIndex implements OrderIndex {
  private bits = K.MinBits;
  private mask = (1 << K.MinBits) - 1;
  private table = new Int32Array(2 << K.MinBits);
  private used = 0;
  /** Ids that are not int32s, with their slots; created on first use. */
  private others: Map<number, number> | null = null;
  /** The free cell the last `absent` found for `freeFor`, until the table changes. */
  private freeAt = K.Absent;
  private freeFor = 0;

  /** Number of ids held. */
  get size(): number {
    return this.used + (this.others === null ? 0 : this.others.size);
  }

  /** Slot of `id`, or -1 when absent. */
  get(id: number): number {
    if ((id | 0) !== id) return this.others?.get(id) ?? K.Absent;
    const i = this.find(id);
    return i === K.Absent ? K.Absent : this.table[2 * i + 1]!;
  }

  /**
   * True when `id` is absent. Remembers where it would go, so that an `add` of the same id
   * before any other change to the index does not search again.
   */
  absent(id: number): boolean {
    if ((id | 0) !== id) return this.others?.get(id) === undefined;
    const table = this.table;
    const mask = this.mask & K.MaxMask;
    for (let i = homeOf(id, this.bits, mask); ; i = (i + 1) & mask) {
      if (table[2 * i + 1] === K.Empty) {
        this.freeAt = i;
        this.freeFor = id;
        return true;
      }
      if (table[2 * i] === id) return false;
    }
  }

  /** Adds `id` → `slot`; the caller guarantees `id` is absent and `slot` > 0. */
  add(id: number, slot: number): void {
    if ((id | 0) !== id) {
      (this.others ??= new Map()).set(id, slot);
      return;
    }
    if (2 * (this.used + 1) > this.mask + 1) this.resize(this.bits + 1);
    // The free cell `absent` found for this id is still the end of its probe run when nothing
    // changed since (every change forgets it).
    let i = this.freeFor === id ? this.freeAt : K.Absent;
    this.freeAt = K.Absent;
    const table = this.table;
    if (i === K.Absent) i = freeCell(table, this.bits, id);
    table[2 * i] = id;
    table[2 * i + 1] = slot;
    this.used++;
  }

  /**
   * Adds `id` → `slot` (`slot` > 0) unless `id` is present; false, and nothing changed, when it
   * is. The duplicate check and the insert in one probe, for a caller that has its record ready
   * (an order resting without crossing: nothing else changes before it).
   */
  insert(id: number, slot: number): boolean {
    if ((id | 0) !== id) {
      if (this.others?.get(id) !== undefined) return false;
      (this.others ??= new Map()).set(id, slot);
      return true;
    }
    // Grown first, as `add` does: the table stays at most half full, whatever the answer.
    if (2 * (this.used + 1) > this.mask + 1) this.resize(this.bits + 1);
    const table = this.table;
    const mask = this.mask & K.MaxMask;
    let i = homeOf(id, this.bits, mask);
    for (;;) {
      if (table[2 * i + 1] === K.Empty) break;
      if (table[2 * i] === id) return false;
      i = (i + 1) & mask;
    }
    this.freeAt = K.Absent;
    table[2 * i] = id;
    table[2 * i + 1] = slot;
    this.used++;
    return true;
  }

  /** Removes `id` and returns its slot, or -1 when it was absent. */
  take(id: number): number {
    if ((id | 0) !== id) return this.takeOther(id);
    const table = this.table;
    const bits = this.bits;
    // Masked to 30 bits (a table never holds more cells), so that the compiler knows every
    // `2 * cell + 1` below fits an int32 and checks no overflow in the loops.
    const mask = this.mask & K.MaxMask;
    // The probe of `find`, written out: a cancel and every filled maker come through here.
    let hole = homeOf(id, bits, mask);
    for (;;) {
      if (table[2 * hole + 1] === K.Empty) return K.Absent;
      if (table[2 * hole] === id) break;
      hole = (hole + 1) & mask;
    }
    this.freeAt = K.Absent;
    const taken = table[2 * hole + 1]!;
    // Backward shift: pull later entries of the probe run into the hole when the hole lies
    // between their home cell and where they sit, so every entry stays reachable from home.
    for (let j = (hole + 1) & mask; ; j = (j + 1) & mask) {
      const slot = table[2 * j + 1]!;
      if (slot === K.Empty) break;
      const other = table[2 * j]!;
      if (((j - homeOf(other, bits, mask)) & mask) >= ((j - hole) & mask)) {
        table[2 * hole] = other;
        table[2 * hole + 1] = slot;
        hole = j;
      }
    }
    table[2 * hole + 1] = K.Empty;
    this.used--;
    if (bits > K.MinBits && 8 * this.used < mask + 1) this.resize(bits - 1);
    return taken;
  }

  /** Cell of an int32 `id`, or -1 when absent. */
  private find(id: number): number {
    const table = this.table;
    const mask = this.mask;
    for (let i = homeOf(id, this.bits, mask); ; i = (i + 1) & mask) {
      if (table[2 * i + 1] === K.Empty) return K.Absent;
      if (table[2 * i] === id) return i;
    }
  }

  private takeOther(id: number): number {
    const slot = this.others?.get(id);
    if (slot === undefined) return K.Absent;
    this.others!.delete(id);
    return slot;
  }

  private resize(bits: number): void {
    const old = this.table;
    const table = new Int32Array(2 << bits);
    const mask = ((1 << bits) - 1) & K.MaxMask;
    // Every id moves to its cell in the new table: the probe of `freeCell` written out, no call
    // an entry (a table grows from 1,024 cells to hundreds of thousands in a long run).
    for (let j = 0; j < old.length; j += 2) {
      const slot = old[j + 1]!;
      if (slot === K.Empty) continue;
      const id = old[j]!;
      let i = homeOf(id, bits, mask);
      while (table[2 * i + 1] !== K.Empty) i = (i + 1) & mask;
      table[2 * i] = id;
      table[2 * i + 1] = slot;
    }
    this.table = table;
    this.bits = bits;
    this.mask = (1 << bits) - 1;
    this.freeAt = K.Absent;
  }
}

/** The first free cell of the probe run of an id known to be absent. */
function freeCell(table: Int32Array, bits: number, id: number): number {
  const mask = (1 << bits) - 1;
  let i = homeOf(id, bits, mask);
  while (table[2 * i + 1] !== K.Empty) i = (i + 1) & mask;
  return i;
}

/**
 * Home cell of an int32 id in a table of 2^bits cells, `mask` = 2^bits - 1 (see the file
 * comment): the id with its higher bits folded in, rotated left by one within `bits`, so
 * consecutive ids sit two cells apart and the upper half of each 2^bits ids takes the odd cells.
 */
function homeOf(id: number, bits: number, mask: number): number {
  const x = id ^ (id >>> bits);
  return ((x << 1) | ((x >>> (bits - 1)) & 1)) & mask;
}
