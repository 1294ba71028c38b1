/**
 * Order id → order slot, as an open-addressing hash table in one Float64Array.
 *
 * Why not a `Map<number, number>`: with hundreds of thousands of live orders and one insert and
 * one delete per order, a Map costs more per operation and its backing store is traced by the
 * garbage collector. Why not a dense array indexed by id: ids are arbitrary (replayed LOBSTER
 * ids, ids that only grow over a long run), so a dense array would grow with the largest id
 * ever seen rather than with the live orders.
 *
 * Layout: cell `i` is `table[2i]` (the id) and `table[2i + 1]` (the slot, -1 when empty), so a
 * probe touches one cache line. Linear probing, at most half full, deletion by backward shift so
 * that no tombstones pile up under churn; the table shrinks again when mostly empty.
 *
 * The hash keeps consecutive ids in consecutive cells (the low bits of the id, with the higher
 * bits folded in): venues and feeds hand out ids in sequence, and on a machine where a cache
 * miss costs as much as the rest of an insert, a scrambling hash that scatters each new id to a
 * random cell halves throughput. Folding in the higher bits spreads strided ids (multiples of
 * a power of two) over the table. Ids that are not safe integers (fractions, NaN, beyond 2^53)
 * go to a plain Map, so lookups keep `Map` semantics for every number.
 */

/** Marks an empty cell (as its slot), and is returned for absent ids. */
const EMPTY = -1;
const MIN_BITS = 10;
const TWO_POW_32 = 4294967296;

/** A set of distinct ids, each with a non-negative slot number. */
export class IdIndex {
  private bits = MIN_BITS;
  private mask = (1 << MIN_BITS) - 1;
  private table = emptyTable(MIN_BITS);
  private used = 0;
  /** Ids that are not safe integers; created on first use. */
  private others: Map<number, number> | null = null;

  /** Number of ids held. */
  get size(): number {
    return this.used + (this.others === null ? 0 : this.others.size);
  }

  /** Slot of `id`, or -1 when absent. */
  get(id: number): number {
    if (!Number.isSafeInteger(id)) return this.others?.get(id) ?? EMPTY;
    const table = this.table;
    const mask = this.mask;
    for (let i = hashOf(id, this.bits); ; i = (i + 1) & mask) {
      const slot = table[2 * i + 1]!;
      // `| 0`: a small integer, not a double, so that callers storing it keep their arrays of
      // small integers from turning into arrays of doubles.
      if (slot === EMPTY || table[2 * i] === id) return slot | 0;
    }
  }

  /** Adds `id` → `slot`; the caller guarantees `id` is absent and `slot` >= 0. */
  add(id: number, slot: number): void {
    if (!Number.isSafeInteger(id)) {
      (this.others ??= new Map()).set(id, slot);
      return;
    }
    if (2 * (this.used + 1) > this.mask + 1) this.resize(this.bits + 1);
    insert(this.table, this.bits, id, slot);
    this.used++;
  }

  /** Removes `id` and returns its slot, or -1 when it was absent. */
  take(id: number): number {
    if (!Number.isSafeInteger(id)) {
      const slot = this.others?.get(id);
      if (slot === undefined) return EMPTY;
      this.others!.delete(id);
      return slot;
    }
    const table = this.table;
    const mask = this.mask;
    const bits = this.bits;
    let hole = hashOf(id, bits);
    for (;;) {
      const slot = table[2 * hole + 1]!;
      if (slot === EMPTY) return EMPTY;
      if (table[2 * hole] === id) break;
      hole = (hole + 1) & mask;
    }
    const taken = table[2 * hole + 1]! | 0;
    // Backward shift: pull later entries of the probe run into the hole when the hole lies
    // between their home cell and where they sit, so every entry stays reachable from home.
    for (let j = (hole + 1) & mask; ; j = (j + 1) & mask) {
      const slot = table[2 * j + 1]!;
      if (slot === EMPTY) break;
      const key = table[2 * j]!;
      if (((j - hashOf(key, bits)) & mask) >= ((j - hole) & mask)) {
        table[2 * hole] = key;
        table[2 * hole + 1] = slot;
        hole = j;
      }
    }
    table[2 * hole + 1] = EMPTY;
    this.used--;
    if (bits > MIN_BITS && 8 * this.used < mask + 1) this.resize(bits - 1);
    return taken;
  }

  private resize(bits: number): void {
    const old = this.table;
    const table = emptyTable(bits);
    for (let j = 1; j < old.length; j += 2) {
      const slot = old[j]!;
      if (slot !== EMPTY) insert(table, bits, old[j - 1]!, slot);
    }
    this.table = table;
    this.bits = bits;
    this.mask = (1 << bits) - 1;
  }
}

/** A table of 2^bits cells, all empty (ids of empty cells are never read). */
function emptyTable(bits: number): Float64Array<ArrayBuffer> {
  return new Float64Array(2 << bits).fill(EMPTY);
}

/** Puts an id known to be absent into the first free cell of its probe run. */
function insert(table: Float64Array, bits: number, id: number, slot: number): void {
  const mask = (1 << bits) - 1;
  let i = hashOf(id, bits);
  while (table[2 * i + 1] !== EMPTY) i = (i + 1) & mask;
  table[2 * i] = id;
  table[2 * i + 1] = slot;
}

/** Home cell of a safe-integer id in a table of 2^bits cells (see the file comment). */
function hashOf(id: number, bits: number): number {
  const lo = id | 0; // the low 32 bits (ToInt32 wraps modulo 2^32)
  // Exact: id - lo is a multiple of 2^32. Skipped for the usual 32-bit id.
  const hi = lo === id ? 0 : ((id - lo) / TWO_POW_32) | 0;
  return (lo ^ (lo >>> bits) ^ Math.imul(hi, 0x9e3779b9)) & ((1 << bits) - 1);
}
