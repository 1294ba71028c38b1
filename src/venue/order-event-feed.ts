import type { OrderFeed, WsOrder } from '../wire/order.ts';
import type { OrderEvent } from './order-events.ts';
import { B_LIQUIDATION, F_QTY, F_NANOS, F_SEC, F_USER, hasRemainingLots, STATE_NAMES } from './order-store.ts';
import type { VenueState } from './venue-state.ts';

/**
 * An order event as the order websocket sends it: the wire objects `OrderEvent.feed()` and
 * `orderInto` build from the event's row and the order's record (once per event, shared by
 * every listener; a run nobody listens to in full builds none).
 */

/** The feed of `e` exactly as the order websocket sends it (keys in the wire's order). */
export function feedOf(e: OrderEvent, s: VenueState): OrderFeed {
  const { t, ts, tn } = e;
  switch (t) {
    case 'e':
      return { t, ts, tn, oid: e.oid, r: e.reason, txt: e.text };
    case 'j':
      return { t, ts, tn, eid: String(e.eid), o: wsOrderInto(e, s, {} as WsOrder), r: e.reason, txt: e.text };
    case 'c':
      return { t, ts, tn, eid: String(e.eid), o: wsOrderInto(e, s, {} as WsOrder), xr: e.reason, txt: e.text };
    case 'p':
    case 'f': {
      const slot = e.slot;
      const xs = { tid: String(e.tid), s: s.marketOf(slot)!.symbol, q: e.fillLots, p: e.fillPriceText(), d: s.orders.side(slot), agg: e.aggressor };
      return { t, ts, tn, eid: String(e.eid), o: wsOrderInto(e, s, {} as WsOrder), xs };
    }
    default:
      return { t, ts, tn, eid: String(e.eid), o: wsOrderInto(e, s, {} as WsOrder) };
  }
}

/** The feed's `o` of `e` written into `out` (in `WsOrder`'s key order when `out` starts empty), with the order's fill and state as of the event. */
export function wsOrderInto(e: OrderEvent, s: VenueState, out: WsOrder): WsOrder {
  const store = s.orders;
  const slot = e.slot;
  const state = e.stateCode();
  const filled = e.filledLots();
  const qty = store.field(slot, F_QTY);
  out.oid = s.orderId(slot);
  out.u = s.accounts[store.field(slot, F_USER)]!.username;
  out.s = s.symbolOf(slot);
  out.p = s.priceTextOf(slot);
  out.q = qty;
  out.xq = filled;
  out.rq = hasRemainingLots(state) ? qty - filled : 0;
  out.o = STATE_NAMES[state]!;
  out.d = store.side(slot);
  out.tif = store.tif(slot);
  out.liq = store.has(slot, B_LIQUIDATION);
  out.ts = store.field(slot, F_SEC);
  out.tn = store.field(slot, F_NANOS);
  return out;
}
