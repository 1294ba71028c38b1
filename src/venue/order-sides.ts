import type { Money } from '../core/money.ts';

/**
 * What a few orders keep beside their record, by slot: Money reserved past the record's
 * numbers, cached wire id and price texts, the view handed out. The arrays reach only as far
 * as the highest slot that ever used one (`reach`): most orders never do (an in-process actor
 * by engine id reads no text), and growing four arrays with every new slot was ~20 MB of
 * garbage per `venue.mix` pass (a fresh venue grows to ~200k slots). A cell past the end
 * reads as empty; `OrderStore` writes through `reach` and reads only flagged slots.
 */
export class OrderSides {
  /** Initial margin reserved by the slot's open remainder, for orders flagged `B_IM_BIG`. */
  readonly reservedIm: Money[] = [];
  /** Wire id text, '' until first read. */
  readonly idText: string[] = [];
  /** Price text, '' until first read. */
  readonly priceText: string[] = [];
  /** Snapshot holders (see order-view.ts); detached before a slot is reused. */
  readonly views: ({ detach(): void } | undefined)[] = [];

  /** Makes every array hold a cell for `slot` (empty cells up to it: they stay packed). */
  reach(slot: number): void {
    while (this.idText.length <= slot) {
      this.reservedIm.push(0n);
      this.idText.push('');
      this.priceText.push('');
      this.views.push(undefined);
    }
  }

  /** Empties the cells of `slot` (a view takes its copy first). */
  clear(slot: number): void {
    if (slot >= this.idText.length) return;
    const view = this.views[slot];
    if (view !== undefined) {
      view.detach();
      this.views[slot] = undefined;
    }
    this.idText[slot] = '';
    this.priceText[slot] = '';
    this.reservedIm[slot] = 0n;
  }

  /** Drops the cells of the store's last slot, `slot`, when it is given back (`undoAllocations` giving back a fresh slot). */
  dropLast(slot: number): void {
    if (this.idText.length !== slot + 1) return;
    this.reservedIm.pop();
    this.idText.pop();
    this.priceText.pop();
    this.views.pop();
  }
}
