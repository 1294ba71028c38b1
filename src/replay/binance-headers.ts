/**
 * A Binance capture line's headers read in place from a chunk of inflated bytes, for the span
 * pass (`l2-span-binance.ts`) and the reader (`binance-chunk.ts`): the receipt time, the stream, the times `E` / `T`, the update ids
 * `U` / `u` / `pu`, a trade's `t` and `m`, whether `b` / `a` hold levels and where the first
 * level's (or the trade's) price text is. No string, no JSON tree, no level decoded: bytes are
 * read as bytes (a chunk read as a string and scanned with `charCodeAt` cost ~3x a byte read, and
 * making the string ~0.1 s a 10x pass).
 *
 * It accepts exactly the plain shape the exchange sends (as `binance-scan.ts` does: keys and
 * values without escapes, integers without sign, fraction or exponent, `b` / `a` as lists of
 * string pairs, every key once) and checks all of that; anything else is `FULL`: the caller then
 * decodes the line in full (`binance-raw.ts`), which reads it or names its fault. So a line is
 * never read differently by the two: what the scan does not check is only the price and
 * quantity texts (decimals on the step), which the run's decoder checks when it reaches them.
 * Book tickers are read for their times as the run reads them (`tickerTimes` in binance-raw.ts).
 */

import { codes, digitsBefore, firstIntField, intAt, isDigit, lastIntField, matchAt, quoteAt } from './json-bytes.ts';

export const FULL = 0;
export const TICKER = 1;
export const TRADE = 2;
export const DEPTH = 3;

const SPACE = 32;
const QUOTE = 34;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const CLOSE_BRACE = 125;
const DIGIT_0 = 48;
const DIGIT_9 = 57;

// The keys read, one bit each; a line that names one twice is decoded in full (JSON keeps the last).
const K_E = 1;
const K_T = 2;
const K_U = 4;
const K_u = 8;
const K_pu = 16;
const K_t = 32;
const K_p = 64;
const K_q = 128;
const K_m = 256;
const K_b = 512;
const K_a = 1024;
const TRADE_KEYS = K_E | K_T | K_t | K_p | K_q | K_m;
const DEPTH_KEYS = K_E | K_T | K_U | K_u | K_pu | K_b | K_a;

/** One line's headers (valid for the kind `scan` returned); reused from line to line. */
export class LineHeaders {
  /** Where the receipt time's digits end (the space after them). */
  recvEnd = 0;
  eMs = 0;
  tMs = 0;
  firstUpdateId = 0;
  finalUpdateId = 0;
  prevFinalUpdateId = 0;
  bLevels = false;
  aLevels = false;
  /** A book ticker's `u`, a trade's `t`, whether a trade's buyer was the maker (`m`). */
  updateId = 0;
  tradeId = 0;
  maker = false;
  /** The first level's price text (of `b`, else `a`) or the trade's `p`: [priceStart, priceEnd). */
  priceStart = 0;
  priceEnd = 0;
  /** A trade's `q` text: [qtyStart, qtyEnd). */
  qtyStart = 0;
  qtyEnd = 0;
  /** Where `b` and `a` start (their `[`) and how many levels each holds. */
  bAt = 0;
  aAt = 0;
  bCount = 0;
  aCount = 0;
  private seen = 0;
  private at = 0;
  private end = 0;
  private b: Uint8Array = EMPTY;

  /**
   * Reads the line `b[start, end)` (no line break in it); `noBackslash` tells that the line has
   * none (the caller finds them once per chunk). Returns TICKER, TRADE, DEPTH or FULL.
   */
  scan(b: Uint8Array, start: number, end: number, noBackslash: boolean): number {
    let i = start;
    while (i < end && isDigit(b[i]!)) i++;
    if (i === start || i - start > 19 || b[i] !== SPACE) return FULL;
    this.recvEnd = i;
    if (!matchAt(b, i + 1, STREAM_HEAD)) return FULL;
    const from = i + 12;
    const streamEnd = quoteAt(b, from, end);
    if (streamEnd < 0) return FULL;
    if (matchAt(b, streamEnd - 11, TICKER_TAIL)) return this.ticker(b, end, streamEnd);
    if (!noBackslash || !matchAt(b, streamEnd, DATA_HEAD)) return FULL;
    const kind = streamEnd - 6 >= from && matchAt(b, streamEnd - 6, AT_TRADE) ? TRADE : isDepthStream(b, from, streamEnd) ? DEPTH : FULL;
    if (kind === FULL) return FULL;
    this.b = b;
    this.end = end;
    this.at = streamEnd + 10;
    this.seen = 0;
    this.bLevels = false;
    this.aLevels = false;
    this.bCount = 0;
    this.aCount = 0;
    if (!this.object() || this.at !== end - 1 || b[this.at] !== CLOSE_BRACE) return FULL;
    const wanted = kind === TRADE ? TRADE_KEYS : DEPTH_KEYS;
    return (this.seen & wanted) === wanted ? kind : FULL;
  }

  /** A book ticker's times, as the run reads them (`tickerTimes`): `T` and `E` its last, `u` its first. */
  private ticker(b: Uint8Array, end: number, streamEnd: number): number {
    if (b[end - 1] !== CLOSE_BRACE || b[end - 2] !== CLOSE_BRACE) return FULL;
    // The exchange's layout, `{"e":"bookTicker","u":…,"T":…,"E":…}}`, read where its fields are;
    // those are the places the searches below find (the last `"T":` / `"E":`, the first `"u":`).
    const eAt = digitsBefore(b, end - 2) - 4;
    const tAt = eAt > streamEnd && matchAt(b, eAt, KEY_E) && b[eAt - 1] === COMMA ? digitsBefore(b, eAt - 1) - 4 : -1;
    if (tAt > streamEnd && matchAt(b, tAt, KEY_T) && matchAt(b, streamEnd + 10, TICKER_U)) {
      this.eMs = intAt(b, eAt + 4);
      this.tMs = intAt(b, tAt + 4);
      this.updateId = intAt(b, streamEnd + 10 + TICKER_U.length);
    } else {
      this.eMs = lastIntField(b, KEY_E, streamEnd, end);
      this.tMs = lastIntField(b, KEY_T, streamEnd, end);
      this.updateId = firstIntField(b, KEY_u, streamEnd, end);
    }
    return this.eMs >= 0 && this.tMs >= 0 && this.updateId >= 0 ? TICKER : FULL;
  }

  /** The `data` object, from after its `{` to after its `}`. */
  private object(): boolean {
    const b = this.b;
    if (b[this.at] === CLOSE_BRACE) {
      this.at++;
      return true;
    }
    for (;;) {
      if (b[this.at] !== QUOTE) return false;
      const keyEnd = quoteAt(b, this.at + 1, this.end);
      if (keyEnd < 0 || b[keyEnd + 1] !== COLON) return false;
      const key = keyBit(b, this.at + 1, keyEnd);
      if ((this.seen & key) !== 0) return false;
      this.seen |= key;
      this.at = keyEnd + 2;
      if (!this.value(key)) return false;
      const c = b[this.at++];
      if (c === CLOSE_BRACE) return true;
      if (c !== COMMA) return false;
    }
  }

  private value(key: number): boolean {
    const b = this.b;
    const c = b[this.at]!;
    if (c === QUOTE) {
      const close = quoteAt(b, this.at + 1, this.end);
      if (close < 0) return false;
      if (key === K_p) {
        this.priceStart = this.at + 1;
        this.priceEnd = close;
      } else if (key === K_q) {
        this.qtyStart = this.at + 1;
        this.qtyEnd = close;
      } else if (key !== 0) return false;
      this.at = close + 1;
      return true;
    }
    if (c >= DIGIT_0 && c <= DIGIT_9) return this.integer(key);
    if (c === OPEN_BRACKET) return this.pairs(key);
    if (key !== K_m && key !== 0) return false;
    if (matchAt(b, this.at, TRUE)) {
      this.at += 4;
      if (key === K_m) this.maker = true;
    } else if (matchAt(b, this.at, FALSE)) {
      this.at += 5;
      if (key === K_m) this.maker = false;
    } else return false;
    return true;
  }

  /** A non-negative integer exact as a double (at most 15 digits, no leading zero). */
  private integer(key: number): boolean {
    const b = this.b;
    const start = this.at;
    let n = 0;
    let i = start;
    for (let c = b[i]!; c >= DIGIT_0 && c <= DIGIT_9; c = b[++i]!) n = n * 10 + (c - DIGIT_0);
    const digits = i - start;
    if (digits > 15 || (digits > 1 && b[start] === DIGIT_0)) return false;
    this.at = i;
    if (key === K_E) this.eMs = n;
    else if (key === K_T) this.tMs = n;
    else if (key === K_U) this.firstUpdateId = n;
    else if (key === K_u) this.finalUpdateId = n;
    else if (key === K_pu) this.prevFinalUpdateId = n;
    else if (key === K_t) this.tradeId = n;
    else if (key !== 0) return false;
    return true;
  }

  /** `[["p","q"],…]`: checked pair by pair, the first price's place kept for `b` (else `a`). */
  private pairs(key: number): boolean {
    if (key !== K_b && key !== K_a && key !== 0) return false;
    const b = this.b;
    const end = this.end;
    if (key === K_b) this.bAt = this.at;
    else if (key === K_a) this.aAt = this.at;
    let at = this.at + 1;
    if (b[at] === CLOSE_BRACKET) {
      this.at = at + 1;
      return true;
    }
    const first = at + 2;
    let count = 0;
    for (;;) {
      count++;
      if (b[at] !== OPEN_BRACKET || b[at + 1] !== QUOTE) return false;
      const p = quoteAt(b, at + 2, end);
      if (p < 0 || b[p + 1] !== COMMA || b[p + 2] !== QUOTE) return false;
      const q = quoteAt(b, p + 3, end);
      if (q < 0 || b[q + 1] !== CLOSE_BRACKET) return false;
      if (at + 2 === first && (key === K_b || (key === K_a && !this.bLevels))) {
        this.priceStart = first;
        this.priceEnd = p;
      }
      at = q + 2;
      const c = b[at++];
      if (c === CLOSE_BRACKET) break;
      if (c !== COMMA) return false;
    }
    if (key === K_b) {
      this.bLevels = true;
      this.bCount = count;
    } else if (key === K_a) {
      this.aLevels = true;
      this.aCount = count;
    }
    this.at = at;
    return true;
  }
}

const EMPTY = new Uint8Array(0);
const STREAM_HEAD = codes('{"stream":"');
const TICKER_TAIL = codes('@bookTicker","data":{');
const DATA_HEAD = codes('","data":{');
const AT_TRADE = codes('@trade');
const AT_DEPTH = codes('@depth');
const TRUE = codes('true');
const FALSE = codes('false');
const KEY_E = codes('"E":');
const KEY_T = codes('"T":');
const KEY_u = codes('"u":');
const TICKER_U = codes('"e":"bookTicker","u":');

/** Whether the stream name `b[from, end)` ends with `@depth` or `@depth@<digits>ms` (as /@depth(@\d+ms)?$/ tells). */
function isDepthStream(b: Uint8Array, from: number, end: number): boolean {
  if (end - 6 >= from && matchAt(b, end - 6, AT_DEPTH)) return true;
  if (b[end - 1] !== 115 || b[end - 2] !== 109) return false; // "ms"
  let k = end - 3;
  while (k >= from && isDigit(b[k]!)) k--;
  return k < end - 3 && b[k] === 64 && k - 6 >= from && matchAt(b, k - 6, AT_DEPTH); // "@depth@"
}

/** The bit of a key the scan reads, 0 for any other. */
function keyBit(b: Uint8Array, start: number, end: number): number {
  const len = end - start;
  if (len === 2) return b[start] === 112 && b[start + 1] === 117 ? K_pu : 0; // pu
  if (len !== 1) return 0;
  switch (b[start]) {
    case 69: return K_E;
    case 84: return K_T;
    case 85: return K_U;
    case 117: return K_u;
    case 116: return K_t;
    case 112: return K_p;
    case 113: return K_q;
    case 109: return K_m;
    case 98: return K_b;
    case 97: return K_a;
    default: return 0;
  }
}
