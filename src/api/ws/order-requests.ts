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
  const symbol = requirePattern(frame, 's', SYMBOL_PATTERN, 1, 20);
  const side = requireEnum(frame, 'd', ['B', 'S'] as const);
  const quantity = requireInt(frame, 'q');
  const price = requirePattern(frame, 'p', PRICE_PATTERN, 1, PRICE_MAX_LENGTH);
  const timeInForce = requireEnum(frame, 'tif', ['GTC', 'IOC'] as const);
  const postOnly = requireBool(frame, 'po');
  return { symbol, side, quantity, price, timeInForce, postOnly };
}

/** The order id of a cancel request (`t: "x"`). Any string passes: an unknown id is an `e` feed. */
export function parseCancelRequest(frame: Frame): string {
  return requireString(frame, 'oid');
}
