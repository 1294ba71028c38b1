/**
 * Resting orders, four int32s each, in one Int32Array: the order at reference `o` (a multiple
 * of `ORDER_STRIDE`, never 0) has its fields at `data[o + O_QTY]`, `data[o + O_LEVEL]` and so on.
 *
 * Why one array of records rather than one object per order: a book holds up to millions of
 * long-lived orders; as objects they are scattered in memory and every major garbage collection
 * traces them. Why records rather than one array per field: an insert or a cancel touches most
 * fields of one order at a random place in memory, and on this kind of machine a cache miss
 * costs about as much as the rest of the operation; with the fields side by side it is one line.
 *
 * Why an Int32Array: a record is 16 bytes (a plain number array takes 8 bytes a number on this
 * Node, so 32), half the memory and cache lines per order, and an int32 read is a small
 * integer that copies into an event or an object field without boxing. Growing it is one
 * memory copy (a number array grown by `a.length = n` copies and touches fresh pages, ~5% of
 * `book.mix` when it was one).
 *
 * Values beyond int32 stay exact: a field that cannot hold its value (a quantity above 2^31-1,
 * an id or owner that is not an int32, -0, or -2^31 itself) holds the marker `WIDE`, and the
 * value sits in a map beside the records, keyed by the field's offset. Readers go through
 * `field`, whose extra cost on the common path is one comparison; writers of a value that may
 * be wide go through `setField`.
 *
 * Freed records are reused (a free list threaded through `O_LEVEL`), so the array follows the
 * peak number of records, not the number of orders ever placed.
 */

/** Open quantity, lots; 0 marks a canceled order still queued at its level (see `LevelSlots`). */
export const O_QTY = 0;
/** Price level slot (see `LevelSlots`); the next free record while the record is free. */
export const O_LEVEL = 1;
/** Order id as given by the caller (any number; `WIDE` when not an int32). */
export const O_ID = 2;
/** Owner (account) id as given by the caller (`WIDE` when not an int32). */
export const O_OWNER = 3;
/** Int32s per order. */
export const ORDER_STRIDE = 4;

/** No order, level or slot. */
export const NONE = -1;
/** A field whose value is kept in `OrderSlots.wide` (see the file comment). */
export const WIDE = -2147483648;

/**
 * The constants above as literals for this file's hot methods (see `Rec` in `book-core.ts`
 * for why; `test/book/layout.test.ts` checks they agree).
 */
export const enum K {
  Level = 1,
  Stride = 4,
  Wide = -2147483648,
}
const INITIAL_ORDERS = 1024;

/** Storage for resting orders. `data` is public for the book's hot loops. */
export class OrderSlots {
  /** The records; see the field offsets `O_*`. Replaced (grown) by `allocate`. */
  data = new Int32Array(INITIAL_ORDERS * K.Stride);
  /** Values of the fields marked `WIDE`, by offset (`o + O_*`). */
  private readonly wide = new Map<number, number>();
  private freeHead = 0;
  /** References below this have been handed out at least once; record 0 is never used. */
  private highWater = K.Stride;

  /** A free record (> 0) with every field to be set by the caller; may replace `data`. */
  allocate(): number {
    const o = this.freeHead;
    if (o !== 0) {
      this.freeHead = this.data[o + K.Level]!;
      return o;
    }
    if (this.highWater === this.data.length) this.data = growI32(this.data, this.data.length * 2);
    const fresh = this.highWater;
    this.highWater += K.Stride;
    return fresh;
  }

  /** Returns a record to the free list. Its id and owner stay readable until reallocated. */
  release(o: number): void {
    this.data[o + K.Level] = this.freeHead;
    this.freeHead = o;
  }

  /** The value of field `f` of record `o`, wide or not. */
  field(o: number, f: number): number {
    const v = this.data[o + f]!;
    return v === K.Wide ? this.wide.get(o + f)! : v;
  }

  /** Sets field `f` of record `o` to any number, exactly (see the file comment). */
  setField(o: number, f: number, value: number): void {
    // A map entry left behind by a wide value this field held before is never read again
    // (only fields marked WIDE are looked up) and is overwritten when the field is next wide,
    // so the map stays within three entries a record without deleting on this hot path.
    if (fitsInt32(value)) {
      this.data[o + f] = value;
    } else {
      this.data[o + f] = K.Wide;
      this.wide.set(o + f, value);
    }
  }
}

/** True when `x` is stored as itself in an int32 field: an int32 other than -0 and `WIDE`. */
export function fitsInt32(x: number): boolean {
  return (x | 0) === x && x !== K.Wide && (x !== 0 || 1 / x > 0);
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
