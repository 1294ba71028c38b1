import type { CancelReason, RejectReason, Side, TimeInForce } from '../core/types.ts';
import type { OrderFeed, WsOrder } from '../wire/order.ts';
import type { Market } from './market.ts';
import { B_LIQUIDATION, B_OFF_GRID, F_FILLED, F_PRICE, F_SEQ, F_NANOS, F_QTY, F_SEC, hasRemainingLots } from './order-store.ts';
import { feedOf, wsOrderInto } from './order-event-feed.ts';
import type { VenueState } from './venue-state.ts';
import { OrderEventRows, TYPE_OF_CODE, UNKNOWN_ORDER_TEXT, USER_CANCEL_TEXT } from './order-event-rows.ts';

export type OrderFeedType = OrderFeed['t'];

/** `Row` of order-event-rows.ts, the cursor's copy as literals (test/venue/record-layout checks they agree). */
export const enum At {
  User = 0,
  Slot = 1,
  Eid = 2,
  Tid = 3,
  FillLots = 4,
  FillPrice = 5,
  Aggressor = 6,
  Filled = 7,
  State = 8,
  Kind = 9,
  Size = 10,
  Reason = 256,
  Oid = 512,
  Fill = 1024,
  UserCancel = 2048,
  UnknownOrder = 4096,
}

/** What a cursor reads before its first `load`. */
const EMPTY_ROWS = new OrderEventRows();

/**
 * One order feed as it happens, before it is a feed object: which user, which type, which
 * order record and the few values a feed adds (reason, fill). The venue points this one object
 * at each event's row and hands it to `orderEvent` listeners, which may read `t` and `userId` for
 * free and call `feed()` for the wire object. `feed()` builds it from the records (once per
 * event, shared by every listener), so a run nobody listens to in full builds no feed at all.
 *
 * Valid only during the listener call: the next feed moves it (the command's outbox,
 * command-outbox.ts, keeps its events as rows, `OrderEventRows`, and replays them through one
 * such cursor, `load`).
 */
export class OrderEvent {
  /** The rows the event is read from (`load`), and where its row starts in their numbers. */
  private rows: OrderEventRows = EMPTY_ROWS;
  private i = 0;
  private o = 0;
  private built: OrderFeed | undefined = undefined;
  private sec = 0;
  private nanos = 0;

  constructor(private readonly s: VenueState) {}

  /**
   * Makes this event row `i` of `rows` (an event kept by the command's outbox until its command
   * applied), showing the order's fill and state as they were when it happened. Nothing is
   * copied: the fields below read the row in place (a listener that reads only `t` reads one
   * number).
   */
  load(rows: OrderEventRows, i: number): this {
    if (this.rows !== rows) this.rows = rows;
    this.i = i;
    this.o = i * At.Size;
    this.built = undefined;
    return this;
  }

  get t(): OrderFeedType {
    return TYPE_OF_CODE[this.rows.nums[this.o + At.Kind]! & 255]!;
  }

  get userId(): number {
    return this.rows.nums[this.o + At.User]!;
  }

  /** The order's slot in the store (-1 for `e`, which names an id, not an order). */
  get slot(): number {
    return this.rows.nums[this.o + At.Slot]!;
  }

  /** Execution id (0 for `e`). */
  get eid(): number {
    return this.rows.nums[this.o + At.Eid]!;
  }

  /** The event's sim time (Unix seconds, nanoseconds within the second): its command's, see `at`. */
  get ts(): number {
    return this.sec;
  }

  get tn(): number {
    return this.nanos;
  }

  /**
   * The sim time of the events about to be loaded: rows keep none, since every event of a
   * command happens at its command's time and is delivered at the end of it (outside a command,
   * at once). Noted once per delivery, not read from the clock per event.
   */
  at(sec: number, nanos: number): void {
    this.sec = sec;
    this.nanos = nanos;
  }

  /** `r` of j / e, `xr` of c. */
  get reason(): RejectReason | CancelReason | 'UNKNOWN_ORDER' | undefined {
    const kind = this.rows.nums[this.o + At.Kind]!;
    if ((kind & (At.Reason | At.UserCancel | At.UnknownOrder)) === 0) return undefined;
    if ((kind & At.Reason) !== 0) return this.rows.reasons[this.i];
    return (kind & At.UserCancel) !== 0 ? 'USER_REQUESTED' : 'UNKNOWN_ORDER';
  }

  get text(): string | undefined {
    const kind = this.rows.nums[this.o + At.Kind]!;
    if ((kind & (At.Reason | At.UserCancel | At.UnknownOrder)) === 0) return undefined;
    if ((kind & At.Reason) !== 0) return this.rows.texts[this.i];
    return (kind & At.UserCancel) !== 0 ? USER_CANCEL_TEXT : UNKNOWN_ORDER_TEXT;
  }

  /** Fill details of p / f. */
  get tid(): number {
    return this.has(At.Fill) ? this.rows.nums[this.o + At.Tid]! : 0;
  }

  get fillLots(): number {
    return this.has(At.Fill) ? this.rows.nums[this.o + At.FillLots]! : 0;
  }

  get fillPriceTicks(): number {
    return this.has(At.Fill) ? this.rows.nums[this.o + At.FillPrice]! : 0;
  }

  get aggressor(): boolean {
    return this.has(At.Fill) && this.rows.nums[this.o + At.Aggressor] === 1;
  }

  private has(bit: number): boolean {
    return (this.rows.nums[this.o + At.Kind]! & bit) !== 0;
  }

  // The order's filled lots and state as of the event (-1 for `e`: then the record's own).
  private get filledThen(): number {
    return this.rows.nums[this.o + At.Filled]!;
  }

  private get stateThen(): number {
    return this.rows.nums[this.o + At.State]!;
  }

  /**
   * The order id named by an `e` (rejected cancel). A cancel by engine id that found no order
   * names that id by its decimal text, made here, so a listener that never reads it (one that
   * counts events by type) costs no string per such cancel.
   */
  get oid(): string {
    if (!this.has(At.Oid)) return '';
    const oids = this.rows.oids;
    const named = oids[this.i]!;
    return typeof named === 'string' ? named : (oids[this.i] = String(named));
  }

  /** The feed exactly as the order websocket sends it (keys in the wire's order). */
  feed(): OrderFeed {
    return (this.built ??= feedOf(this, this.s));
  }

  /** The price text of a p / f feed's fill. */
  fillPriceText(): string {
    return this.s.marketOf(this.slot)!.instrument.tick.toPrice(this.fillPriceTicks);
  }

  // --- the order's fields as numbers, for in-process readers that want no feed object -------
  // (the event log, simulated agents). Valid for `plainMarket() !== undefined` only.

  /**
   * The order's market when its record describes it fully (`p` is the ticks' own text, `s` the
   * market's symbol); undefined for an `e` and for an order off the tick grid or of an unknown
   * symbol, whose texts only `feed()` has.
   */
  plainMarket(): Market | undefined {
    const slot = this.slot;
    if (slot < 0 || this.s.orders.has(slot, B_OFF_GRID)) return undefined;
    return this.s.marketOf(slot);
  }

  /** `o.oid`. */
  orderId(): string {
    return this.s.orderId(this.slot);
  }

  /** `o.ts` / `o.tn`: when the order was inserted (with `engineId()`, what its wire id is made of). */
  insertSec(): number {
    return this.s.orders.field(this.slot, F_SEC);
  }

  insertNanos(): number {
    return this.s.orders.field(this.slot, F_NANOS);
  }

  /** `orderId()` as ASCII at `out[at]`, without making the text (`ORDER_ID_BYTES` of room); returns the end. */
  writeOrderId(out: Uint8Array, at: number): number {
    return this.s.writeOrderIdInto(this.slot, out, at);
  }

  /** The order's engine id (`Venue.cancelOrderSeq`). */
  engineId(): number {
    return this.s.orders.field(this.slot, F_SEQ);
  }

  /** `o.p` in ticks (a plain order's). */
  priceTicks(): number {
    return this.s.orders.field(this.slot, F_PRICE);
  }

  /** `o.q`. */
  qtyLots(): number {
    return this.s.orders.field(this.slot, F_QTY);
  }

  /** `o.xq`: filled lots as of the event. */
  filledLots(): number {
    return this.stateThen >= 0 ? this.filledThen : this.s.orders.field(this.slot, F_FILLED);
  }

  /** The order's state code as of the event (`STATE_NAMES` gives `o.o`). */
  stateCode(): number {
    return this.stateThen >= 0 ? this.stateThen : this.s.orders.state(this.slot);
  }

  /** `o.rq`. */
  remainingLots(): number {
    return hasRemainingLots(this.stateCode()) ? this.qtyLots() - this.filledLots() : 0;
  }

  /** `o.d` (and `xs.d`). */
  side(): Side {
    return this.s.orders.side(this.slot);
  }

  /** `o.tif`. */
  tif(): TimeInForce {
    return this.s.orders.tif(this.slot);
  }

  /** `o.liq`. */
  isLiquidation(): boolean {
    return this.s.orders.has(this.slot, B_LIQUIDATION);
  }

  /**
   * The feed's `o` written into `out` (in `WsOrder`'s key order when `out` starts empty): for
   * a listener that writes the wire form itself and reuses one object (src/api/ws/json-bytes.ts).
   */
  orderInto(out: WsOrder): WsOrder {
    return wsOrderInto(this, this.s, out);
  }
}
