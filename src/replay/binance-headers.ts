/**
 * A Binance capture line's headers read in place from a chunk of text, for the span pass
 * (`l2-span-binance.ts`): the receipt time, the stream, the times `E` / `T`, the update ids
 * `U` / `u` / `pu`, a trade's `t` and `m`, whether `b` / `a` hold levels and where the first
 * level's (or the trade's) price text is. No line string, no JSON tree, no level decoded.
 *
 * It accepts exactly the plain shape the exchange sends (as `binance-scan.ts` does: keys and
 * values without escapes, integers without sign, fraction or exponent, `b` / `a` as lists of
 * string pairs, every key once) and checks all of that; anything else is `FULL`: the caller then
 * decodes the line in full (`binance-raw.ts`), which reads it or names its fault. So a line is
 * never read differently by the two: what the scan does not check is only the price and
 * quantity texts (decimals on the step), which the run's decoder checks when it reaches them.
 * Book tickers are read for their times as the run reads them (`tickerTimes` in binance-raw.ts).
 */

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
const OPEN_BRACE = 123;
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
const DEPTH_STREAM = /@depth(@\d+ms)?$/;

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
  private text = '';

  /**
   * Reads the line `text[start, end)` (no line break in it); `noBackslash` tells that the line
   * has none (the caller finds them once per chunk). Returns TICKER, TRADE, DEPTH or FULL.
   */
  scan(text: string, start: number, end: number, noBackslash: boolean): number {
    let i = start;
    while (i < end && isDigit(text.charCodeAt(i))) i++;
    if (i === start || i - start > 19 || text.charCodeAt(i) !== SPACE) return FULL;
    this.recvEnd = i;
    if (!text.startsWith('{"stream":"', i + 1)) return FULL;
    const streamEnd = text.indexOf('"', i + 12);
    if (streamEnd < 0 || streamEnd >= end) return FULL;
    if (text.startsWith('@bookTicker","data":{', streamEnd - 11)) return this.ticker(text, end, streamEnd);
    if (!noBackslash || !text.startsWith('","data":{', streamEnd)) return FULL;
    const stream = text.slice(i + 12, streamEnd);
    const kind = stream.endsWith('@trade') ? TRADE : DEPTH_STREAM.test(stream) ? DEPTH : FULL;
    if (kind === FULL) return FULL;
    this.text = text;
    this.end = end;
    this.at = streamEnd + 10;
    this.seen = 0;
    this.bLevels = false;
    this.aLevels = false;
    this.bCount = 0;
    this.aCount = 0;
    if (!this.object() || this.at !== end - 1 || text.charCodeAt(this.at) !== CLOSE_BRACE) return FULL;
    const wanted = kind === TRADE ? TRADE_KEYS : DEPTH_KEYS;
    return (this.seen & wanted) === wanted ? kind : FULL;
  }

  /** A book ticker's times, as the run reads them (`tickerTimes`): `T` and `E` its last, `u` its first. */
  private ticker(text: string, end: number, streamEnd: number): number {
    if (text.charCodeAt(end - 1) !== CLOSE_BRACE || text.charCodeAt(end - 2) !== CLOSE_BRACE) return FULL;
    this.eMs = lastIntField(text, '"E":', streamEnd, end);
    this.tMs = lastIntField(text, '"T":', streamEnd, end);
    const u = text.indexOf('"u":', streamEnd);
    this.updateId = u < 0 || u >= end ? NaN : intAt(text, u + 4);
    return this.eMs >= 0 && this.tMs >= 0 && this.updateId >= 0 ? TICKER : FULL;
  }

  /** The `data` object, from after its `{` to after its `}`. */
  private object(): boolean {
    const text = this.text;
    if (text.charCodeAt(this.at) === CLOSE_BRACE) {
      this.at++;
      return true;
    }
    for (;;) {
      if (text.charCodeAt(this.at) !== QUOTE) return false;
      const keyEnd = text.indexOf('"', this.at + 1);
      if (keyEnd < 0 || keyEnd >= this.end || text.charCodeAt(keyEnd + 1) !== COLON) return false;
      const key = keyBit(text, this.at + 1, keyEnd);
      if ((this.seen & key) !== 0) return false;
      this.seen |= key;
      this.at = keyEnd + 2;
      if (!this.value(key)) return false;
      const c = text.charCodeAt(this.at++);
      if (c === CLOSE_BRACE) return true;
      if (c !== COMMA) return false;
    }
  }

  private value(key: number): boolean {
    const text = this.text;
    const c = text.charCodeAt(this.at);
    if (c === QUOTE) {
      const close = text.indexOf('"', this.at + 1);
      if (close < 0 || close >= this.end) return false;
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
    if (text.startsWith('true', this.at)) {
      this.at += 4;
      if (key === K_m) this.maker = true;
    } else if (text.startsWith('false', this.at)) {
      this.at += 5;
      if (key === K_m) this.maker = false;
    } else return false;
    return true;
  }

  /** A non-negative integer exact as a double (at most 15 digits, no leading zero). */
  private integer(key: number): boolean {
    const text = this.text;
    const start = this.at;
    let n = 0;
    let i = start;
    for (let c = text.charCodeAt(i); c >= DIGIT_0 && c <= DIGIT_9; c = text.charCodeAt(++i)) n = n * 10 + (c - DIGIT_0);
    const digits = i - start;
    if (digits > 15 || (digits > 1 && text.charCodeAt(start) === DIGIT_0)) return false;
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
    const text = this.text;
    const end = this.end;
    if (key === K_b) this.bAt = this.at;
    else if (key === K_a) this.aAt = this.at;
    let at = this.at + 1;
    if (text.charCodeAt(at) === CLOSE_BRACKET) {
      this.at = at + 1;
      return true;
    }
    const first = at + 2;
    let count = 0;
    for (;;) {
      count++;
      if (text.charCodeAt(at) !== OPEN_BRACKET || text.charCodeAt(at + 1) !== QUOTE) return false;
      const p = text.indexOf('"', at + 2);
      if (p < 0 || p >= end || text.charCodeAt(p + 1) !== COMMA || text.charCodeAt(p + 2) !== QUOTE) return false;
      const q = text.indexOf('"', p + 3);
      if (q < 0 || q >= end || text.charCodeAt(q + 1) !== CLOSE_BRACKET) return false;
      if (at + 2 === first && (key === K_b || (key === K_a && !this.bLevels))) {
        this.priceStart = first;
        this.priceEnd = p;
      }
      at = q + 2;
      const c = text.charCodeAt(at++);
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

/**
 * The count of `step`s in the plain decimal `text[start, end)` (`\d+(\.\d*)?`, at most 16
 * chars, exact as a safe integer), -1 for anything else: then `decimalSteps` (fields.ts) decides.
 * The same fast path as `RowFields.fastSteps` (fields.ts), over chars.
 */
export function plainSteps(text: string, start: number, end: number, scale: number): number {
  if (end === start || end - start > 16) return -1;
  let mantissa = 0;
  let decimals = -1;
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c >= DIGIT_0 && c <= DIGIT_9) {
      mantissa = mantissa * 10 + (c - DIGIT_0);
      if (decimals >= 0) decimals++;
    } else if (c === DOT && decimals < 0 && k > start) {
      decimals = 0;
    } else {
      return -1;
    }
  }
  if (decimals < 0) decimals = 0;
  const scaled = mantissa * scale;
  if (scaled > Number.MAX_SAFE_INTEGER) return -1;
  const divisor = POW10[decimals]!;
  return scaled % divisor === 0 ? scaled / divisor : -1;
}

const DOT = 46;
const POW10: readonly number[] = Array.from({ length: 17 }, (_, i) => 10 ** i);

function isDigit(c: number): boolean {
  return c >= DIGIT_0 && c <= DIGIT_9;
}

/** The bit of a key the scan reads, 0 for any other. */
function keyBit(text: string, start: number, end: number): number {
  const len = end - start;
  if (len === 2) return text.charCodeAt(start) === 112 && text.charCodeAt(start + 1) === 117 ? K_pu : 0; // pu
  if (len !== 1) return 0;
  switch (text.charCodeAt(start)) {
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

/** `lastPlainIntField` (binance-scan.ts) within a line ending at `end`: the key's last place, at or after `from`. */
function lastIntField(text: string, key: string, from: number, end: number): number {
  const at = text.lastIndexOf(key, end - key.length);
  return at < from ? NaN : intAt(text, at + key.length);
}

/** The plain non-negative safe integer at `at`, followed by `,` or `}`; else NaN (as binance-scan.ts reads it). */
function intAt(text: string, at: number): number {
  let i = at;
  let n = 0;
  for (let c = text.charCodeAt(i); c >= DIGIT_0 && c <= DIGIT_9; c = text.charCodeAt(++i)) n = n * 10 + (c - DIGIT_0);
  const stop = text.charCodeAt(i);
  if (i === at || i - at > 16 || (stop !== COMMA && stop !== CLOSE_BRACE) || !Number.isSafeInteger(n)) return NaN;
  return n;
}
