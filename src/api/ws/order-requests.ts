import type { OrderRequest } from '../../venue/venue.ts';
import { requireBool, requireEnum, requireInt, requirePattern, requireString } from './fields.ts';
import type { Frame } from './frames.ts';
import { PRICE_MAX_LENGTH, PRICE_PATTERN } from '../../wire/order.ts';

/** Symbol bounds of insert_order (the interface document's Limits), applied to `s` too. */
export const SYMBOL_PATTERN = /^[-A-Z0-9]+$/;

/**
 * The place-order request (`t: "p"`) as a venue order request. Schema checks only — field
 * presence, types, enums, the document's symbol and price patterns — each failing with a 400 that
 * names the field. Business rules (unknown symbol, tick grid, quantity ≤ 0, margin …) are left to
 * the venue, which answers them with a Rejected Order feed after the order id.
 */
export function parsePlaceRequest(frame: Frame): OrderRequest {
  // A request every field of which passes, read with named loads (the checks below read by key
  // name, a megamorphic load each); the symbol and price texts that passed last are not matched again.
  const { s, d, q, p, tif, po } = frame;
  const goodSymbol = s === lastSymbol || isSymbol(s) ? (s as string) : undefined;
  const goodPrice = p === lastPrice || isPrice(p) ? (p as string) : undefined;
  if (goodSymbol !== undefined && goodPrice !== undefined && (d === 'B' || d === 'S') && typeof q === 'number' && Number.isSafeInteger(q) && (tif === 'GTC' || tif === 'IOC') && typeof po === 'boolean') {
    lastSymbol = goodSymbol;
    lastPrice = goodPrice;
    return { symbol: goodSymbol, side: d, quantity: q, price: goodPrice, timeInForce: tif, postOnly: po };
  }
  // Otherwise field by field, in order, so the error names the first field that fails.
  const symbol = requirePattern(frame, 's', SYMBOL_PATTERN, 1, 20);
  const side = requireEnum(frame, 'd', ['B', 'S'] as const);
  const quantity = requireInt(frame, 'q');
  const price = requirePattern(frame, 'p', PRICE_PATTERN, 1, PRICE_MAX_LENGTH);
  const timeInForce = requireEnum(frame, 'tif', ['GTC', 'IOC'] as const);
  const postOnly = requireBool(frame, 'po');
  return { symbol, side, quantity, price, timeInForce, postOnly };
}

/** The last symbol and price texts that passed their checks (a symbol at first: no JSON value equals it). */
const NONE = Symbol('none');
let lastSymbol: string | typeof NONE = NONE;
let lastPrice: string | typeof NONE = NONE;

const isSymbol = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= 20 && SYMBOL_PATTERN.test(v);
const isPrice = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= PRICE_MAX_LENGTH && PRICE_PATTERN.test(v);

/** The order id of a cancel request (`t: "x"`). Any string passes: an unknown id is an `e` feed. */
export function parseCancelRequest(frame: Frame): string {
  return requireString(frame, 'oid');
}
