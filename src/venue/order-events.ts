import type { CancelReason, RejectReason } from '../core/types.ts';
import type { OrderFeed, WsOrder } from '../wire/order.ts';
import { B_LIQUIDATION, F_FILLED, F_NANOS, F_QTY, F_SEC, F_USER, ST_NEW, ST_PARTIAL, ST_PENDING, STATE_NAMES } from './order-store.ts';
import type { VenueState } from './venue-state.ts';

export type OrderFeedType = OrderFeed['t'];

/**
 * One order feed as it happens, before it is a feed object: which user, which type, which
 * order record and the few values a feed adds (reason, fill). The venue fills this one object
 * for every feed and hands it to `orderEvent` listeners, which may read `t` and `userId` for
 * free and call `feed()` for the wire object. `feed()` builds it from the records (once per
 * event, shared by every listener), so a run nobody listens to in full builds no feed at all.
 *
 * Valid only during the listener call: the next feed refills it (`freeze` makes a lasting copy).
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
  // Set on a frozen copy: the order's filled lots and state as of the event (see `freeze`).
  private filledThen = -1;
  private stateThen = -1;

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

  /**
   * A copy that stays valid after the next feed refills this one, with the order's fill and
   * state as they are now: the venue tells listeners after the whole command (command-log.ts),
   * when later fills of the same command have moved the record on. Its slot must stay
   * allocated until it is delivered (the venue frees slots after delivery).
   */
  freeze(): OrderEvent {
    const copy = Object.assign(new OrderEvent(this.s), this);
    if (this.slot >= 0) {
      copy.filledThen = this.s.orders.field(this.slot, F_FILLED);
      copy.stateThen = this.s.orders.state(this.slot);
    }
    return copy;
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
    const frozen = this.stateThen >= 0;
    const state = frozen ? this.stateThen : store.state(slot);
    const filled = frozen ? this.filledThen : store.field(slot, F_FILLED);
    const qty = store.field(slot, F_QTY);
    return {
      oid: s.orderId(slot),
      u: s.accounts[store.field(slot, F_USER)]!.username,
      s: s.symbolOf(slot),
      p: s.priceTextOf(slot),
      q: qty,
      xq: filled,
      rq: state === ST_PENDING || state === ST_NEW || state === ST_PARTIAL ? qty - filled : 0,
      o: STATE_NAMES[state]!,
      d: store.side(slot),
      tif: store.tif(slot),
      liq: store.has(slot, B_LIQUIDATION),
      ts: store.field(slot, F_SEC),
      tn: store.field(slot, F_NANOS),
    };
  }
}
