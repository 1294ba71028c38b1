import type { OrderEvent, OrderFeedType } from './order-events.ts';
import { grown } from './undo-journal.ts';

/** Numbers per row of `OrderEventRows` (see `add`). */
export const ROW = 12;

/**
 * Order events waiting for their command to apply, as rows of numbers and texts (reused from
 * command to command: a kept event allocates nothing). The order flow writes a row straight
 * from what it knows (`add`, then `setReason` / `setOid` / `setFill` for what its type
 * carries); `OrderEvent.load` reads one back into the cursor listeners get.
 */
export class OrderEventRows {
  nums = new Float64Array(64 * ROW);
  readonly types: OrderFeedType[] = [];
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
    this.types[i] = t;
    n[o] = userId;
    n[o + 1] = slot;
    n[o + 2] = eid;
    n[o + 3] = ts;
    n[o + 4] = tn;
    n[o + 5] = 0;
    n[o + 6] = 0;
    n[o + 7] = 0;
    n[o + 8] = 0;
    n[o + 9] = filled;
    n[o + 10] = state;
    n[o + 11] = 0;
    return i;
  }

  /** `r` / `xr` and `txt` of row `i` (j, c, e). */
  setReason(i: number, reason: NonNullable<OrderEvent['reason']>, text: string): void {
    this.extras(i);
    this.reasons[i] = reason;
    this.texts[i] = text;
  }

  /** The order id an `e` row names: a wire id, or an engine id whose text is made only if read. */
  setOid(i: number, oid: string | number): void {
    this.extras(i);
    this.oids[i] = oid;
  }

  /** The fill of a p / f row. */
  setFill(i: number, tid: number, lots: number, priceTicks: number, aggressor: boolean): void {
    const n = this.nums;
    const o = i * ROW;
    n[o + 5] = tid;
    n[o + 6] = lots;
    n[o + 7] = priceTicks;
    n[o + 8] = aggressor ? 1 : 0;
  }

  clear(): void {
    this.length = 0;
  }

  /** Row `i` carries texts: cleared here once, read by `load` only then. */
  private extras(i: number): void {
    const flag = i * ROW + 11;
    if (this.nums[flag] === 1) return;
    this.nums[flag] = 1;
    this.reasons[i] = undefined;
    this.texts[i] = undefined;
    this.oids[i] = '';
  }
}
