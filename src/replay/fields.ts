import { Decimal } from 'decimal.js';
import type { TickSize } from '../core/price.ts';
import type { CsvBatch } from './csv-records.ts';
import { ReplayError } from './replay-error.ts';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const POW10: readonly number[] = Array.from({ length: 16 }, (_, i) => 10 ** i);
const EXPONENT_FORM = /^\d*\.?\d+[eE][-+]?\d+$/;
const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;
const CHAR_0 = 48;
const CHAR_9 = 57;
const CHAR_DOT = 46;
const CHAR_MINUS = 45;

/**
 * Reads typed values out of the records of a `CsvBatch`, failing with a `ReplayError` that
 * names the file, line and column. A decoder keeps one instance and points it at each record
 * in turn (`at`); numbers are read straight from the batch bytes, without field strings.
 */
export class FieldReader {
  private bytes: Uint8Array = new Uint8Array(0);
  /** `bytes` as a Buffer, for text. */
  private buffer: Buffer = Buffer.alloc(0);
  private starts: Int32Array = new Int32Array(0);
  private ends: Int32Array = new Int32Array(0);
  private base = 0;
  /** The last `microsAsNs` conversion. */
  private lastMicros = -1;
  private lastNs = 0n;
  /** 1-based line of the current record. */
  line = 0;

  /** @param header column names for messages (`6 (ask_price)`), or none for headerless files. */
  constructor(
    readonly file: string,
    private readonly header: readonly string[] | undefined,
  ) {}

  /** Points the reader at record `r` of `batch` and checks its field count. */
  at(batch: CsvBatch, r: number, expectedCount: number): void {
    if (batch.bytes !== this.bytes) {
      this.bytes = batch.bytes;
      this.buffer = Buffer.isBuffer(batch.bytes) ? batch.bytes : Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.length);
    }
    this.starts = batch.starts;
    this.ends = batch.ends;
    this.base = batch.first[r]!;
    this.line = batch.lines[r]!;
    const count = batch.first[r + 1]! - this.base;
    if (count !== expectedCount) throw new ReplayError(this.file, this.line, undefined, `expected ${expectedCount} fields, got ${count}`);
  }

  /** Text of column `i` (0-based) of the current record. */
  field(i: number): string {
    return this.buffer.toString('utf8', this.starts[this.base + i]!, this.ends[this.base + i]!);
  }

  /** True when column `i` is exactly `literal` (no string is made). */
  is(i: number, literal: string): boolean {
    const s = this.starts[this.base + i]!;
    if (this.ends[this.base + i]! - s !== literal.length) return false;
    for (let k = 0; k < literal.length; k++) if (this.bytes[s + k] !== literal.charCodeAt(k)) return false;
    return true;
  }

  /** True when column `i` is empty. */
  isEmpty(i: number): boolean {
    return this.ends[this.base + i] === this.starts[this.base + i];
  }

  /** A `ReplayError` on column `i` of the current record. */
  error(i: number, reason: string): ReplayError {
    const name = this.header?.[i];
    return new ReplayError(this.file, this.line, name === undefined ? String(i + 1) : `${i + 1} (${name})`, reason);
  }

  /**
   * Non-negative decimal text (plain, or exponent form such as `1e-05`) as an exact count of
   * `step`s: prices in ticks, sizes in lots. Fails when the value is not a whole number of steps.
   */
  steps(i: number, step: TickSize, what: string): number {
    const fast = this.fastSteps(i, step);
    if (fast >= 0) return fast;
    const text = this.field(i);
    const n = decimalSteps(text, step);
    if (n !== undefined) return n;
    if (text.length === 0) throw this.error(i, `${what} is empty`);
    if (!/^\d+\.?\d*$/.test(text) && !EXPONENT_FORM.test(text)) throw this.error(i, `${JSON.stringify(text)} is not a non-negative decimal ${what}`);
    throw this.error(i, `${what} ${text} is not a whole number of ${step.text}`);
  }

  /** `steps`, or undefined when the field is empty. */
  optionalSteps(i: number, step: TickSize, what: string): number | undefined {
    return this.isEmpty(i) ? undefined : this.steps(i, step, what);
  }

  /** A signed integer that is safe as a double (LOBSTER ids, sizes, prices × 10^4). */
  integer(i: number, what: string): number {
    const s = this.starts[this.base + i]!;
    const e = this.ends[this.base + i]!;
    const bytes = this.bytes;
    const negative = e > s && bytes[s] === CHAR_MINUS;
    let value = 0;
    let k = negative ? s + 1 : s;
    if (k === e || e - k > 16) return this.slowInteger(i, what);
    for (; k < e; k++) {
      const c = bytes[k]!;
      if (c < CHAR_0 || c > CHAR_9) throw this.error(i, `${JSON.stringify(this.field(i))} is not an integer ${what}`);
      value = value * 10 + (c - CHAR_0);
    }
    // Past 2^53 the sum may have rounded; below it every step was exact.
    if (value > MAX_SAFE) return this.slowInteger(i, what);
    return negative ? -value : value;
  }

  /**
   * Columns `from` … `from + count − 1` as integers into `out[0 …]`, in one pass over the
   * record's bytes (no call per field): the fast path for rows of many integers (LOBSTER
   * orderbook files). False when a field is not a plain integer of at most 15 digits; the caller
   * then reads the fields one by one with `integer`, which names the bad one.
   */
  integers(from: number, count: number, out: Float64Array): boolean {
    const bytes = this.bytes;
    const starts = this.starts;
    const ends = this.ends;
    for (let i = 0; i < count; i++) {
      const f = this.base + from + i;
      let k = starts[f]!;
      const e = ends[f]!;
      const negative = k < e && bytes[k] === CHAR_MINUS;
      if (negative) k++;
      if (k === e || e - k > 15) return false;
      let value = 0;
      for (; k < e; k++) {
        const d = bytes[k]! - CHAR_0;
        if (d < 0 || d > 9) return false;
        value = value * 10 + d;
      }
      out[i] = negative ? -value : value;
    }
    return true;
  }

  private slowInteger(i: number, what: string): number {
    const text = this.field(i);
    const n = Number(text);
    if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(n)) throw this.error(i, `${JSON.stringify(text)} is not an integer ${what}`);
    return n;
  }

  /**
   * Seconds with up to 9 decimals (`34200.015105074`) as exact integer nanoseconds; at most
   * `maxWholeDigits` digits before the point (so the result stays a safe integer).
   */
  secondsAsNs(i: number, maxWholeDigits: number, what: string): number {
    const s = this.starts[this.base + i]!;
    const e = this.ends[this.base + i]!;
    const bytes = this.bytes;
    let whole = 0;
    let k = s;
    for (; k < e && bytes[k] !== CHAR_DOT; k++) {
      const c = bytes[k]!;
      if (c < CHAR_0 || c > CHAR_9 || k - s >= maxWholeDigits) return this.badSeconds(i, what);
      whole = whole * 10 + (c - CHAR_0);
    }
    if (k === s || k === e - 1 || e - k > 10) return this.badSeconds(i, what);
    let fraction = 0;
    let scale = 1e9;
    for (k++; k < e; k++) {
      const c = bytes[k]!;
      if (c < CHAR_0 || c > CHAR_9) return this.badSeconds(i, what);
      fraction = fraction * 10 + (c - CHAR_0);
      scale /= 10;
    }
    return whole * 1e9 + fraction * scale;
  }

  private badSeconds(i: number, what: string): never {
    throw this.error(i, `${JSON.stringify(this.field(i))} is not ${what}: seconds with at most 9 decimals`);
  }

  /**
   * Integer microseconds since the epoch as exact nanoseconds. Rows in a burst share their
   * time, so the last conversion is kept (bigints are immutable; two allocations saved a row).
   */
  microsAsNs(i: number, what: string): bigint {
    const us = this.micros(i, what);
    if (us !== this.lastMicros) {
      this.lastMicros = us;
      this.lastNs = BigInt(us) * 1000n;
    }
    return this.lastNs;
  }

  /** Integer microseconds since the epoch as a (safe, exact) number. */
  micros(i: number, what: string): number {
    const us = this.integer(i, what);
    if (us < 0 || this.bytes[this.starts[this.base + i]!] === CHAR_MINUS) {
      throw this.error(i, `${JSON.stringify(this.field(i))} is not a non-negative ${what} in microseconds`);
    }
    return us;
  }

  /** Plain decimal text, exponent form normalized (`1e-5` → `0.00001`), or undefined when empty. */
  optionalDecimalText(i: number, what: string): string | undefined {
    const text = this.field(i);
    if (text.length === 0) return undefined;
    if (PLAIN_DECIMAL.test(text)) return text;
    if (/^-?\d*\.?\d+[eE][-+]?\d+$/.test(text)) return new Decimal(text).toFixed();
    throw this.error(i, `${JSON.stringify(text)} is not a decimal ${what}`);
  }

  /** Plain decimal `\d+(\.\d*)?` of at most 15 significant digits; -1 for anything else (slow path decides). */
  private fastSteps(i: number, step: TickSize): number {
    const s = this.starts[this.base + i]!;
    const e = this.ends[this.base + i]!;
    if (e === s || e - s > 16) return -1;
    const bytes = this.bytes;
    let mantissa = 0;
    let decimals = -1;
    for (let k = s; k < e; k++) {
      const c = bytes[k]!;
      if (c >= CHAR_0 && c <= CHAR_9) {
        mantissa = mantissa * 10 + (c - CHAR_0);
        if (decimals >= 0) decimals++;
      } else if (c === CHAR_DOT && decimals < 0 && k > s) {
        decimals = 0;
      } else {
        return -1;
      }
    }
    if (decimals < 0) decimals = 0;
    const scaled = mantissa * step.priceScale;
    if (scaled > MAX_SAFE) return -1;
    const divisor = POW10[decimals]!;
    return scaled % divisor === 0 ? scaled / divisor : -1;
  }
}

/** Exact count of `step`s in non-negative decimal text, or undefined (bad text, not a multiple, not safe). */
export function decimalSteps(text: string, step: TickSize): number | undefined {
  try {
    return step.toTicks(text);
  } catch {
    if (!EXPONENT_FORM.test(text)) return undefined;
    return step.toTicks(new Decimal(text).toFixed());
  }
}
