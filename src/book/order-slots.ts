/**
 * Resting orders, four numbers each, in one flat array: the order at reference `o` (a multiple
 * of `ORDER_STRIDE`) has its fields at `data[o + O_QTY]`, `data[o + O_LEVEL]` and so on.
 *
 * Why one array of records rather than one object per order: a book holds up to millions of
 * long-lived orders; as objects they are scattered in memory and every major garbage collection
 * traces them. Why records rather than one array per field: an insert or a cancel touches most
 * fields of one order at a random place in memory, and on this kind of machine a cache miss
 * costs about as much as the rest of the operation; with the fields side by side it is one line.
 *
 * Why a plain number array and not a Float64Array: ids, owners and quantities go straight into
 * event objects. V8 stores an array of small integers as untagged "Smis" that copy into an
 * object field for free, while every read from a Float64Array is a double that must be boxed
 * as a heap number in each event. Any other number (a fraction, -0, beyond 2^31) still works:
 * the array silently switches to holding doubles, exact, only slower. Values are stored
 * through `smi` so that an integer the caller happens to hold as a double does not do that.
 *
 * Freed records are reused (a free list threaded through `O_LEVEL`), so the array follows the
 * peak number of records, not the number of orders ever placed.
 */

/** Open quantity, lots; 0 marks a canceled order still queued at its level (see `LevelSlots`). */
export const O_QTY = 0;
/** Price level slot (see `LevelSlots`); the next free record while the record is free. */
export const O_LEVEL = 1;
/** Order id as given by the caller (any number). */
export const O_ID = 2;
/** Owner (account) id as given by the caller. */
export const O_OWNER = 3;
/** Numbers per order. */
export const ORDER_STRIDE = 4;

/** No order, level or slot. */
export const NONE = -1;
const INITIAL_ORDERS = 1024;

/** Storage for resting orders. `data` is public for the book's hot loops. */
export class OrderSlots {
  /** The records; see the field offsets `O_*`. Grows in place. */
  readonly data = zeros(INITIAL_ORDERS * ORDER_STRIDE);
  private freeHead = NONE;
  /** References below this have been handed out at least once. */
  private highWater = 0;

  /** A free record with every field to be set by the caller; may replace `data`. */
  allocate(): number {
    const o = this.freeHead;
    if (o !== NONE) {
      this.freeHead = this.data[o + O_LEVEL]!;
      return o;
    }
    if (this.highWater === this.data.length) growNumbers(this.data, this.data.length * 2);
    const fresh = this.highWater;
    this.highWater += ORDER_STRIDE;
    return fresh;
  }

  /** Returns a record to the free list. Its id and owner stay readable until reallocated. */
  release(o: number): void {
    this.data[o + O_LEVEL] = this.freeHead;
    this.freeHead = o;
  }
}

/**
 * `x` as a small integer when it is one. A caller's number may be an integer held as a double
 * (e.g. `100 + -0`); stored as is it would switch a whole array of small integers to doubles,
 * and every event built from it to boxed numbers. -0 and numbers beyond 32 bits pass through.
 */
export function smi(x: number): number {
  const i = x | 0;
  return i === x && (i !== 0 || 1 / x > 0) ? i : x;
}

/** An array of `n` zeros. */
export function zeros(n: number): number[] {
  return new Array<number>(n).fill(0);
}

/**
 * Appends zeros to `a` up to `length` elements, in place (so references to `a` stay valid).
 * Not `concat`: it has a fast path only while no object in the process defines
 * `Symbol.isConcatSpreadable` (apache-arrow's vectors do), and off it, it copies element by
 * element into a dictionary-mode array, ruining every later access. Setting the length and
 * filling keeps small integers untagged; the array counts as "holey", which costs a check on
 * reads but stays far cheaper than growing element by element.
 */
export function growNumbers(a: number[], length: number): void {
  const from = a.length;
  a.length = length;
  a.fill(0, from, length);
}

/** A copy of `a` with room for `capacity` elements. */
export function growF64(a: Float64Array, capacity: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(capacity);
  b.set(a);
  return b;
}

/** A copy of `a` with room for `capacity` elements. */
export function growI32(a: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(capacity);
  b.set(a);
  return b;
}
