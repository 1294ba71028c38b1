/**
 * A scanner for the two message shapes that make a Binance capture's depth and trade lines,
 * `{"stream":"…","data":{…}}`, reading only what the reader needs without building the JSON
 * tree (`JSON.parse` of whole lines was the reader's ceiling). It accepts exactly the plain
 * shape the exchange sends — keys and values without escapes, integers without sign, fraction
 * or exponent, string pairs in `b` / `a` — and gives up (undefined) on anything else, so the
 * caller decodes that line with `JSON.parse` and its precise error messages: a line is never
 * read differently by the two paths.
 */

const QUOTE = 34; // "
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const BACKSLASH = 92;
const DIGIT_0 = 48;
const DIGIT_9 = 57;

/** The fields of one scanned `data` object: integers, strings, booleans, and `[string, string]` lists. */
export interface ScannedData {
  stream: string;
  ints: Map<string, number>;
  strings: Map<string, string>;
  flags: Map<string, boolean>;
  pairs: Map<string, string[]>;
}

/**
 * Scans `{"stream":"…","data":{…}}` (the whole of `text` from `from`); undefined when it is
 * anything else, or its stream is not one `accept` takes (known after a few bytes).
 */
export function scanStreamMessage(text: string, from: number, accept: (stream: string) => boolean): ScannedData | undefined {
  const s = new Scanner(text, from);
  if (!s.expect(OPEN_BRACE) || s.key() !== 'stream' || !s.expect(COLON)) return undefined;
  const stream = s.string();
  if (stream === undefined || !accept(stream) || !s.expect(COMMA) || s.key() !== 'data' || !s.expect(COLON)) return undefined;
  const data = s.object(stream);
  if (data === undefined || !s.expect(CLOSE_BRACE) || s.at !== text.length) return undefined;
  return data;
}

class Scanner {
  at: number;

  constructor(
    private readonly text: string,
    from: number,
  ) {
    this.at = from;
  }

  expect(c: number): boolean {
    if (this.text.charCodeAt(this.at) !== c) return false;
    this.at++;
    return true;
  }

  key(): string | undefined {
    return this.string();
  }

  /** A string without escapes. */
  string(): string | undefined {
    if (!this.expect(QUOTE)) return undefined;
    const end = this.text.indexOf('"', this.at);
    if (end < 0) return undefined;
    for (let i = this.at; i < end; i++) if (this.text.charCodeAt(i) === BACKSLASH) return undefined;
    const value = this.text.slice(this.at, end);
    this.at = end + 1;
    return value;
  }

  /** A non-negative integer that is safe as a double. */
  integer(): number | undefined {
    const start = this.at;
    let value = 0;
    for (let c = this.text.charCodeAt(this.at); c >= DIGIT_0 && c <= DIGIT_9; c = this.text.charCodeAt(this.at)) {
      value = value * 10 + (c - DIGIT_0);
      this.at++;
    }
    const n = this.at - start;
    // A leading zero (other than "0" itself) is not JSON; 16+ digits may not be exact.
    if (n === 0 || n > 15 || (n > 1 && this.text.charCodeAt(start) === DIGIT_0)) return undefined;
    return value;
  }

  /** `[["p","q"],…]` as a flat list p, q, p, q, … */
  pairs(): string[] | undefined {
    if (!this.expect(OPEN_BRACKET)) return undefined;
    const out: string[] = [];
    if (this.expect(CLOSE_BRACKET)) return out;
    for (;;) {
      if (!this.expect(OPEN_BRACKET)) return undefined;
      const p = this.string();
      if (p === undefined || !this.expect(COMMA)) return undefined;
      const q = this.string();
      if (q === undefined || !this.expect(CLOSE_BRACKET)) return undefined;
      out.push(p, q);
      if (this.expect(CLOSE_BRACKET)) return out;
      if (!this.expect(COMMA)) return undefined;
    }
  }

  object(stream: string): ScannedData | undefined {
    if (!this.expect(OPEN_BRACE)) return undefined;
    const data: ScannedData = { stream, ints: new Map(), strings: new Map(), flags: new Map(), pairs: new Map() };
    if (this.expect(CLOSE_BRACE)) return data;
    for (;;) {
      const key = this.key();
      if (key === undefined || !this.expect(COLON) || !this.value(key, data)) return undefined;
      if (this.expect(CLOSE_BRACE)) return data;
      if (!this.expect(COMMA)) return undefined;
    }
  }

  private value(key: string, data: ScannedData): boolean {
    // A key given twice: JSON.parse keeps the last value; leave such lines to it.
    if (data.ints.has(key) || data.strings.has(key) || data.flags.has(key) || data.pairs.has(key)) return false;
    const c = this.text.charCodeAt(this.at);
    if (c === QUOTE) {
      const v = this.string();
      if (v === undefined) return false;
      data.strings.set(key, v);
    } else if (c >= DIGIT_0 && c <= DIGIT_9) {
      const v = this.integer();
      if (v === undefined) return false;
      data.ints.set(key, v);
    } else if (c === OPEN_BRACKET) {
      const v = this.pairs();
      if (v === undefined) return false;
      data.pairs.set(key, v);
    } else if (this.text.startsWith('true', this.at)) {
      this.at += 4;
      data.flags.set(key, true);
    } else if (this.text.startsWith('false', this.at)) {
      this.at += 5;
      data.flags.set(key, false);
    } else {
      return false;
    }
    return true;
  }
}

/**
 * The plain non-negative safe integer right after `key` (e.g. `"E":`), searched from `from` and
 * followed by `,` or `}`; NaN when absent or anything else. For readers that need one field of
 * a line they do not decode (its keys are the exchange's: a key's text is not in any value).
 */
export function plainIntField(text: string, key: string, from: number): number {
  const at = text.indexOf(key, from);
  return at < 0 ? NaN : plainIntAt(text, at + key.length);
}

/**
 * `plainIntField` for a key near the end of the line (a book ticker closes with its times `T`
 * and `E`): its last occurrence, which must be at or after `from`. A forward search from the
 * start of a ticker's data for `"E":` was two thirds of that line's decode (~210 ns a search,
 * ~40 ns backwards); JSON.parse keeps a repeated key's last value, so does this.
 */
export function lastPlainIntField(text: string, key: string, from: number): number {
  const at = text.lastIndexOf(key);
  return at < from ? NaN : plainIntAt(text, at + key.length);
}

/** The plain non-negative safe integer at `i`, followed by `,` or `}`; else NaN. */
function plainIntAt(text: string, at: number): number {
  let i = at;
  const start = i;
  let n = 0;
  for (let c = text.charCodeAt(i); c >= DIGIT_0 && c <= DIGIT_9; c = text.charCodeAt(++i)) n = n * 10 + (c - DIGIT_0);
  const end = text.charCodeAt(i);
  if (i === start || i - start > 16 || (end !== COMMA && end !== CLOSE_BRACE) || !Number.isSafeInteger(n)) return NaN;
  return n;
}
