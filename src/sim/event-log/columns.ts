import { Bool, Int64, Uint32, Utf8, makeData, type Data, type DataType } from 'apache-arrow';
import type { IdHoles } from './id-holes.ts';

/**
 * Column builders for the event log: fixed-capacity typed arrays filled row by row, handed to
 * Arrow as `Data` once per batch without copying.
 *
 * A column is null wherever a row does not set it: validity bits start at 0 and `set*` turns
 * one on, so a row pays only for the columns it fills. After `finish` a builder starts the
 * next batch with zeroed arrays: fresh ones by default, or (with `reuse`) the same ones
 * cleared by `recycle()`, which spares the garbage collector gigabytes over a long run but
 * overwrites the batch handed out last. Either way a batch's bytes never depend on an
 * earlier batch.
 */

const TWO_32 = 2 ** 32;

/** Validity bitmap plus the count of set cells, shared by every builder. */
export abstract class Column<T extends Data = Data> {
  /** The column's Arrow type (one instance, shared by the schema and every batch). */
  abstract readonly type: DataType;
  protected valid: Uint8Array;

  /**
   * @param capacity rows per batch.
   * @param reuse keep the arrays, cleared by `recycle()`, instead of allocating new ones.
   */
  constructor(
    protected readonly capacity: number,
    protected readonly reuse = false,
  ) {
    this.valid = new Uint8Array(bitmapBytes(capacity));
  }


  /**
   * The batch's `rows` cells as Arrow data. Without `reuse` the builder starts the next batch
   * on fresh arrays at once; with `reuse` the data stays valid until `recycle()`, which must
   * come before the next `set`.
   */
  finish(rows: number): T {
    const validity = this.valid.subarray(0, bitmapBytes(rows));
    const data = this.toData(rows, validity, rows - setBits(validity));
    if (!this.reuse) {
      this.valid = new Uint8Array(bitmapBytes(this.capacity));
      this.reset();
    }
    return data;
  }

  /** With `reuse`: clears the arrays of the batch handed out last, for the next one. */
  recycle(): void {
    if (!this.reuse) return;
    this.valid.fill(0);
    this.reset();
  }

  protected abstract toData(rows: number, validity: Uint8Array, nullCount: number): T;
  protected abstract reset(): void;
}

/**
 * Marks `row` valid in `bits`. A function of the bitmap rather than a method of the column:
 * every column class reads its own `valid` (one shape per call site), where a base-class
 * method reading `this.valid` for five column classes was a megamorphic load on every cell.
 */
export function markValid(bits: Uint8Array, row: number): void {
  bits[row >> 3]! |= 1 << (row & 7);
}

/** Bits set per byte value. */
const BITS_IN_BYTE = Uint8Array.from({ length: 256 }, (_, b) => {
  let n = 0;
  for (let x = b; x > 0; x >>= 1) n += x & 1;
  return n;
});

/** Set bits of a validity bitmap (its valid cells: counted once per batch, not per cell). */
function setBits(bits: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < bits.length; i++) n += BITS_IN_BYTE[bits[i]!]!;
  return n;
}

function bitmapBytes(rows: number): number {
  return ((rows + 63) >> 6) << 3; // whole 64-bit words, as Arrow pads them
}

/**
 * Signed 64-bit integers. `setNumber` takes any safe integer and writes its two 32-bit halves
 * directly, avoiding a bigint per cell; `setBigInt` takes exact bigints (timestamps).
 */
export class Int64Column extends Column {
  readonly type = new Int64();
  private values: BigInt64Array;
  private halves: Int32Array;

  constructor(capacity: number, reuse = false) {
    super(capacity, reuse);
    this.values = new BigInt64Array(capacity);
    this.halves = new Int32Array(this.values.buffer);
  }

  /** Sets a safe integer (may be negative). */
  setNumber(row: number, value: number): void {
    const hi = Math.floor(value / TWO_32);
    this.halves[row * 2] = value - hi * TWO_32; // wraps to the low word's bit pattern
    this.halves[row * 2 + 1] = hi;
    markValid(this.valid, row);
  }

  /** Sets the two 32-bit halves of a value computed elsewhere (`hi` signed, `lo` unsigned). */
  setHalves(row: number, hi: number, lo: number): void {
    this.halves[row * 2] = lo;
    this.halves[row * 2 + 1] = hi;
    markValid(this.valid, row);
  }

  protected toData(rows: number, nullBitmap: Uint8Array, nullCount: number) {
    return makeData({ type: this.type, length: rows, nullCount, nullBitmap, data: this.values.subarray(0, rows) });
  }

  protected reset(): void {
    if (this.reuse) {
      this.values.fill(0n);
      return;
    }
    this.values = new BigInt64Array(this.capacity);
    this.halves = new Int32Array(this.values.buffer);
  }
}

/** Unsigned 32-bit integers (row numbers). */
export class Uint32Column extends Column {
  readonly type = new Uint32();
  private values: Uint32Array;

  constructor(capacity: number, reuse = false) {
    super(capacity, reuse);
    this.values = new Uint32Array(capacity);
  }

  set(row: number, value: number): void {
    this.values[row] = value;
    markValid(this.valid, row);
  }

  protected toData(rows: number, nullBitmap: Uint8Array, nullCount: number) {
    return makeData({ type: this.type, length: rows, nullCount, nullBitmap, data: this.values.subarray(0, rows) });
  }

  protected reset(): void {
    this.values = this.reuse ? this.values.fill(0) : new Uint32Array(this.capacity);
  }
}

/** Booleans, bit-packed. */
export class BoolColumn extends Column {
  readonly type = new Bool();
  private bits: Uint8Array;

  constructor(capacity: number, reuse = false) {
    super(capacity, reuse);
    this.bits = new Uint8Array(bitmapBytes(capacity));
  }

  set(row: number, value: boolean): void {
    if (value) this.bits[row >> 3]! |= 1 << (row & 7);
    markValid(this.valid, row);
  }

  protected toData(rows: number, nullBitmap: Uint8Array, nullCount: number) {
    return makeData({ type: this.type, length: rows, nullCount, nullBitmap, data: this.bits.subarray(0, bitmapBytes(rows)) });
  }

  protected reset(): void {
    this.bits = this.reuse ? this.bits.fill(0) : new Uint8Array(bitmapBytes(this.capacity));
  }
}

/** UTF-8 strings: offsets plus a growing byte buffer (ASCII written directly). */
export class Utf8Column extends Column {
  readonly type = new Utf8();
  private offsets: Int32Array;
  private bytes: Uint8Array;
  private byteLength = 0;
  /** Rows whose end offset is written: offsets[0..filled] are final. */
  private filled = 0;
  private static readonly encoder = new TextEncoder();

  constructor(capacity: number, reuse = false) {
    super(capacity, reuse);
    this.offsets = new Int32Array(capacity + 1);
    this.bytes = new Uint8Array(capacity * 16);
  }

  set(row: number, text: string): void {
    this.fillTo(row);
    const n = text.length;
    if (this.byteLength + n * 3 > this.bytes.length) this.grow(this.byteLength + n * 3);
    let at = this.byteLength;
    let ascii = true;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c > 0x7f) {
        ascii = false;
        break;
      }
      this.bytes[at++] = c;
    }
    if (!ascii) at = this.byteLength + Utf8Column.encoder.encodeInto(text, this.bytes.subarray(this.byteLength)).written;
    this.byteLength = at;
    this.offsets[row + 1] = at;
    this.filled = row + 1;
    markValid(this.valid, row);
  }

  /**
   * Opens cell `row` for a writer of at most `maxBytes` ASCII bytes and returns the buffer to
   * write into at `cellStart` (this call may grow it: take both from it, in this order, e.g.
   * `col.closeCell(row, write(col.openCell(row, n), col.cellStart))`); `closeCell` ends the
   * cell. For text written from numbers (order ids) without a string in between.
   */
  openCell(row: number, maxBytes: number): Uint8Array {
    this.fillTo(row);
    if (this.byteLength + maxBytes > this.bytes.length) this.grow(this.byteLength + maxBytes);
    return this.bytes;
  }

  /**
   * Sets cell `row` to `n` bytes left to be written later (an `IdHoles` hole: zeros until then);
   * returns where they start.
   */
  reserveCell(row: number, n: number): number {
    this.fillTo(row);
    const at = this.byteLength;
    if (at + n > this.bytes.length) this.grow(at + n);
    this.closeCell(row, at + n);
    return at;
  }

  /** Writes the ids of `holes` (cells `reserveCell` left) into this batch's bytes. */
  fillHoles(holes: IdHoles): void {
    holes.fill(this.bytes);
  }

  /** Where the cell `openCell` opened starts. */
  get cellStart(): number {
    return this.byteLength;
  }

  /** Ends the cell `openCell(row, …)` opened at the writer's end offset. */
  closeCell(row: number, end: number): void {
    this.byteLength = end;
    this.offsets[row + 1] = end;
    this.filled = row + 1;
    markValid(this.valid, row);
  }

  protected toData(rows: number, nullBitmap: Uint8Array, nullCount: number) {
    this.fillTo(rows);
    return makeData({
      type: this.type,
      length: rows,
      nullCount,
      nullBitmap,
      valueOffsets: this.offsets.subarray(0, rows + 1),
      data: this.bytes.subarray(0, this.byteLength),
    });
  }

  protected reset(): void {
    if (this.reuse) {
      this.offsets.fill(0);
      this.bytes.fill(0, 0, this.byteLength);
    } else {
      this.offsets = new Int32Array(this.capacity + 1);
      this.bytes = new Uint8Array(this.capacity * 16);
    }
    this.byteLength = 0;
    this.filled = 0;
  }

  /** Null rows before `row` end where the last value ended. */
  private fillTo(row: number): void {
    for (let r = this.filled; r < row; r++) this.offsets[r + 1] = this.byteLength;
    if (row > this.filled) this.filled = row;
  }

  private grow(atLeast: number): void {
    const next = new Uint8Array(Math.max(atLeast, this.bytes.length * 2));
    next.set(this.bytes.subarray(0, this.byteLength));
    this.bytes = next;
  }
}
