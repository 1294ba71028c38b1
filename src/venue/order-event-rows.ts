import type { OrderEvent, OrderFeedType } from './order-events.ts';
import { grown } from './undo-journal.ts';

/** Numbers per row of `OrderEventRows` (see `add`). */
export const ROW = 12;

// A row's numbers: who, which order, the event's ids and time, a fill's details, the order's fill
// and state as of the event, and the type (its letter's char code) with the extras flag.
export const R_USER = 0;
export const R_SLOT = 1;
export const R_EID = 2;
export const R_TS = 3;
export const R_TN = 4;
export const R_TID = 5;
export const R_FILL_LOTS = 6;
export const R_FILL_PRICE = 7;
export const R_AGGRESSOR = 8;
export const R_FILLED = 9;
export const R_STATE = 10;
/** The type's char code, plus `R_REASON` when the row has a reason and text, `R_OID` when it names an id. */
export const R_KIND = 11;
export const R_REASON = 256;
export const R_OID = 512;

/** The feed type of each char code a row keeps (`R_KIND & 255`). */
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
  nums = new Float64Array(64 * ROW);
  readonly reasons: OrderEvent['reason'][] = [];
  readonly texts: (string | undefined)[] = [];
  /** The id an `e` row names: its text, or an engine id (a number) named by its decimal text when read (`OrderEvent.oid`). */
  readonly oids: (string | number)[] = [];
  length = 0;

  /**
   * A new row: the event of type `t` for `userId` about the order in `slot` (-1 for `e`), at
   * (ts, tn), with the order's filled lots and state as they are now (`filled`, `state`; -1
   * without an order). No reason, text, order id or fill until set.
   */
  add(t: OrderFeedType, userId: number, slot: number, eid: number, ts: number, tn: number, filled: number, state: number): number {
    const i = this.length++;
    if ((i + 1) * ROW > this.nums.length) this.nums = grown(this.nums, (i + 1) * ROW);
    const n = this.nums;
    const o = i * ROW;
    n[o + R_USER] = userId;
    n[o + R_SLOT] = slot;
    n[o + R_EID] = eid;
    n[o + R_TS] = ts;
    n[o + R_TN] = tn;
    n[o + R_TID] = 0;
    n[o + R_FILL_LOTS] = 0;
    n[o + R_FILL_PRICE] = 0;
    n[o + R_AGGRESSOR] = 0;
    n[o + R_FILLED] = filled;
    n[o + R_STATE] = state;
    n[o + R_KIND] = t.charCodeAt(0);
    return i;
  }

  /** `r` / `xr` and `txt` of row `i` (j, c, e). */
  setReason(i: number, reason: NonNullable<OrderEvent['reason']>, text: string): void {
    this.flag(i, R_REASON);
    this.reasons[i] = reason;
    this.texts[i] = text;
  }

  /** The order id an `e` row names: a wire id, or an engine id whose text is made only if read. */
  setOid(i: number, oid: string | number): void {
    this.flag(i, R_OID);
    this.oids[i] = oid;
  }

  /** The fill of a p / f row. */
  setFill(i: number, tid: number, lots: number, priceTicks: number, aggressor: boolean): void {
    const n = this.nums;
    const o = i * ROW;
    n[o + R_TID] = tid;
    n[o + R_FILL_LOTS] = lots;
    n[o + R_FILL_PRICE] = priceTicks;
    n[o + R_AGGRESSOR] = aggressor ? 1 : 0;
  }

  clear(): void {
    this.length = 0;
  }

  /** Row `i` carries what `bit` says (the cursor reads `reasons`, `texts`, `oids` only then: nothing to clear). */
  private flag(i: number, bit: number): void {
    const kind = i * ROW + R_KIND;
    this.nums[kind] = this.nums[kind]! | bit;
  }
}
