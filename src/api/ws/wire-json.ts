import type { BookLevel, TickerStats } from '../../wire/market-data.ts';
import type { WsOrder } from '../../wire/order.ts';

/**
 * Hand-written JSON for messages the websockets send often: replies, ticker stats and book
 * levels (order feeds are written straight to UTF-8 bytes: ./json-bytes.ts). Each function
 * gives exactly the text `JSON.stringify` gives for the same value
 * (test/api/ws/wire-json.test.ts checks it over thousands of random messages), without walking
 * the object generically: the shapes are known, so keys are literal text and only values are
 * formatted. Key order is part of the bytes. Values that are not of the documented type are
 * written by `JSON.stringify`, so an unexpected value costs speed, never correctness.
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
