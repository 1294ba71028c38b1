import type { Frame } from './frames.ts';

/**
 * A fast reader for the order socket's common requests: a flat JSON object whose keys are the
 * order socket's request fields and whose values are plain strings, integers or booleans — what
 * every place and cancel request is. It gives exactly the object `JSON.parse` gives for such
 * text, or `undefined` for anything else (an unknown or repeated key, an escape, a non-ASCII or
 * control character, a fraction or exponent, null, a nested value, bad JSON), and the caller
 * then parses with `JSON.parse` as before. So the answer to every request, errors included, is
 * the answer the generic path gives: the scanner only decides how the same object is built.
 *
 * Why: `toString` + `JSON.parse` + the depth check cost more than the rest of the request's
 * reading (issue 11's profile); the scan is one pass over the bytes with no string for a key and
 * none for the one-letter values, and the symbol text of the previous request reused.
 */

/** Request fields the scanner knows (their values keep their JSON type; the gateway checks them). */
const KEYS = ['rid', 't', 's', 'd', 'q', 'p', 'tif', 'po', 'oid', 'u', 'k', 'cod'] as const;
const KEY_BYTES = KEYS.map((k) => Buffer.from(k));
/** Keys by length and first byte, so a key is found by comparing at most a couple of candidates. */
const KEYS_BY_LENGTH: number[][] = [];
KEY_BYTES.forEach((b, i) => (KEYS_BY_LENGTH[b.length] ??= []).push(i));

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MAX_INT_DIGITS = 15; // every 15-digit integer is safe; longer ones go to JSON.parse

/** One-character strings without allocating. */
const ONE_CHAR = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));

/** The last string value of each key (a symbol, a time in force, a user repeat request after request). */
const lastText: string[] = KEYS.map(() => '');

/**
 * The keys of a request in the order they came, as one number (4 bits a key, 1-based), and the
 * orders the clients send place and cancel requests in. A request in one of these orders is
 * built as an object literal (one hidden class, named stores); any other order key by key,
 * which is the same object but a megamorphic keyed store per member (~2% of the server under
 * order entry).
 */
const shapeOf = (keys: string[]): number => keys.reduce((shape, k) => shape * 16 + KEYS.indexOf(k as (typeof KEYS)[number]) + 1, 0);
const PLACE_SHAPE = shapeOf(['rid', 't', 's', 'd', 'q', 'p', 'tif', 'po']);
const CANCEL_SHAPE = shapeOf(['rid', 't', 'oid']);
/** The values of the request being scanned, by key index; and the keys in the order they came. */
const values: (string | number | boolean)[] = KEYS.map(() => 0);
const order: number[] = [];

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The object `JSON.parse(data)` gives, if `data` is a flat request the scanner reads; else undefined. */
export function scanRequest(data: Buffer): Frame | undefined {
  const n = data.length;
  let i = skip(data, 0);
  if (data[i] !== 0x7b) return undefined; // {
  i = skip(data, i + 1);
  let seen = 0; // bit per key
  let shape = 0;
  order.length = 0;
  if (data[i] === 0x7d) return skip(data, i + 1) === n ? {} : undefined;
  for (;;) {
    // key
    if (data[i] !== QUOTE) return undefined;
    const keyStart = i + 1;
    let keyEnd = keyStart;
    while (keyEnd < n && data[keyEnd] !== QUOTE) keyEnd++;
    const key = keyOf(data, keyStart, keyEnd);
    if (key < 0 || (seen & (1 << key)) !== 0) return undefined;
    seen |= 1 << key;
    i = skip(data, keyEnd + 1);
    if (data[i] !== 0x3a) return undefined; // :
    i = skip(data, i + 1);
    // value
    const c = data[i];
    let value: string | number | boolean;
    if (c === QUOTE) {
      const start = i + 1;
      let end = start;
      for (; end < n; end++) {
        const b = data[end]!;
        if (b === QUOTE) break;
        if (b < 0x20 || b > 0x7e || b === BACKSLASH) return undefined;
      }
      if (end >= n) return undefined;
      value = textOf(data, start, end, key);
      i = end + 1;
    } else if (c === 0x74 || c === 0x66) {
      // true / false
      if (c === 0x74 && data[i + 1] === 0x72 && data[i + 2] === 0x75 && data[i + 3] === 0x65) {
        value = true;
        i += 4;
      } else if (c === 0x66 && data[i + 1] === 0x61 && data[i + 2] === 0x6c && data[i + 3] === 0x73 && data[i + 4] === 0x65) {
        value = false;
        i += 5;
      } else return undefined;
    } else {
      const negative = c === 0x2d;
      let j = negative ? i + 1 : i;
      const first = j;
      let v = 0;
      for (; j < n; j++) {
        const d = data[j]! - 0x30;
        if (d < 0 || d > 9) break;
        v = v * 10 + d;
      }
      const digits = j - first;
      if (digits === 0 || digits > MAX_INT_DIGITS || (digits > 1 && data[first] === 0x30)) return undefined;
      // A fraction or exponent leaves `.`, `e` or `E` next, which is not a delimiter: refused below.
      value = negative ? -v : v; // -0 as JSON.parse gives it
      i = j;
    }
    values[key] = value;
    order.push(key);
    shape = shape * 16 + key + 1;
    i = skip(data, i);
    if (data[i] === 0x2c) {
      i = skip(data, i + 1);
      continue;
    }
    if (data[i] !== 0x7d) return undefined;
    return skip(data, i + 1) === n ? build(shape) : undefined;
  }
}

/** The object of the scanned members, keys in the order they came. */
function build(shape: number): Frame {
  const v = values;
  if (shape === PLACE_SHAPE) return { rid: v[0], t: v[1], s: v[2], d: v[3], q: v[4], p: v[5], tif: v[6], po: v[7] };
  if (shape === CANCEL_SHAPE) return { rid: v[0], t: v[1], oid: v[8] };
  const frame: Frame = {};
  for (const key of order) frame[KEYS[key]!] = v[key];
  return frame;
}

function skip(data: Buffer, i: number): number {
  while (i < data.length && isSpace(data[i]!)) i++;
  return i;
}

/** Index in KEYS of the key at [start, end), or -1. */
function keyOf(data: Buffer, start: number, end: number): number {
  const candidates = KEYS_BY_LENGTH[end - start];
  if (candidates === undefined) return -1;
  outer: for (const k of candidates) {
    const key = KEY_BYTES[k]!;
    for (let j = 0; j < key.length; j++) if (data[start + j] !== key[j]) continue outer;
    return k;
  }
  return -1;
}

/** The printable-ASCII text at [start, end), value of key number `key`. */
function textOf(data: Buffer, start: number, end: number, key: number): string {
  const len = end - start;
  if (len === 1) return ONE_CHAR[data[start]!]!;
  const last = lastText[key]!;
  if (last.length === len) {
    let j = 0;
    while (j < len && last.charCodeAt(j) === data[start + j]) j++;
    if (j === len) return last;
  }
  return (lastText[key] = data.toString('latin1', start, end));
}
