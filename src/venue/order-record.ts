import type { OrderState } from '../core/types.ts';

/**
 * The layout of an order record in `OrderStore.data` (`F_*` fields, `B_*` flags and `ST_*`
 * states packed in `F_BITS`), apart from the store that keeps the records.
 */

// The fields a command touches together come first (owner, flags and state, price, quantity,
// fill, the undo mark: 48 bytes), the rest after them, so an order's first touch in a command
// and its undo save read one cache line, seldom two.
/** Owner (account id); `FREE_USER` while the slot is free (see `free`). */
export const F_USER = 0;
/** Side, time in force, flags and state, packed (see the `B_*` masks). */
export const F_BITS = 1;
/** Price in ticks; 0 when the price is off the tick grid (`B_OFF_GRID`, rejected). */
export const F_PRICE = 2;
export const F_QTY = 3;
export const F_FILLED = 4;
/** Number of the last command whose undo saved this record (see undo-journal.ts). */
export const F_SAVED = 5;
/** The order's record in its market's book while it rests there, else 0 (see book-index.ts). */
export const F_BOOK_REF = 6;
/** Market index; -1 for an order on an unknown symbol (rejected). */
export const F_MARKET = 7;
/** Engine id: the id counter (`O-`), negated for liquidation orders (`L-`). */
export const F_SEQ = 8;
/** Σ priceTicks × lots of the fills, while that stays a safe integer (then `bigNotional`). */
export const F_NOTIONAL = 9;
export const F_SEC = 10;
export const F_NANOS = 11;
export const STRIDE = 12;
/** Numbers `saveRecordTo` writes. */
export const RECORD_SAVED = 3;
/** The owner of a free slot (no account has it), so a scan for open orders skips free slots. */
export const FREE_USER = -1;

export const B_SELL = 1;
export const B_IOC = 2;
export const B_POST_ONLY = 4;
export const B_LIQUIDATION = 8;
export const B_OFF_GRID = 16;
/** The open order's initial margin is kept as Money in `reservedIm` (see `Account.addOpenOrder`). */
export const B_IM_BIG = 32;
/** The slot has something in the side arrays (`views`, `idText`, `priceText`): see `markSide`. */
export const B_SIDE = 64;
export const STATE_SHIFT = 8;

export const ST_PENDING = 0;
export const ST_NEW = 1;
export const ST_PARTIAL = 2;
export const ST_FILLED = 3;
export const ST_CANCELED = 4;
export const ST_REJECTED = 5;
export const ST_EXPIRED = 6;
export const ST_DONE_FOR_DAY = 8;
/** State names by code (the codes are `ORDER_STATES` positions). */
export const STATE_NAMES: readonly OrderState[] = ['PENDING', 'NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'REJECTED', 'EXPIRED', 'REPLACED', 'DONE_FOR_DAY'];

export const NO_SLOT = -1;

/** True when packed bits `F_BITS` say NEW or PARTIALLY_FILLED. */
export function isOpenBits(bits: number): boolean {
  const st = (bits >>> STATE_SHIFT) & 15;
  return st === ST_NEW || st === ST_PARTIAL;
}

/**
 * Whether an order of state `st` still has lots to fill (`o.rq` is `o.q − o.xq` then, else 0):
 * PENDING, NEW or PARTIALLY_FILLED; an order that ended has none left, whatever it filled. The
 * one rule of `OrderEvent.remainingLots` and the feed's `rq` (`wsOrderInto`). A test of the state,
 * not the subtraction: `remainingLots` reads the lots only when they count (most events that
 * read it end their order). One comparison, those three being the lowest codes
 * (test/venue/record-layout checks it): fewer instructions than three equalities.
 */
export function hasRemainingLots(st: number): boolean {
  return st <= ST_PARTIAL;
}
