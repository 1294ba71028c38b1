import type { ByteSource } from './byte-source.ts';

/** A text file's lines (without `\r\n` / `\n`), a chunk at a time; `firstLine` is 1-based. */
export async function* lineChunks(source: ByteSource): AsyncGenerator<{ firstLine: number; texts: string[] }> {
  let rest: Buffer = Buffer.alloc(0);
  let line = 1;
  for await (const chunk of source.open()) {
    const data = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
    const texts: string[] = [];
    let start = 0;
    for (let nl = data.indexOf(10, start); nl >= 0; nl = data.indexOf(10, start)) {
      texts.push(data.toString('utf8', start, nl > start && data[nl - 1] === 13 ? nl - 1 : nl));
      start = nl + 1;
    }
    rest = data.subarray(start);
    yield { firstLine: line, texts };
    line += texts.length;
  }
  yield { firstLine: line, texts: rest.length > 0 ? [rest.toString('utf8')] : [] };
}

/**
 * A text file's whole lines a chunk at a time, as bytes, for a reader that scans lines in place
 * and makes a line's (UTF-8) string only where it needs one. Each piece ends with a line break,
 * except the file's last, which holds what follows the last break (when anything does). The
 * reader numbers lines itself: split at `\n` (a `\r` before it is not part of the line), they
 * are `lineChunks`' lines. The inflated chunks are passed on as they are (views, no copy); only
 * the line a chunk boundary cuts is joined, as a piece of its own: joining every chunk to the
 * rest of the last one copied each 256 KB once more and, with the garbage, was a third of the
 * span pass's garbage collection.
 */
export async function* textChunks(source: ByteSource): AsyncGenerator<Buffer> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of source.open()) {
    const first = chunk.indexOf(10);
    if (first < 0) {
      rest = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
      continue;
    }
    let from = 0;
    if (rest.length > 0) {
      from = first + 1;
      yield Buffer.concat([rest, chunk.subarray(0, from)]);
    }
    const last = chunk.lastIndexOf(10);
    if (last >= from) yield chunk.subarray(from, last + 1);
    rest = chunk.subarray(last + 1);
  }
  if (rest.length > 0) yield rest;
}

const NEWLINE = 10;
const CR = 13;
/** `\\` as a byte: found with `Buffer.indexOf` (a search of the chunk as a string cost ~1.3 ns a char). */
const BACKSLASH = 92;

/**
 * The lines of one `textChunks` chunk, walked in place: each line's bytes `[start, end)` without
 * its CR, empty lines included (they count in line numbers), and whether the line is free of
 * backslashes (a line with one needs the full JSON decoder). One cursor per reader, reused.
 */
export class ChunkLines {
  start = 0;
  end = 0;
  private next = 0;
  private bytes: Buffer = Buffer.alloc(0);
  /** The first backslash at or after the current line's start (-1: none left in the chunk). */
  private backslash = -1;

  reset(bytes: Buffer): void {
    this.bytes = bytes;
    this.next = 0;
    this.backslash = bytes.indexOf(BACKSLASH);
  }

  /** Moves to the chunk's next line; false after its last. */
  advance(): boolean {
    const b = this.bytes;
    const start = this.next;
    if (start >= b.length) return false;
    const nl = b.indexOf(NEWLINE, start);
    this.next = nl < 0 ? b.length : nl + 1;
    this.end = nl < 0 ? b.length : nl > start && b[nl - 1] === CR ? nl - 1 : nl;
    this.start = start;
    return true;
  }

  /** Whether the current line holds no backslash. */
  plain(): boolean {
    if (this.backslash >= 0 && this.backslash < this.start) this.backslash = this.bytes.indexOf(BACKSLASH, this.start);
    return this.backslash < 0 || this.backslash >= this.end;
  }
}
