/**
 * Reproducible identifiers. In a simulation every id comes from the clock and a counter, never
 * from `Math.random` (decisions.md), so two runs with one seed produce the same ids.
 */

/** Crockford base32, uppercase; in ASCII order, so fixed-width ids sort as their numbers do. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_CHARS = 10;
const COUNTER_CHARS = 16;
/** Length of an id without its prefix. */
const ID_BODY_LENGTH = TIME_CHARS + COUNTER_CHARS;
const MAX_TIME_MS = 2 ** 48 - 1;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

// Char code → digit value, -1 for anything outside the uppercase alphabet.
const DIGIT_OF: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < CROCKFORD.length; i++) table[CROCKFORD.charCodeAt(i)] = i;
  return table;
})();

// Two base32 digits at a time: 1024 two-character strings.
const PAIRS: readonly string[] = Array.from({ length: 1024 }, (_, i) => CROCKFORD[i >> 5]! + CROCKFORD[i & 31]!);

/** `value` (a non-negative safe integer) as `width` Crockford digits, zero-padded; width even. */
function encodeBase32(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i += 2) {
    const pair = rest % 1024;
    out = PAIRS[pair]! + out;
    rest = (rest - pair) / 1024;
  }
  return out;
}

const CROCKFORD_CODES: Uint8Array = Uint8Array.from(CROCKFORD, (c) => c.charCodeAt(0));

const TWO_POW_30 = 1073741824;

/**
 * Writes `value` (a non-negative safe integer) as `width` Crockford digits (ASCII) ending
 * before `end` in `out`. On 32-bit integers: one `%` splits the value into 30 low bits (six
 * digits) and at most 23 high bits; a double `%` per digit was ~8 % of a simulated day.
 */
function writeBase32(out: Uint8Array, end: number, value: number, width: number): void {
  let low = value % TWO_POW_30;
  let high = (value - low) / TWO_POW_30; // exact, < 2^23
  let i = end - 1;
  const first = end - width;
  for (let d = 0; d < 6 && i >= first; d++, i--) {
    out[i] = CROCKFORD_CODES[low & 31]!;
    low >>>= 5;
  }
  for (; i >= first; i--) {
    out[i] = CROCKFORD_CODES[high & 31]!;
    high >>>= 5;
  }
}

/**
 * Writes the id `IdGenerator.format(timeMs, counter)` gives as ASCII bytes at `out[at]` (the
 * prefix is the caller's: write it first), without making the text: the event log writes
 * every order's id, and a text made, concatenated and flattened per order only to be copied
 * into bytes was ~5 % of a simulated day. Needs `ID_DIGITS` bytes of room; returns the end.
 */
export function writeIdDigits(out: Uint8Array, at: number, timeMs: number, counter: number): number {
  writeBase32(out, at + TIME_CHARS, timeMs, TIME_CHARS);
  writeBase32(out, at + ID_BODY_LENGTH, counter, COUNTER_CHARS);
  return at + ID_BODY_LENGTH;
}

/** Prefix of an order's wire id, and of a liquidation order's (whose engine id is negative). */
export const ORDER_ID_PREFIX = 'O-';
export const LIQUIDATION_ID_PREFIX = 'L-';
const CODE_O = 79;
const CODE_L = 76;
const CODE_DASH = 45;

/**
 * Writes the wire id of the order with engine id `seq` inserted at `timeMs` as ASCII bytes at
 * `out[at]`: `O-` (`L-` for a liquidation, a negative engine id) then `writeIdDigits` of the
 * time and |seq| — what the venue's `IdGenerator`s format. Needs 2 + `ID_DIGITS` bytes; returns the end.
 */
export function writeOrderIdBytes(out: Uint8Array, at: number, seq: number, timeMs: number): number {
  out[at] = seq > 0 ? CODE_O : CODE_L;
  out[at + 1] = CODE_DASH;
  return writeIdDigits(out, at + 2, timeMs, seq > 0 ? seq : -seq);
}

/** Characters of an id after its prefix (`writeIdDigits`). */
export const ID_DIGITS = ID_BODY_LENGTH;

/**
 * Ids of the form `prefix` + 26 Crockford base32 characters (ULID layout): 10 characters of
 * the 48-bit millisecond time, then 16 characters of an 80-bit field holding a per-generator
 * counter that starts at 1 and grows by one on every call.
 *
 * Ids from one generator sort lexicographically in creation order as long as time never goes
 * back (the counter alone decides within a millisecond). Equal inputs give equal ids: two
 * generators with the same prefix and the same sequence of times produce the same sequence.
 */
export class IdGenerator {
  private counter = 0;
  private checkedTimeMs = NaN; // never equal to anything, so the first call validates
  private lastTimeMs = NaN;
  private lastTimeText = '';
  // The counter's first 14 characters change only every 1024 ids; cache them.
  private lastHigh = NaN;
  private lastHighText = '';

  /** @param prefix prepended verbatim: `"O-"` for orders, `"L-"` for liquidations, `""` for none. */
  constructor(readonly prefix: string) {}

  /** Number of ids issued so far (the counter of the last id). */
  get count(): number {
    return this.counter;
  }

  /** Takes the counter back to `count` (ids handed out by a command that was rolled back). */
  rewind(count: number): void {
    this.counter = count;
  }

  /**
   * The next id, e.g. `"O-01K5X2MVNG0000000000000001"` for the first id, at 1758691225264 ms.
   *
   * @param timeMs Unix milliseconds, an integer in [0, 2^48 − 1].
   * @throws RangeError if `timeMs` is out of range or the counter would pass 2^53 − 1.
   */
  next(timeMs: number): string {
    return this.format(timeMs, this.advance(timeMs));
  }

  /**
   * Issues the next counter without building its text (the venue formats an order's id only
   * when someone reads it: `format(timeMs, counter)` gives the same text `next` would have).
   *
   * @throws RangeError like `next`.
   */
  advance(timeMs: number): number {
    if (timeMs !== this.checkedTimeMs) {
      if (!Number.isInteger(timeMs) || timeMs < 0 || timeMs > MAX_TIME_MS) {
        throw new RangeError(`IdGenerator.next: timeMs must be an integer in [0, 2^48), got ${timeMs}`);
      }
      this.checkedTimeMs = timeMs;
    }
    if (this.counter >= MAX_SAFE) throw new RangeError('IdGenerator.next: counter exhausted');
    return ++this.counter;
  }

  /**
   * `advance` at the time of a clock (`nowSec` s + `nowNanos` ns, as milliseconds): read here,
   * not passed, as the milliseconds are past the small integers and a double argument of a call
   * is boxed (a heap number per order on the venue's hot path).
   */
  advanceAt(time: { readonly nowSec: number; readonly nowNanos: number }): number {
    const timeMs = time.nowSec * 1000 + Math.floor(time.nowNanos / 1_000_000);
    if (timeMs !== this.checkedTimeMs || this.counter >= MAX_SAFE) return this.advance(timeMs);
    return ++this.counter;
  }

  /** The id of `counter` issued at `timeMs` (both as `advance` checked them). */
  format(timeMs: number, counter: number): string {
    if (timeMs !== this.lastTimeMs) {
      this.lastTimeMs = timeMs;
      this.lastTimeText = encodeBase32(timeMs, TIME_CHARS);
    }
    const low = counter % 1024;
    const high = (counter - low) / 1024;
    if (high !== this.lastHigh) {
      this.lastHigh = high;
      this.lastHighText = encodeBase32(high, COUNTER_CHARS - 2);
    }
    return this.prefix + this.lastTimeText + this.lastHighText + PAIRS[low]!;
  }
}

/**
 * Decimal counter ids `"1"`, `"2"`, … for execution and trade ids (strings on the feeds).
 * Deterministic: a new instance always starts again at `"1"`.
 */
export class CounterIds {
  private counter = 0;

  /** Number of ids issued so far. */
  get count(): number {
    return this.counter;
  }

  /** Takes the counter back to `count` (ids handed out by a command that was rolled back). */
  rewind(count: number): void {
    this.counter = count;
  }

  /** The next id: `"1"` on the first call. */
  next(): string {
    return String(this.advance());
  }

  /** The next id as its number, for callers that format it only when it is read. */
  advance(): number {
    return ++this.counter;
  }
}

/**
 * The counter inside an id made by `IdGenerator` with `prefix`, so callers can find an order
 * by its counter.
 *
 * @returns the counter (≥ 1), or `undefined` if the id does not start with `prefix`, its body is
 *   not exactly 26 uppercase Crockford characters, the time exceeds 48 bits, or the counter is
 *   0 or above 2^53 − 1.
 */
export function decodeIdCounter(id: string, prefix: string): number | undefined {
  if (id.length !== prefix.length + ID_BODY_LENGTH || !id.startsWith(prefix)) return undefined;
  const start = prefix.length;
  for (let i = start; i < start + TIME_CHARS; i++) {
    const c = id.charCodeAt(i);
    if (c >= 128 || DIGIT_OF[c]! < 0) return undefined;
  }
  // 10 characters hold 50 bits; the first must be below 8 for a 48-bit time.
  if (DIGIT_OF[id.charCodeAt(start)]! > 7) return undefined;
  let counter = 0;
  for (let i = start + TIME_CHARS; i < id.length; i++) {
    const c = id.charCodeAt(i);
    const digit = c < 128 ? DIGIT_OF[c]! : -1;
    if (digit < 0) return undefined;
    if (counter > (MAX_SAFE - digit) / 32) return undefined;
    counter = counter * 32 + digit;
  }
  return counter === 0 ? undefined : counter;
}
