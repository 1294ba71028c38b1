import type { OrderEvent } from '../../venue/order-events.ts';
import type { WsOrder } from '../../wire/order.ts';
import type { JsonBytes } from './json-bytes.ts';

/**
 * The order feeds of the hot path (new, partial fill, fill, cancel, reject) written as one
 * template: the constant bytes between values are pre-joined (`","u":"` …), each value is
 * spliced in with one loop over a local buffer and position, and the values that repeat from
 * feed to feed (user + symbol, state + side + time in force + liquidation flag, a fill's price
 * text) are copied as bytes kept from the last time they were seen. Exactly the bytes of
 * `JSON.stringify(e.feed())`: a value that is not a printable-ASCII string without `"` or `\`,
 * or a number that is not a non-negative safe integer, makes {@link writeTemplated} give up
 * (false, nothing written) and the caller writes the event with the generic writer
 * (./json-bytes.ts), so an unusual feed costs speed, never correctness.
 *
 * Why: the generic writer spent ~1.2 µs a feed (a call, a bounds check and a `this` round trip
 * per key and value, an escape check per character of every string, a new price text per
 * fill): as much as the venue's whole place under websocket order entry.
 */

const enc = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));

const O_OID = enc('","o":{"oid":"');
const XS_TID = enc(',"xs":{"tid":"');
const R = enc(',"r":"');
const XR = enc(',"xr":"');
const TXT = enc(',"txt":"');
const QUOTE_CLOSE = enc('"}');
const CLOSE = enc('}');
const XQ = enc(',"xq":');
const RQ = enc(',"rq":');

/** Bytes of a feed besides its strings' characters and its kept segments (keys, punctuation, numbers of ≤ 16 digits). */
const FIXED_ROOM = 256;

/** Where a refused value leaves the position: negative, and still negative after every byte a feed can add. */
const REFUSED = -(2 ** 40);

/** Values of a segment's key (strings, numbers, booleans; unused places undefined). */
type Key = string | number | boolean | undefined;
const KEY_PARTS = 6;

/** Marks a way never filled (so an all-undefined key does not match it). */
const EMPTY = new Uint8Array(0);

/**
 * The bytes of a run of a feed between two changing values (keys, punctuation and the values
 * that repeat from feed to feed), kept for the last few `ways` combinations of those values.
 * Values are compared with `===`: for the venue's constant or cached texts (state names, sides,
 * an account's name, a market's symbol) that is a pointer comparison.
 */
class Segments {
  private readonly keys: Key[];
  private readonly bytes: (Uint8Array | undefined)[];
  private next = 0;

  /** @param build the segment's JSON for a key, or undefined when a value in it is not plain */
  constructor(
    private readonly ways: number,
    private readonly build: (a: Key, b: Key, c: Key, d: Key, e: Key, f: Key) => string | undefined,
  ) {
    this.keys = new Array<Key>(ways * KEY_PARTS).fill(undefined);
    this.bytes = new Array<Uint8Array | undefined>(ways).fill(EMPTY);
  }

  /** The segment's bytes, or undefined when a value is not plain (the feed then falls back). */
  get(a: Key, b?: Key, c?: Key, d?: Key, e?: Key, f?: Key): Uint8Array | undefined {
    const keys = this.keys;
    for (let w = 0, k = 0; w < this.ways; w++, k += KEY_PARTS) {
      if (keys[k] === a && keys[k + 1] === b && keys[k + 2] === c && keys[k + 3] === d && keys[k + 4] === e && keys[k + 5] === f && this.bytes[w] !== EMPTY) return this.bytes[w];
    }
    const w = this.next;
    this.next = (w + 1) % this.ways;
    const k = w * KEY_PARTS;
    keys[k] = a;
    keys[k + 1] = b;
    keys[k + 2] = c;
    keys[k + 3] = d;
    keys[k + 4] = e;
    keys[k + 5] = f;
    const text = this.build(a, b, c, d, e, f);
    return (this.bytes[w] = text === undefined ? undefined : enc(text));
  }
}

/** A string value of a segment in JSON, or undefined if it is not plain (printable ASCII without `"` or `\`). */
function plain(v: Key): string | undefined {
  if (typeof v !== 'string') return undefined;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return undefined;
  }
  return v;
}

/** A number value of a segment, if it is a non-negative safe integer (written as its digits). */
const whole = (v: Key): string | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? `${v}` : undefined);

const join = (...parts: (string | undefined)[]): string | undefined => (parts.includes(undefined) ? undefined : parts.join(''));

/** `{"t":"<t>","ts":<ts>,"tn":<tn>,"eid":"` */
const head = new Segments(4, (t, ts, tn) => join('{"t":"', plain(t), '","ts":', whole(ts), ',"tn":', whole(tn), ',"eid":"'));
/** `","u":"<u>","s":"<s>","p":"<p>","q":` */
const userSymbolPrice = new Segments(4, (u, s, p) => join('","u":"', plain(u), '","s":"', plain(s), '","p":"', plain(p), '","q":'));
/** `,"o":"<o>","d":"<d>","tif":"<tif>","liq":<liq>,"ts":<ts>,"tn":<tn>}` */
const stateTail = new Segments(8, (o, d, tif, liq, ts, tn) =>
  join(',"o":"', plain(o), '","d":"', plain(d), '","tif":"', plain(tif), `","liq":${liq === true},"ts":`, whole(ts), ',"tn":', whole(tn), '}'),
);
/** `","s":"<s>","q":` of a fill */
const fillSymbol = new Segments(2, (s) => join('","s":"', plain(s), '","q":'));
/** `,"p":"<p>","d":"<d>","agg":<agg>}}` of a fill */
const fillTail = new Segments(4, (p, d, agg) => join(',"p":"', plain(p), '","d":"', plain(d), `","agg":${agg === true}}}`));

/** The order of the event being written (one object, refilled per event). */
const order = {} as WsOrder;

/**
 * The last fill price: its ticks, its market's symbol, the event cursor it came from (each venue
 * has its own, so two venues in one process with one symbol at different ticks never share a
 * text) and its text (a new text per fill cost as much as the rest of the feed).
 */
let fillTicks = -1;
let fillSymbolText: string | undefined;
let fillCursor: OrderEvent | undefined;
let fillText = '';

/**
 * Writes `JSON.stringify(e.feed())` for an event of type n, p, f, c or j whose values are plain;
 * false (and nothing written) otherwise.
 */
export function writeTemplated(w: JsonBytes, e: OrderEvent): boolean {
  const t = e.t;
  if (t === 'e') return false;
  const o = e.orderInto(order);
  const fills = t === 'p' || t === 'f';
  const reason = t === 'c' || t === 'j' ? e.reason : undefined;
  const text = t === 'c' || t === 'j' ? e.text : undefined;
  const a = head.get(t, e.ts, e.tn);
  const b = userSymbolPrice.get(o.u, o.s, o.p);
  const c = stateTail.get(o.o, o.d, o.tif, o.liq, o.ts, o.tn);
  if (a === undefined || b === undefined || c === undefined) return false;
  let room = FIXED_ROOM + a.length + o.oid.length + b.length + c.length + (reason?.length ?? 0) + (text?.length ?? 0);
  let d: Uint8Array | undefined;
  let f: Uint8Array | undefined;
  if (fills) {
    if (e.fillPriceTicks !== fillTicks || o.s !== fillSymbolText || e !== fillCursor) {
      fillText = e.fillPriceText();
      fillTicks = e.fillPriceTicks;
      fillSymbolText = o.s;
      fillCursor = e;
    }
    d = fillSymbol.get(o.s);
    f = fillTail.get(fillText, o.d, e.aggressor);
    if (d === undefined || f === undefined) return false;
    room += d.length + f.length;
  }
  if (w.buf.length - w.end < room) w.grow(room);
  const buf = w.buf;
  let at = put(buf, w.end, a);
  at = int(buf, at, e.eid);
  at = put(buf, at, O_OID);
  at = ascii(buf, at, o.oid);
  at = put(buf, at, b);
  at = int(buf, at, o.q);
  at = put(buf, at, XQ);
  at = int(buf, at, o.xq);
  at = put(buf, at, RQ);
  at = int(buf, at, o.rq);
  at = put(buf, at, c);
  if (fills) {
    at = put(buf, at, XS_TID);
    at = int(buf, at, e.tid);
    at = put(buf, at, d!);
    at = int(buf, at, e.fillLots);
    at = put(buf, at, f!);
  } else {
    if (reason !== undefined) {
      at = put(buf, at, t === 'c' ? XR : R);
      at = ascii(buf, at, reason);
      buf[at++] = 0x22;
    }
    if (text !== undefined) {
      at = put(buf, at, TXT);
      at = ascii(buf, at, text);
      at = put(buf, at, QUOTE_CLOSE);
    } else at = put(buf, at, CLOSE);
  }
  if (at < 0) return false; // a value needed the generic writer; `end` was not moved
  w.end = at;
  return true;
}

/**
 * Copies `bytes` to `at` (a native copy for long runs, a loop for short ones, where the call
 * costs more than the bytes); returns the position after them. A negative `at` (a value refused
 * earlier) stays negative, so the writers chain without a check after each value.
 */
function put(buf: Buffer, at: number, bytes: Uint8Array): number {
  if (at < 0) return REFUSED;
  const n = bytes.length;
  if (n > 24) buf.set(bytes, at);
  else for (let i = 0; i < n; i++) buf[at + i] = bytes[i]!;
  return at + n;
}

/** The characters of a plain string (printable ASCII without `"` or `\`), or REFUSED. */
function ascii(buf: Buffer, at: number, v: string): number {
  if (at < 0) return REFUSED;
  const n = v.length;
  for (let i = 0; i < n; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return REFUSED;
    buf[at + i] = c;
  }
  return at + n;
}

/** A non-negative safe integer's digits, or REFUSED for any other number. */
function int(buf: Buffer, at: number, v: number): number {
  if (at < 0) return REFUSED;
  if (v >= 0 && v < 10 && (v | 0) === v) {
    buf[at] = 0x30 + v;
    return at + 1;
  }
  if (!(v >= 0 && v <= Number.MAX_SAFE_INTEGER && Math.floor(v) === v)) return REFUSED;
  let count = 1;
  for (let x = v; x >= 10; x = Math.floor(x / 10)) count++;
  let i = at + count;
  do {
    const q = Math.floor(v / 10);
    buf[--i] = 0x30 + (v - q * 10);
    v = q;
  } while (v > 0);
  return at + count;
}
