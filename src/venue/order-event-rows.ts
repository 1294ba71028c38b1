import type { OrderEvent, OrderFeedType } from './order-events.ts';
import { grown } from './undo-journal.ts';

/**
 * A row's numbers: who, which order, the event's id, a fill's details, the order's fill and
 * state as of the event, and the type (its letter's char code) with flags for what else the row
 * has. No time: every event of a command happens at the command's sim time, and rows are
 * delivered at the end of their command (or at once outside one), so the cursor reads the
 * clock as of the delivery (`OrderEvent.at`). A const enum: literals in the code (a module constant costs V8 a load and
 * a check at every use); the cursor (order-events.ts) has its copy, test/venue/record-layout
 * checks they agree.
 */
export const enum Row {
  User = 0,
  Slot = 1,
  Eid = 2,
  Tid = 3,
  FillLots = 4,
  FillPrice = 5,
  Aggressor = 6,
  Filled = 7,
  State = 8,
  /** The type's char code, plus `Reason` when the row has a reason and text, `Oid` when it names an id, `Fill` when it has a fill. */
  Kind = 9,
  /** Numbers per row. */
  Size = 10,
  Reason = 256,
  Oid = 512,
  /** The row has a fill (`setFill`): its fill numbers are written only then, and read only then. */
  Fill = 1024,
  /** The row is a user's own cancel (`setUserCancel`): reason `USER_REQUESTED`, text `USER_CANCEL_TEXT`, nothing stored. */
  UserCancel = 2048,
  /** The row is a cancel of no open order of the user's (`setUnknownOrder`): reason `UNKNOWN_ORDER`, text `UNKNOWN_ORDER_TEXT`, nothing stored. */
  UnknownOrder = 4096,
}

/** The text of a `c` feed for a cancel the user asked for. */
export const USER_CANCEL_TEXT = 'canceled by user';

/** The text of an `e` feed: the cancel named no open order of the user's. */
export const UNKNOWN_ORDER_TEXT = 'no open order with this id';

/** The feed type of each char code a row keeps (`Row.Kind & 255`). */
export const TYPE_OF_CODE: readonly OrderFeedType[] = (() => {
  const out: OrderFeedType[] = [];
  for (const t of ['n', 'j', 'p', 'f', 'c', 'x', 'e', 'd', 'r'] as const) out[t.charCodeAt(0)] = t;
  return out;
})();

/**
 * Order events waiting for their command to apply, as rows of numbers (reused from command to
 * command: a kept event allocates nothing and stores no reference, so no write barrier either)
 * and, for the few types that carry them, texts. The order flow writes a row straight from what
 * it knows (`add`, then `setReason` / `setOid` / `setFill` for what its type carries);
 * `OrderEvent` reads a row in place, the cursor listeners get.
 */
export class OrderEventRows {
  nums = new Float64Array(64 * Row.Size);
  readonly reasons: OrderEvent['reason'][] = [];
  readonly texts: (string | undefined)[] = [];
  /** The id an `e` row names: its text, or an engine id (a number) named by its decimal text when read (`OrderEvent.oid`). */
  readonly oids: (string | number)[] = [];
  length = 0;

  /**
   * A new row: the event of type `t` for `userId` about the order in `slot` (-1 for `e`), with
   * the order's filled lots and state as they are now (`filled`, `state`; -1 without an order).
   * No reason, text, order id or fill until set.
   */
  add(t: OrderFeedType, userId: number, slot: number, eid: number, filled: number, state: number): number {
    const i = this.length++;
    if ((i + 1) * Row.Size > this.nums.length) this.nums = grown(this.nums, (i + 1) * Row.Size);
    const n = this.nums;
    const o = i * Row.Size;
    n[o + Row.User] = userId;
    n[o + Row.Slot] = slot;
    n[o + Row.Eid] = eid;
    n[o + Row.Filled] = filled;
    n[o + Row.State] = state;
    n[o + Row.Kind] = t.charCodeAt(0);
    return i;
  }

  /** `r` / `xr` and `txt` of row `i` (j, c, e). */
  setReason(i: number, reason: NonNullable<OrderEvent['reason']>, text: string): void {
    this.flag(i, Row.Reason);
    this.reasons[i] = reason;
    this.texts[i] = text;
  }

  /**
   * `setReason(i, 'USER_REQUESTED', USER_CANCEL_TEXT)` as a flag: the commonest reason of all
   * (every cancel a user asks for) stores no reference (no write barrier, nothing to keep).
   */
  setUserCancel(i: number): void {
    this.flag(i, Row.UserCancel);
  }

  /** `setReason(i, 'UNKNOWN_ORDER', UNKNOWN_ORDER_TEXT)` as a flag (every `e`: no reference stored). */
  setUnknownOrder(i: number): void {
    this.flag(i, Row.UnknownOrder);
  }

  /** The order id an `e` row names: a wire id, or an engine id whose text is made only if read. */
  setOid(i: number, oid: string | number): void {
    this.flag(i, Row.Oid);
    this.oids[i] = oid;
  }

  /** The fill of a p / f row. */
  setFill(i: number, tid: number, lots: number, priceTicks: number, aggressor: boolean): void {
    const n = this.nums;
    const o = i * Row.Size;
    n[o + Row.Tid] = tid;
    n[o + Row.FillLots] = lots;
    n[o + Row.FillPrice] = priceTicks;
    n[o + Row.Aggressor] = aggressor ? 1 : 0;
    n[o + Row.Kind] = n[o + Row.Kind]! | Row.Fill;
  }

  clear(): void {
    this.length = 0;
  }

  /** Row `i` carries what `bit` says (the cursor reads `reasons`, `texts`, `oids` only then: nothing to clear). */
  private flag(i: number, bit: number): void {
    const kind = i * Row.Size + Row.Kind;
    this.nums[kind] = this.nums[kind]! | bit;
  }
}
