import type { CancelReason, RejectReason } from '../core/types.ts';
import type { OrderFeed, WsOrder } from '../wire/order.ts';
import { B_LIQUIDATION, F_FILLED, F_NANOS, F_QTY, F_SEC, F_USER, STATE_NAMES } from './order-store.ts';
import type { VenueState } from './venue-state.ts';

export type OrderFeedType = OrderFeed['t'];

/**
 * One order feed as it happens, before it is a feed object: which user, which type, which
 * order record and the few values a feed adds (reason, fill). The venue fills this one object
 * for every feed and hands it to `orderEvent` listeners, which may read `t` and `userId` for
 * free and call `feed()` for the wire object. `feed()` builds it from the records (once per
 * event, shared by every listener), so a run nobody listens to in full builds no feed at all.
 *
 * Valid only during the listener call: the next feed refills it.
 */
export class OrderEvent {
  t: OrderFeedType = 'n';
  userId = 0;
  /** The order's slot in the store (-1 for `e`, which names an id, not an order). */
  slot = -1;
  /** Execution id (0 for `e`). */
  eid = 0;
  ts = 0;
  tn = 0;
  /** `r` of j / e, `xr` of c. */
  reason: RejectReason | CancelReason | 'UNKNOWN_ORDER' | undefined = undefined;
  text: string | undefined = undefined;
  /** The order id named by an `e` (rejected cancel). */
  oid = '';
  /** Fill details of p / f. */
  tid = 0;
  fillLots = 0;
  fillPriceTicks = 0;
  aggressor = false;
  private built: OrderFeed | undefined = undefined;

  constructor(private readonly s: VenueState) {}

  /** Starts the next event (the caller then sets what its type carries). */
  reset(t: OrderFeedType, userId: number, slot: number, eid: number): this {
    this.t = t;
    this.userId = userId;
    this.slot = slot;
    this.eid = eid;
    this.ts = this.s.clock.nowSec;
    this.tn = this.s.clock.nowNanos;
    this.built = undefined;
    return this;
  }

  /** The feed exactly as the order websocket sends it (keys in the wire's order). */
  feed(): OrderFeed {
    return (this.built ??= this.build());
  }

  private build(): OrderFeed {
    const { t, ts, tn } = this;
    switch (t) {
      case 'e':
        return { t, ts, tn, oid: this.oid, r: this.reason, txt: this.text };
      case 'j':
        return { t, ts, tn, eid: String(this.eid), o: this.wsOrder(), r: this.reason, txt: this.text };
      case 'c':
        return { t, ts, tn, eid: String(this.eid), o: this.wsOrder(), xr: this.reason, txt: this.text };
      case 'p':
      case 'f': {
        const market = this.s.marketOf(this.slot)!;
        const xs = { tid: String(this.tid), s: market.symbol, q: this.fillLots, p: market.instrument.tick.toPrice(this.fillPriceTicks), d: this.s.orders.side(this.slot), agg: this.aggressor };
        return { t, ts, tn, eid: String(this.eid), o: this.wsOrder(), xs };
      }
      default:
        return { t, ts, tn, eid: String(this.eid), o: this.wsOrder() };
    }
  }

  private wsOrder(): WsOrder {
    const s = this.s;
    const store = s.orders;
    const slot = this.slot;
    return {
      oid: s.orderId(slot),
      u: s.accounts[store.field(slot, F_USER)]!.username,
      s: s.symbolOf(slot),
      p: s.priceTextOf(slot),
      q: store.field(slot, F_QTY),
      xq: store.field(slot, F_FILLED),
      rq: store.remainingLots(slot),
      o: STATE_NAMES[store.state(slot)]!,
      d: store.side(slot),
      tif: store.tif(slot),
      liq: store.has(slot, B_LIQUIDATION),
      ts: store.field(slot, F_SEC),
      tn: store.field(slot, F_NANOS),
    };
  }
}
