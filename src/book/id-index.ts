/**
 * Order id → order slot, as an open-addressing hash table in one Int32Array.
 *
 * Why not a `Map<number, number>`: with hundreds of thousands of live orders and one insert and
 * one delete per order, a Map costs more per operation and its backing store is traced by the
 * garbage collector. Why not a dense array indexed by id: ids are arbitrary (replayed LOBSTER
 * ids, ids that only grow over a long run), so a dense array would grow with the largest id
 * ever seen rather than with the live orders.
 *
 * Layout: cell `i` is `table[4i .. 4i + 3]`: the id, the slot (0 when empty: slots are > 0), and
 * two int32s the owner keeps with it (the book: the order's open lots, or `WIDE`, and its
 * level). A cell is 16 bytes, four to a cache line, so a probe touches one line (the table is
 * half the size it was as a Float64Array, and a fresh one needs no filling: zeros are empty
 * cells), and a cancel finds everything it needs there without
 * reading the order's record, a second random place in memory: with hundreds of thousands of
 * live orders each of those reads is a cache miss, the largest single cost of a cancel. Linear
 * probing, at most half full, deletion by backward shift so that no tombstones pile up under
 * churn; the table shrinks again when mostly empty.
 *
 * The hash keeps consecutive ids in consecutive cells (the low bits of the id, with the higher
 * bits folded in): venues and feeds hand out ids in sequence, and on a machine where a cache
 * miss costs as much as the rest of an insert, a scrambling hash that scatters each new id to a
 * random cell halves throughput. Folding in the higher bits spreads strided ids (multiples of
 * a power of two) over the table. Ids that are not int32s (fractions, NaN, beyond 2^31) go to a
 * plain Map, so lookups keep `Map` semantics for every number (-0 is stored as 0, the same key
 * for a Map).
 */

/** Returned for absent ids. */
const ABSENT = -1;
/** The slot of an empty cell. */
const EMPTY = 0;
const MIN_BITS = 10;
/** Int32s per cell: id, slot, quantity, level. */
const CELL = 4;

/** A set of distinct ids, each with a positive slot number and two int32s kept with it. */
export class IdIndex {
  /** Quantity and level of the id removed by the last successful `take`. */
  takenQty = 0;
  takenLevel = 0;
  private bits = MIN_BITS;
  private mask = (1 << MIN_BITS) - 1;
  private table = new Int32Array(CELL << MIN_BITS);
  private used = 0;
  /** Ids that are not int32s, each with [slot, quantity, level]; created on first use. */
  private others: Map<number, [number, number, number]> | null = null;

  /** Number of ids held. */
  get size(): number {
    return this.used + (this.others === null ? 0 : this.others.size);
  }

  /** Slot of `id`, or -1 when absent. */
  get(id: number): number {
    if ((id | 0) !== id) return this.others?.get(id)?.[0] ?? ABSENT;
    const i = this.find(id);
    return i === ABSENT ? ABSENT : this.table[CELL * i + 1]!;
  }

  /** Adds `id` → `slot` with its quantity and level; the caller guarantees `id` is absent and `slot` > 0. */
  add(id: number, slot: number, qty: number, level: number): void {
    if ((id | 0) !== id) {
      (this.others ??= new Map()).set(id, [slot, qty, level]);
      return;
    }
    if (2 * (this.used + 1) > this.mask + 1) this.resize(this.bits + 1);
    const table = this.table;
    const c = CELL * freeCell(table, this.bits, id);
    table[c] = id;
    table[c + 1] = slot;
    table[c + 2] = qty;
    table[c + 3] = level;
    this.used++;
  }

  /** Replaces the quantity kept with `id`, which must be present. */
  setQty(id: number, qty: number): void {
    if ((id | 0) !== id) {
      this.others!.get(id)![1] = qty;
      return;
    }
    this.table[CELL * this.find(id) + 2] = qty;
  }

  /**
   * Removes `id` and returns its slot, or -1 when it was absent; its quantity and level are
   * then in `takenQty` and `takenLevel`.
   */
  take(id: number): number {
    if ((id | 0) !== id) return this.takeOther(id);
    let hole = this.find(id);
    if (hole === ABSENT) return ABSENT;
    const table = this.table;
    const mask = this.mask;
    const bits = this.bits;
    const taken = table[CELL * hole + 1]!;
    this.takenQty = table[CELL * hole + 2]!;
    this.takenLevel = table[CELL * hole + 3]!;
    // Backward shift: pull later entries of the probe run into the hole when the hole lies
    // between their home cell and where they sit, so every entry stays reachable from home.
    for (let j = (hole + 1) & mask; ; j = (j + 1) & mask) {
      if (table[CELL * j + 1] === EMPTY) break;
      if (((j - hashOf(table[CELL * j]!, bits)) & mask) >= ((j - hole) & mask)) {
        moveCell(table, CELL * j, table, CELL * hole);
        hole = j;
      }
    }
    table[CELL * hole + 1] = EMPTY;
    this.used--;
    if (bits > MIN_BITS && 8 * this.used < mask + 1) this.resize(this.bits - 1);
    return taken;
  }

  /** Cell of an int32 `id`, or -1 when absent. */
  private find(id: number): number {
    const table = this.table;
    const mask = this.mask;
    for (let i = hashOf(id, this.bits); ; i = (i + 1) & mask) {
      if (table[CELL * i + 1] === EMPTY) return ABSENT;
      if (table[CELL * i] === id) return i;
    }
  }

  private takeOther(id: number): number {
    const entry = this.others?.get(id);
    if (entry === undefined) return ABSENT;
    this.others!.delete(id);
    this.takenQty = entry[1];
    this.takenLevel = entry[2];
    return entry[0];
  }

  private resize(bits: number): void {
    const old = this.table;
    const table = new Int32Array(CELL << bits);
    const mask = (1 << bits) - 1;
    for (let j = 0; j < old.length; j += CELL) {
      if (old[j + 1] === EMPTY) continue;
      moveCell(old, j, table, CELL * freeCell(table, bits, old[j]!));
    }
    this.table = table;
    this.bits = bits;
    this.mask = mask;
  }
}

/** The first free cell of the probe run of an id known to be absent. */
function freeCell(table: Int32Array, bits: number, id: number): number {
  const mask = (1 << bits) - 1;
  let i = hashOf(id, bits);
  while (table[CELL * i + 1] !== EMPTY) i = (i + 1) & mask;
  return i;
}

/** Copies the cell at `from` in `source` to `to` in `target` (offsets of the cells' first int32s). */
function moveCell(source: Int32Array, from: number, target: Int32Array, to: number): void {
  target[to] = source[from]!;
  target[to + 1] = source[from + 1]!;
  target[to + 2] = source[from + 2]!;
  target[to + 3] = source[from + 3]!;
}

/** Home cell of an int32 id in a table of 2^bits cells (see the file comment). */
function hashOf(id: number, bits: number): number {
  return (id ^ (id >>> bits)) & ((1 << bits) - 1);
}
