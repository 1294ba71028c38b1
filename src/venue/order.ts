import type { OrderState, Side, TimeInForce } from '../core/types.ts';
import type { Money } from '../core/money.ts';
import type { Market } from './market.ts';

/**
 * An order as the venue's callers see it. The venue keeps its orders as records
 * (order-store.ts); this is the read-only face of one (an `OrderView`), built only when a caller
 * asks for an order. Both wire forms (REST and websocket) are produced from it by
 * `src/venue/wire-forms.ts` (the shapes themselves are in `src/wire/order.ts`).
 */
export interface Order {
  /** Engine id: the counter inside `id`, used as the book's order id. */
  readonly seq: number;
  /** Wire id: `O-` or `L-` + 26 ULID-style characters. */
  readonly id: string;
  readonly userId: number;
  readonly username: string;
  readonly symbol: string;
  /** Undefined only for orders rejected as UNKNOWN_SYMBOL. */
  readonly market: Market | undefined;
  readonly side: Side;
  /** Price as minimal decimal text (what the wire shows). */
  readonly priceText: string;
  /** Price in ticks; NaN when the price is not on the tick grid (rejected orders). */
  readonly priceTicks: number;
  readonly qtyLots: number;
  readonly tif: TimeInForce | 'UNDEFINED';
  readonly postOnly: boolean;
  readonly isLiquidation: boolean;
  readonly insertSec: number;
  readonly insertNanos: number;
  readonly state: OrderState;
  readonly filledLots: number;
  /** Σ priceTicks × lots of its fills, for the average traded price. */
  readonly filledNotionalTicks: bigint;
  /** Initial margin currently reserved for the open remainder. */
  readonly reservedIm: Money;
}

/** Open (unfilled) quantity: 0 in every terminal state. */
export function remainingLots(order: Order): number {
  switch (order.state) {
    case 'PENDING':
    case 'NEW':
    case 'PARTIALLY_FILLED':
      return order.qtyLots - order.filledLots;
    default:
      return 0;
  }
}
