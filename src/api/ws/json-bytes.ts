import type { FillDetails, OrderFeed, WsOrder } from '../../wire/order.ts';

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
    const n = v.length;
    this.room(n + 2);
    const buf = this.buf;
    const start = this.end;
    let at = start;
    buf[at++] = 0x22;
    for (let i = 0; i < n; i++) {
      const c = v.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) {
        this.end = start; // needs an escape or is not ASCII: JSON.stringify's text
        return this.json(v);
      }
      buf[at++] = c;
    }
    buf[at++] = 0x22;
    this.end = at;
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

  private digits(v: number): void {
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
const OPEN = bytes('{');
const CLOSE = bytes('}');
const COMMA = bytes(',');
/** `"key":` of each top-level key of the feeds. */
const KEY = new Map(['t', 'ts', 'tn', 'eid', 'oid', 'r', 'xr', 'txt', 'o', 'xs'].map((k) => [k, bytes(`"${k}":`)]));
const COLON = bytes(':');
const O_OID = bytes('{"oid":');
const XS_TID = bytes('{"tid":');
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

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);

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

/** `JSON.stringify(xs)` of a feed's fill details (the venue's key order). */
export function writeFill(w: JsonBytes, x: FillDetails): void {
  w.raw(XS_TID);
  w.str(x.tid);
  w.raw(C_S);
  w.str(x.s);
  w.raw(C_Q);
  w.num(x.q);
  w.raw(C_P);
  w.str(x.p);
  w.raw(C_D);
  w.str(x.d);
  w.raw(C_AGG);
  w.bool(x.agg);
  w.raw(CLOSE);
}

/**
 * `JSON.stringify(feed)` of an order feed. Top-level keys are written in the order the object
 * has them (they vary by feed type); undefined members are left out as JSON.stringify does.
 */
export function writeOrderFeed(w: JsonBytes, feed: OrderFeed): void {
  w.raw(OPEN);
  let first = true;
  for (const key in feed) {
    const v = (feed as unknown as Record<string, unknown>)[key];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue; // JSON.stringify leaves these out
    if (first) first = false;
    else w.raw(COMMA);
    const k = KEY.get(key);
    if (k === undefined) {
      w.json(key);
      w.raw(COLON);
      w.json(v);
      continue;
    }
    w.raw(k);
    switch (key) {
      case 'ts':
      case 'tn':
        w.num(v);
        break;
      case 'o':
        if (isObject(v)) writeWsOrder(w, v as WsOrder);
        else w.json(v);
        break;
      case 'xs':
        if (isObject(v)) writeFill(w, v as FillDetails);
        else w.json(v);
        break;
      default:
        if (typeof v === 'string') w.str(v);
        else w.json(v);
    }
  }
  w.raw(CLOSE);
}
