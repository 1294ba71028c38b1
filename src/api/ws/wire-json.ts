import type { BookLevel, TickerStats } from '../../wire/market-data.ts';
import type { FillDetails, OrderFeed, WsOrder } from '../../wire/order.ts';

/**
 * Hand-written JSON for the messages the websockets send most: order feeds, replies, ticker
 * stats and book levels. Each function gives exactly the text `JSON.stringify` gives for the
 * same value (test/api/ws/wire-json.test.ts checks it over thousands of random messages and over
 * every feed a venue run emits), without walking the object generically: the shapes are known,
 * so keys are literal text and only values are formatted.
 *
 * Key order is part of the bytes. Top-level feed keys are written in the order the object has
 * them (they vary by feed type); the order in `o` is `toWsOrder`'s (src/venue/wire-forms.ts) and
 * in `xs` the venue's fill details'. Values that are not of the documented type are written by
 * `JSON.stringify`, so an unexpected value costs speed, never correctness.
 */

/** Characters JSON.stringify escapes: controls, quote, backslash, and surrogates (lone ones become \u escapes). */
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** A JSON string literal. */
export function jsonString(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** A JSON value of a field documented as a string (anything else through JSON.stringify). */
function str(v: unknown): string {
  return typeof v === 'string' ? jsonString(v) : JSON.stringify(v);
}

/** A JSON value of a field documented as a number: a finite number as JS writes it, else what JSON.stringify does. */
function num(v: unknown): string {
  return typeof v === 'number' && Number.isFinite(v) ? `${v}` : JSON.stringify(v);
}

function bool(v: unknown): string {
  return v === true ? 'true' : v === false ? 'false' : JSON.stringify(v);
}

/** Low-cardinality strings (symbols, users, states, sides, prices) keep their encoded text; bounded. */
const encoded = new Map<string, string>();
function common(v: unknown): string {
  if (typeof v !== 'string') return JSON.stringify(v);
  let text = encoded.get(v);
  if (text === undefined) {
    if (encoded.size >= 4096) encoded.clear();
    encoded.set(v, (text = jsonString(v)));
  }
  return text;
}

/** `JSON.stringify(order)` of a {@link WsOrder} as `toWsOrder` builds it. */
export function encodeWsOrder(o: WsOrder): string {
  return (
    `{"oid":${str(o.oid)},"u":${common(o.u)},"s":${common(o.s)},"p":${common(o.p)},"q":${num(o.q)},"xq":${num(o.xq)},"rq":${num(o.rq)},` +
    `"o":${common(o.o)},"d":${common(o.d)},"tif":${common(o.tif)},"liq":${bool(o.liq)},"ts":${num(o.ts)},"tn":${num(o.tn)}}`
  );
}

/** `JSON.stringify(xs)` of a feed's fill details. */
export function encodeFill(x: FillDetails): string {
  return `{"tid":${str(x.tid)},"s":${common(x.s)},"q":${num(x.q)},"p":${common(x.p)},"d":${common(x.d)},"agg":${bool(x.agg)}}`;
}

/** `JSON.stringify(feed)` of an order feed. */
export function encodeOrderFeed(feed: OrderFeed): string {
  let out = '{';
  for (const key in feed) {
    const v = (feed as unknown as Record<string, unknown>)[key];
    if (v === undefined) continue; // JSON.stringify leaves undefined members out
    if (out.length > 1) out += ',';
    switch (key) {
      case 't':
      case 'r':
      case 'xr':
        out += `"${key}":${common(v)}`;
        break;
      case 'ts':
      case 'tn':
        out += `"${key}":${num(v)}`;
        break;
      case 'o':
        out += `"o":${typeof v === 'object' && v !== null && !Array.isArray(v) ? encodeWsOrder(v as WsOrder) : JSON.stringify(v)}`;
        break;
      case 'xs':
        out += `"xs":${typeof v === 'object' && v !== null && !Array.isArray(v) ? encodeFill(v as FillDetails) : JSON.stringify(v)}`;
        break;
      default:
        out += `${jsonString(key)}:${typeof v === 'string' ? jsonString(v) : JSON.stringify(v)}`;
    }
  }
  return `${out}}`;
}

/** `JSON.stringify(stats)` of ticker stats as `tickerStats` builds them. */
export function encodeTickerStats(m: TickerStats): string {
  return (
    `{"t":${common(m.t)},"ts":${num(m.ts)},"tn":${num(m.tn)},"s":${common(m.s)},"p":${common(m.p)},"q":${num(m.q)},` +
    `"o":${common(m.o)},"l":${common(m.l)},"h":${common(m.h)},"v":${num(m.v)}}`
  );
}

/** `JSON.stringify(level)` of a book level (`o` only at LEVEL_3). */
export function encodeBookLevel(level: BookLevel): string {
  const head = `{"p":${common(level.p)},"q":${num(level.q)}`;
  return level.o === undefined ? `${head}}` : `${head},"o":${JSON.stringify(level.o)}}`;
}

/**
 * The part of an order-socket reply that follows `rid`: `res` for most requests, `o` beside rid
 * for `t: "o"`, `err` for a refusal; `placed` / `canceled` are the hot replies (`res: {oid}`,
 * `res: {cxl_rx: true}`), written without a generic walk.
 */
export type ReplyBody = { res: Record<string, unknown> } | { o: WsOrder[] } | { err: { code: number; msg: string } } | { placed: string } | { canceled: true };

/** `JSON.stringify({rid, ...body})` of an order-socket reply, with `placed` / `canceled` as the `res` they stand for. */
export function encodeOrderReply(rid: number | string | null, body: ReplyBody): string {
  const head = `{"rid":${num(rid)},`;
  if ('placed' in body) return `${head}"res":{"oid":${str(body.placed)}}}`;
  if ('canceled' in body) return `${head}"res":{"cxl_rx":true}}`;
  return `${head}${JSON.stringify(body).slice(1)}`;
}
