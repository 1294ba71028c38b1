import { parse, type Parser } from 'csv-parse';
import type { ByteSource } from './byte-source.ts';
import { ReplayError } from './replay-error.ts';

const COMMA = 44;
const NEWLINE = 10;
const RETURN = 13;
const QUOTE = 34;

/**
 * Records decoded from one block of bytes, as offsets into those bytes (no per-field strings:
 * decoders read numbers straight from `bytes`, and make text only where they need it).
 * Record `r` (on 1-based line `lines[r]`) has the fields `f` in `[first[r], first[r + 1])`;
 * field `f` is `bytes[starts[f], ends[f])`, UTF-8. The arrays may be longer than used, and
 * are reused: a batch is valid until the next one is requested from the same splitter.
 */
export interface CsvBatch {
  bytes: Uint8Array;
  count: number;
  first: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
  lines: Int32Array;
}

/** Field `f` of a batch as text. */
export function fieldText(batch: CsvBatch, f: number): string {
  return Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.length).toString('utf8', batch.starts[f], batch.ends[f]);
}

/** The fields of record `r` as strings (for headers and messages). */
export function recordFields(batch: CsvBatch, r: number): string[] {
  const out: string[] = [];
  for (let f = batch.first[r]!; f < batch.first[r + 1]!; f++) out.push(fieldText(batch, f));
  return out;
}

/**
 * Splits CSV bytes into records, fed in blocks of any size.
 *
 * Market-data CSVs (tardis, LOBSTER) never quote, and csv-parse decodes only about 0.2 M rows/s
 * here, so unquoted input is split on `\n` and `,` byte by byte into offsets (5× faster, almost
 * no garbage). From the first line that contains a `"` on, the rest of the input goes through
 * csv-parse (RFC 4180 quoting: commas, quotes and newlines inside fields), with line numbers
 * carried over. Either way `\r\n` ends a record like `\n`, and empty lines are skipped (but
 * counted).
 */
export class CsvSplitter {
  private rest: Buffer = Buffer.alloc(0);
  /** Lines fully consumed so far. */
  private line = 0;
  private quoted: Parser | undefined;
  // Reused between batches: growing plain arrays row by row costs 2-3x the whole split.
  private first: Int32Array = new Int32Array(1 << 12);
  private starts: Int32Array = new Int32Array(1 << 15);
  private ends: Int32Array = new Int32Array(1 << 15);
  private lines: Int32Array = new Int32Array(1 << 12);

  constructor(private readonly name: string) {}

  /** Records completed by `bytes` (an unterminated last line waits for more). */
  push(bytes: Uint8Array): CsvBatch {
    if (this.quoted !== undefined) return this.feedQuoted(bytes);
    const data = this.rest.length === 0 ? asBuffer(bytes) : Buffer.concat([this.rest, bytes]);
    const quote = data.indexOf(QUOTE);
    const cut = (quote < 0 ? data.lastIndexOf(NEWLINE) : data.lastIndexOf(NEWLINE, quote)) + 1;
    const out = this.split(data, cut);
    if (quote < 0) {
      this.rest = data.subarray(cut);
      return out;
    }
    this.rest = Buffer.alloc(0);
    const quoted = this.feedQuoted(data.subarray(cut));
    return out.count === 0 ? quoted : concatBatches(out, quoted);
  }

  /** The records left at the end of the input (a last line without a newline). */
  end(): CsvBatch {
    if (this.quoted !== undefined) {
      this.quoted.end();
      return this.drainQuoted();
    }
    const data = Buffer.concat([this.rest, Buffer.of(NEWLINE)]);
    this.rest = Buffer.alloc(0);
    return this.split(data, data.length === 1 ? 0 : data.length);
  }

  /**
   * Splits `data[0, cut)`, which ends with `\n` (or is empty), into records: each line found with
   * the native `indexOf` (memchr), then its commas by a byte loop over that line only.
   */
  private split(data: Buffer, cut: number): CsvBatch {
    let { first, starts, ends, lines } = this;
    first[0] = 0;
    let line = this.line;
    let fields = 0;
    let records = 0;
    for (let lineStart = 0; lineStart < cut; ) {
      const nl = data.indexOf(NEWLINE, lineStart);
      line++;
      const end = nl > lineStart && data[nl - 1] === RETURN ? nl - 1 : nl;
      if (end > lineStart) {
        // At most one field per byte, plus one: grow before the loop, not in it.
        if (fields + end - lineStart + 1 > starts.length) {
          starts = this.starts = grow(starts, fields + end - lineStart + 1);
          ends = this.ends = grow(ends, fields + end - lineStart + 1);
        }
        if (records + 1 === lines.length) {
          first = this.first = grow(first);
          lines = this.lines = grow(lines);
        }
        let from = lineStart;
        for (let k = lineStart; k < end; k++) {
          if (data[k] !== COMMA) continue;
          starts[fields] = from;
          ends[fields++] = k;
          from = k + 1;
        }
        starts[fields] = from;
        ends[fields++] = end;
        first[++records] = fields;
        lines[records - 1] = line;
      }
      lineStart = nl + 1;
    }
    this.line = line;
    return { bytes: data, count: records, first, starts, ends, lines };
  }

  private feedQuoted(bytes: Uint8Array): CsvBatch {
    if (this.quoted === undefined) {
      const parser = parse({ info: true, relax_column_count: true, skip_empty_lines: true, record_delimiter: ['\r\n', '\n'] });
      parser.on('error', () => {}); // read synchronously from `errored` instead
      this.quoted = parser;
    }
    this.quoted.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
    return this.drainQuoted();
  }

  /** Records csv-parse has finished, laid end to end in one buffer. */
  private drainQuoted(): CsvBatch {
    const parser = this.quoted!;
    const pieces: Buffer[] = [];
    const first = [0];
    const starts: number[] = [];
    const ends: number[] = [];
    const lines: number[] = [];
    let at = 0;
    for (let r = parser.read(); r !== null; r = parser.read()) {
      const { record, info } = r as { record: string[]; info: { lines: number } };
      for (const field of record) {
        const piece = Buffer.from(field, 'utf8');
        pieces.push(piece);
        starts.push(at);
        at += piece.length;
        ends.push(at);
      }
      first.push(starts.length);
      lines.push(this.line + info.lines);
    }
    // The stream emits its error a tick later; `errored` has it as soon as write() returns.
    if (parser.errored !== null) {
      const e = parser.errored as { lines?: number; message?: string };
      throw new ReplayError(this.name, e.lines === undefined ? undefined : this.line + e.lines, undefined, `bad CSV: ${e.message}`);
    }
    return {
      bytes: Buffer.concat(pieces),
      count: lines.length,
      first: Int32Array.from(first),
      starts: Int32Array.from(starts),
      ends: Int32Array.from(ends),
      lines: Int32Array.from(lines),
    };
  }
}

function grow(a: Int32Array, atLeast = 0): Int32Array {
  const bigger = new Int32Array(Math.max(2 * a.length, atLeast));
  bigger.set(a);
  return bigger;
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** `a` then `b` as one batch over their bytes laid end to end. */
function concatBatches(a: CsvBatch, b: CsvBatch): CsvBatch {
  const shift = a.bytes.length;
  const fields = a.first[a.count]!;
  const bFields = b.first[b.count]!;
  const join = (x: Int32Array, y: Int32Array, add: number): Int32Array => Int32Array.from([...x, ...y.map((v) => v + add)]);
  return {
    bytes: Buffer.concat([a.bytes, b.bytes]),
    count: a.count + b.count,
    first: join(a.first.subarray(0, a.count + 1), b.first.subarray(1, b.count + 1), fields),
    starts: join(a.starts.subarray(0, fields), b.starts.subarray(0, bFields), shift),
    ends: join(a.ends.subarray(0, fields), b.ends.subarray(0, bFields), shift),
    lines: join(a.lines.subarray(0, a.count), b.lines.subarray(0, b.count), 0),
  };
}

/** Splits a byte source as CSV, one batch of records per block of bytes. */
export async function* readCsvBatches(source: ByteSource): AsyncGenerator<CsvBatch> {
  const splitter = new CsvSplitter(source.name);
  for await (const bytes of source.open()) {
    const batch = splitter.push(bytes);
    if (batch.count > 0) yield batch;
  }
  const last = splitter.end();
  if (last.count > 0) yield last;
}
