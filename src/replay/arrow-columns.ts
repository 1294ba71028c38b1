import type { Data, RecordBatch } from 'apache-arrow';

/**
 * Reading Arrow columns straight from their buffers, a batch at a time: what the Arrow replay
 * sources use to fill `MarketBatch` typed arrays without an object (or a bigint) per cell.
 */

const decoder = new TextDecoder();

/** The column's (single-chunk) data in a record batch, or undefined when absent. */
export function columnData(batch: RecordBatch, name: string): Data | undefined {
  return batch.getChild(name)?.data[0];
}

/** True when row `i` of `data` is not null. */
export function isValid(data: Data, i: number): boolean {
  const bitmap = data.nullBitmap;
  if (data.nullCount === 0 || bitmap === undefined || bitmap.length === 0) return true;
  const at = data.offset + i;
  return ((bitmap[at >> 3]! >> (at & 7)) & 1) === 1;
}

/** An Int64 (or narrower integer) column into `out` as numbers, NaN for nulls (values are safe integers). */
export function intsInto(data: Data | undefined, n: number, out: Float64Array): void {
  if (data === undefined || data.nullCount >= n) {
    out.fill(NaN, 0, n);
    return;
  }
  const values = data.values as ArrayLike<number> | BigInt64Array;
  const offset = data.offset;
  if (values instanceof BigInt64Array) {
    const halves = new Int32Array(values.buffer, values.byteOffset + offset * 8, n * 2);
    for (let i = 0; i < n; i++) out[i] = halves[i * 2 + 1]! * 4294967296 + (halves[i * 2]! >>> 0);
  } else {
    for (let i = 0; i < n; i++) out[i] = values[offset + i]!;
  }
  if (data.nullCount > 0) nullsInto(data, n, out, NaN);
}

/** Writes `value` into `out` at every null row of `data` (whole bitmap bytes at a time). */
function nullsInto(data: Data, n: number, out: { [i: number]: number }, value: number): void {
  const bitmap = data.nullBitmap;
  if (bitmap === undefined || bitmap.length === 0) return;
  const offset = data.offset;
  for (let i = 0; i < n; ) {
    const at = offset + i;
    if ((at & 7) === 0 && i + 8 <= n) {
      const byte = bitmap[at >> 3]!;
      if (byte !== 0xff) for (let k = 0; k < 8; k++) if (((byte >> k) & 1) === 0) out[i + k] = value;
      i += 8;
    } else {
      if (((bitmap[at >> 3]! >> (at & 7)) & 1) === 0) out[i] = value;
      i++;
    }
  }
}

/** An Int64 column's values as a view (no copy), for exact ns times; nulls read as whatever the buffer holds. */
export function bigintsView(data: Data | undefined, n: number): BigInt64Array | undefined {
  if (data === undefined || !(data.values instanceof BigInt64Array)) return undefined;
  return data.values.subarray(data.offset, data.offset + n);
}

/** The words of a dictionary column (all chunks, delta batches included). */
export function dictionaryWords(data: Data | undefined): string[] {
  return data?.dictionary === undefined ? [] : ([...data.dictionary] as (string | null)[]).map((w) => w ?? '');
}

/** Dictionary codes mapped through `map` (code → output value) into `out`; nulls become `nullValue`. */
export function mapCodesInto(data: Data | undefined, n: number, map: ArrayLike<number>, nullValue: number, out: Uint8Array | Int32Array): void {
  if (data === undefined || data.nullCount >= n) {
    out.fill(nullValue, 0, n);
    return;
  }
  const codes = (data.values as Int8Array | Int32Array).subarray(data.offset, data.offset + n);
  let identity = true;
  for (let c = 0; c < map.length; c++) if (map[c] !== c) identity = false;
  if (identity) {
    out.set(codes); // the usual case: the file's dictionary is in our code order
    for (let i = 0; i < n; i++) if (codes[i]! >= map.length) out[i] = nullValue;
  } else {
    for (let i = 0; i < n; i++) out[i] = map[codes[i]!] ?? nullValue;
  }
  if (data.nullCount > 0) nullsInto(data, n, out, nullValue);
}

/** Dictionary codes as they are (symbol codes index `dictionaryWords`). */
export function codesInto(data: Data | undefined, n: number, out: Int32Array): void {
  if (data === undefined) {
    out.fill(0, 0, n);
    return;
  }
  const codes = data.values as ArrayLike<number>;
  const offset = data.offset;
  for (let i = 0; i < n; i++) out[i] = codes[offset + i]!;
}

/** Booleans into 0 / 1 (null = 0). */
export function boolsInto(data: Data | undefined, n: number, out: Uint8Array): void {
  if (data === undefined) {
    out.fill(0, 0, n);
    return;
  }
  const bits = data.values as Uint8Array;
  const offset = data.offset;
  for (let i = 0; i < n; i++) out[i] = (bits[(offset + i) >> 3]! >> ((offset + i) & 7)) & 1;
  if (data.nullCount > 0) nullsInto(data, n, out, 0);
}

/** Row `i` of a UTF-8 column, or undefined when null or absent. */
export function textAt(data: Data | undefined, i: number): string | undefined {
  if (data === undefined || !isValid(data, i)) return undefined;
  const offsets = data.valueOffsets as Int32Array;
  return decoder.decode((data.values as Uint8Array).subarray(offsets[data.offset + i]!, offsets[data.offset + i + 1]!));
}

/** Row `i` of an integer column as a number, or undefined when null or absent. */
export function intAt(data: Data | undefined, i: number): number | undefined {
  if (data === undefined || !isValid(data, i)) return undefined;
  const v = (data.values as ArrayLike<number | bigint>)[data.offset + i]!;
  return Number(v);
}

/** Row `i` of an Int64 column as an exact bigint, or undefined when null or absent. */
export function bigintAt(data: Data | undefined, i: number): bigint | undefined {
  if (data === undefined || !isValid(data, i)) return undefined;
  return (data.values as BigInt64Array)[data.offset + i];
}
