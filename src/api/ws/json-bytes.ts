import type { OrderEvent } from '../../venue/order-events.ts';
import type { WsOrder } from '../../wire/order.ts';
import { writeTemplated } from './feed-template.ts';

/**
 * Order feeds written as UTF-8 JSON straight into a byte buffer: exactly the bytes of
 * `JSON.stringify(feed)` (test/api/ws/wire-json.test.ts checks it over thousands of random
 * feeds and every feed a venue run emits), with no intermediate string. Keys are pre-encoded
 * bytes, integers are written as digits, ASCII strings byte by byte; a value that is not of its
 * documented type, or a string that needs an escape or is not ASCII, is written as the UTF-8 of
 * its `JSON.stringify`, so an unusual value costs speed, never correctness.
 *
 * Why: a feed built as a string (./wire-json.ts) was a rope of ~40 pieces that was then
 * flattened and UTF-8 encoded into the socket's frame buffer; the three passes and their
 * garbage were ~15% of the server's CPU under websocket order entry.
 */
export class JsonBytes {
  buf: Buffer;
  end = 0;

  constructor(size = 16 * 1024) {
    this.buf = Buffer.allocUnsafeSlow(size);
  }

  /** Forgets what was written (the buffer is reused). */
  reset(): void {
    this.end = 0;
  }

  private room(n: number): void {
    if (this.buf.length - this.end >= n) return;
    this.grow(n);
  }

  /** Makes room for `n` more bytes after `end` (a larger buffer, what was written copied). */
  grow(n: number): void {
    const next = Buffer.allocUnsafeSlow(Math.max(2 * this.buf.length, this.end + n));
    this.buf.copy(next, 0, 0, this.end);
    this.buf = next;
  }

  /** Pre-encoded bytes (keys and punctuation). */
  raw(bytes: Uint8Array): void {
    const n = bytes.length;
    this.room(n);
    const buf = this.buf;
    let at = this.end;
    for (let i = 0; i < n; i++) buf[at++] = bytes[i]!;
    this.end = at;
  }

  /** The UTF-8 of `JSON.stringify(v)` (v is not undefined). */
  json(v: unknown): void {
    const text = JSON.stringify(v);
    this.room(text.length * 3);
    this.end += this.buf.write(text, this.end);
  }

  /** A member documented as a string. */
  str(v: unknown): void {
    if (typeof v !== 'string') return this.json(v);
    const start = this.end;
    this.room(v.length + 2);
    this.buf[this.end++] = 0x22;
    if (!this.plain(v)) {
      this.end = start; // needs an escape or is not ASCII: JSON.stringify's text
      return this.json(v);
    }
    this.buf[this.end++] = 0x22;
  }

  /** The characters of a string that needs no escape in JSON and is ASCII (no quotes added); false, nothing written, otherwise. */
  plain(v: string): boolean {
    const n = v.length;
    this.room(n);
    const buf = this.buf;
    const at = this.end;
    for (let i = 0; i < n; i++) {
      const c = v.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
      buf[at + i] = c;
    }
    this.end = at + n;
    return true;
  }

  /** A member documented as a number. */
  num(v: unknown): void {
    if (typeof v !== 'number') return this.json(v);
    if (Number.isSafeInteger(v) && v >= 0) return this.digits(v);
    if (!Number.isFinite(v)) return this.json(v);
    const text = `${v}`; // JSON.stringify's text for a finite number (-0 too)
    this.room(text.length);
    for (let i = 0; i < text.length; i++) this.buf[this.end++] = text.charCodeAt(i);
  }

  /** A non-negative safe integer as its digits. */
  digits(v: number): void {
    let count = 1;
    for (let x = v; x >= 10; x = Math.floor(x / 10)) count++;
    this.room(count);
    const buf = this.buf;
    let at = this.end + count;
    this.end = at;
    do {
      const q = Math.floor(v / 10);
      buf[--at] = 0x30 + (v - q * 10);
      v = q;
    } while (v > 0);
  }

  /** A member documented as a boolean. */
  bool(v: unknown): void {
    if (v === true) this.raw(TRUE);
    else if (v === false) this.raw(FALSE);
    else this.json(v);
  }
}

const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));
const TRUE = bytes('true');
const FALSE = bytes('false');
const CLOSE = bytes('}');
const O_OID = bytes('{"oid":');
const C_U = bytes(',"u":');
const C_S = bytes(',"s":');
const C_P = bytes(',"p":');
const C_Q = bytes(',"q":');
const C_XQ = bytes(',"xq":');
const C_RQ = bytes(',"rq":');
const C_O = bytes(',"o":');
const C_D = bytes(',"d":');
const C_TIF = bytes(',"tif":');
const C_LIQ = bytes(',"liq":');
const C_TS = bytes(',"ts":');
const C_TN = bytes(',"tn":');
const C_AGG = bytes(',"agg":');

/** `JSON.stringify(order)` of a {@link WsOrder} as `toWsOrder` builds it (its key order). */
export function writeWsOrder(w: JsonBytes, o: WsOrder): void {
  w.raw(O_OID);
  w.str(o.oid);
  w.raw(C_U);
  w.str(o.u);
  w.raw(C_S);
  w.str(o.s);
  w.raw(C_P);
  w.str(o.p);
  w.raw(C_Q);
  w.num(o.q);
  w.raw(C_XQ);
  w.num(o.xq);
  w.raw(C_RQ);
  w.num(o.rq);
  w.raw(C_O);
  w.str(o.o);
  w.raw(C_D);
  w.str(o.d);
  w.raw(C_TIF);
  w.str(o.tif);
  w.raw(C_LIQ);
  w.bool(o.liq);
  w.raw(C_TS);
  w.num(o.ts);
  w.raw(C_TN);
  w.num(o.tn);
  w.raw(CLOSE);
}

const T_OPEN = bytes('{"t":');
const C_OID = bytes(',"oid":');
const C_EID = bytes(',"eid":');
const QUOTE = bytes('"');
const C_R = bytes(',"r":');
const C_XR = bytes(',"xr":');
const C_TXT = bytes(',"txt":');
const C_XS_TID = bytes(',"xs":{"tid":');

/** The order of the event being written (one object, refilled per event). */
const order = {} as WsOrder;

/** `,"key":value` of an optional string member (left out when undefined, as JSON.stringify does). */
function optional(w: JsonBytes, key: Uint8Array, v: string | undefined): void {
  if (v === undefined) return;
  w.raw(key);
  w.str(v);
}

/** An id the venue formats with `String(n)`, as a JSON string. */
function idText(w: JsonBytes, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) return w.str(String(n));
  w.raw(QUOTE);
  w.digits(n);
  w.raw(QUOTE);
}

/**
 * `JSON.stringify(e.feed())` of a venue order event, written from the event and its order's
 * record without building the feed: keys in the order `OrderEvent`'s feed has them for each
 * type (test/api/ws/wire-json.test.ts compares the bytes with JSON.stringify of the feed for
 * every event of a venue run). A fill's `xs.s` is the order's symbol (`o.s`): only rejected
 * orders carry a symbol other than their market's, and they never fill.
 */
export function writeOrderEvent(w: JsonBytes, e: OrderEvent): void {
  if (writeTemplated(w, e)) return; // the common feeds, plain values: ./feed-template.ts
  const t = e.t;
  w.raw(T_OPEN);
  w.str(t);
  w.raw(C_TS);
  w.num(e.ts);
  w.raw(C_TN);
  w.num(e.tn);
  if (t === 'e') {
    w.raw(C_OID);
    w.str(e.oid);
    optional(w, C_R, e.reason);
    optional(w, C_TXT, e.text);
    w.raw(CLOSE);
    return;
  }
  w.raw(C_EID);
  idText(w, e.eid);
  w.raw(C_O);
  writeWsOrder(w, e.orderInto(order));
  switch (t) {
    case 'j':
      optional(w, C_R, e.reason);
      optional(w, C_TXT, e.text);
      break;
    case 'c':
      optional(w, C_XR, e.reason);
      optional(w, C_TXT, e.text);
      break;
    case 'p':
    case 'f':
      w.raw(C_XS_TID);
      idText(w, e.tid);
      w.raw(C_S);
      w.str(order.s);
      w.raw(C_Q);
      w.num(e.fillLots);
      w.raw(C_P);
      w.str(e.fillPriceText());
      w.raw(C_D);
      w.str(order.d);
      w.raw(C_AGG);
      w.bool(e.aggressor);
      w.raw(CLOSE);
      break;
  }
  w.raw(CLOSE);
}
