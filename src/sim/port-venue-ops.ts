import type { Account } from '../venue/account.ts';
import type { Venue } from '../venue/venue.ts';
import { toInstrumentInfo, toRestOrder } from '../venue/wire-forms.ts';
import type { NewOrder } from '../wire/order.ts';
import type { InstrumentInfo } from '../wire/records.ts';
import { newOrderProblem } from './new-order-check.ts';

/** A port call failed at the venue (unknown symbol, bad range, ...). */
export class PortError extends Error {}

/** What an in-process port's requests run on at the venue: its venue and its account. */
export interface AtVenue {
  readonly venue: Venue;
  readonly account: Account;
}

// The requests as they run at the venue, with the port as `this`: functions made once, so a
// request makes no closure (`InProcessPort.call`, `port-request.ts`).

export function instrumentsAtVenue(this: AtVenue): InstrumentInfo[] {
  return this.venue.markets.map(toInstrumentInfo);
}

export function insertAtVenue(this: AtVenue, order: NewOrder): string {
  const problem = newOrderProblem(order);
  if (problem !== undefined) throw new PortError(`invalid order: ${problem}`);
  return this.venue.placeOrderId(this.account, {
    symbol: order.symbol,
    price: order.price,
    quantity: order.quantity,
    side: order.side,
    timeInForce: order.timeInForce,
    postOnly: order.postOnly ?? false,
  });
}

export function cancelAtVenue(this: AtVenue, orderId: string): void {
  void this.venue.cancelOrder(this.account, orderId);
}

export function cancelAllAtVenue(this: AtVenue): { successful: string[]; failed: string[] } {
  return this.venue.cancelAll(this.account);
}

export function openOrdersAtVenue(this: AtVenue) {
  return this.venue.openOrders(this.account).map(toRestOrder);
}

export function riskSnapshotAtVenue(this: AtVenue) {
  return this.venue.riskSnapshot(this.account);
}
