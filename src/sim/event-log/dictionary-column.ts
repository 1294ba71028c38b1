import { Dictionary, Int32, Int8, Utf8, Vector, makeData, type Data } from 'apache-arrow';
import { Column, markValid, Utf8Column } from './columns.ts';

/**
 * Dictionary-encoded strings. Values known up front are `seed`ed, so the first batch carries
 * the whole dictionary. A value first seen later adds a chunk to the dictionary vector in the
 * batch that brought it; the first chunk never changes, so Arrow's writer emits the later
 * chunks as delta dictionary batches (allowed in the IPC file format).
 */
export class DictionaryColumn extends Column {
  readonly type: Dictionary<Utf8, Int8 | Int32>;
  private indices: Int8Array | Int32Array;
  private readonly codes = new Map<string, number>();
  private readonly fresh: string[] = [];
  private readonly chunks: Data<Utf8>[] = [];
  private readonly maxCodes: number;
  /** The value `set` took last and its code. */
  private lastValue: string | undefined = undefined;
  private lastCode = 0;

  /** @param id the dictionary id in the schema (fixed, so files never depend on a global counter). */
  constructor(capacity: number, id: number, width: 8 | 32, reuse = false) {
    super(capacity, reuse);
    this.type = new Dictionary(new Utf8(), width === 8 ? new Int8() : new Int32(), id);
    this.maxCodes = width === 8 ? 127 : 2 ** 31 - 1;
    this.indices = this.newIndices();
  }

  /** Adds `values` to the dictionary (those not in it yet), so they get the lowest codes. */
  seed(values: Iterable<string>): void {
    for (const value of values) this.codeOf(value);
  }

  set(row: number, value: string): void {
    // Rows often repeat the last value (a side, a symbol, a feed type): one comparison, no lookup.
    if (value !== this.lastValue) {
      this.lastCode = this.codeOf(value);
      this.lastValue = value;
    }
    this.indices[row] = this.lastCode;
    markValid(this.valid, row);
  }

  /** The code of `value`, added to the dictionary now if new (as `set` would): for `setCode`. */
  code(value: string): number {
    return this.codeOf(value);
  }

  /** Sets a code `code()` gave (callers that cache codes skip the string lookup). */
  setCode(row: number, code: number): void {
    this.indices[row] = code;
    markValid(this.valid, row);
  }

  private codeOf(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.codes.size;
      if (code >= this.maxCodes) throw new RangeError(`too many distinct values in dictionary ${this.type.id}`);
      this.codes.set(value, code);
      this.fresh.push(value);
    }
    return code;
  }

  protected toData(rows: number, nullBitmap: Uint8Array, nullCount: number) {
    if (this.fresh.length > 0 || this.chunks.length === 0) {
      this.chunks.push(utf8Data(this.fresh));
      this.fresh.length = 0;
    }
    const dictionary = new Vector([...this.chunks]);
    return makeData({ type: this.type, length: rows, nullCount, nullBitmap, data: this.indices.subarray(0, rows), dictionary });
  }

  protected reset(): void {
    this.indices = this.reuse ? this.indices.fill(0) : this.newIndices();
  }

  private newIndices(): Int8Array | Int32Array {
    return this.type.indices.bitWidth === 8 ? new Int8Array(this.capacity) : new Int32Array(this.capacity);
  }
}

/** A non-null UTF-8 vector of `values`. */
function utf8Data(values: string[]): Data<Utf8> {
  const column = new Utf8Column(Math.max(values.length, 1));
  values.forEach((v, i) => column.set(i, v));
  return column.finish(values.length) as Data<Utf8>;
}
