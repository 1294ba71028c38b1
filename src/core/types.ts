/**
 * Value types shared by every layer. Nothing here does I/O or keeps state.
 *
 * Units are part of the names: `priceTicks` is an integer count of tick sizes,
 * `qtyLots` an integer count of contracts, `tsNs` integer nanoseconds since the Unix epoch.
 */

/** Side of an order or trade, in the interface document's spelling. */
export type Side = 'B' | 'S';

/** Time in force accepted on input; `UNDEFINED` only appears for replayed third-party orders. */
export type TimeInForce = 'GTC' | 'IOC';

/** The opposite side. */
export function oppositeSide(side: Side): Side {
  return side === 'B' ? 'S' : 'B';
}

/** Order states (decisions.md). `rq` is 0 in every terminal state. */
export const ORDER_STATES = [
  'PENDING',
  'NEW',
  'PARTIALLY_FILLED',
  'FILLED',
  'CANCELED',
  'REJECTED',
  'EXPIRED',
  'REPLACED',
  'DONE_FOR_DAY',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** True for states from which an order never comes back to the book. */
export function isTerminalState(state: OrderState): boolean {
  return (
    state === 'FILLED' ||
    state === 'CANCELED' ||
    state === 'REJECTED' ||
    state === 'EXPIRED' ||
    state === 'REPLACED' ||
    state === 'DONE_FOR_DAY'
  );
}

/** Reject reasons (`r` of the Rejected Order feed), from decisions.md. */
export const REJECT_REASONS = [
  'CLOSE_ONLY',
  'INSUFFICIENT_MARGIN',
  'MAX_OPEN_ORDERS_EXCEEDED',
  'UNKNOWN_SYMBOL',
  'EXCHANGE_CLOSED',
  'INCORRECT_QUANTITY',
  'INVALID_PRICE_INCREMENT',
  'INCORRECT_ORDER_TYPE',
  'PRICE_OUT_OF_BOUNDS',
  'NO_LIQUIDITY',
  'UNKNOWN',
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/** Cancelation reasons (`xr` of the Cancel Order feed). */
export const CANCEL_REASONS = ['USER_REQUESTED', 'EXCHANGE_OPTION', 'LIQUIDATION', 'SELF_TRADE'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** Instrument states (decisions.md). Orders are accepted only in `OPEN`. */
export const INSTRUMENT_STATES = ['PRE_OPEN', 'OPEN', 'HALTED', 'CLOSED', 'CLOSED_FROZEN', 'DELISTED'] as const;
export type InstrumentState = (typeof INSTRUMENT_STATES)[number];

/** Exact simulation time: integer nanoseconds since the Unix epoch. */
export type TimeNs = bigint;

export const NANOS_PER_SECOND = 1_000_000_000n;
