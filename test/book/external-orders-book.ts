import { BookEvents, EV_RESTED } from '../../src/book/book-events.ts';
import type { OrderBookOptions } from '../../src/book/order-book.ts';
import { OrderBook } from '../../src/book/order-book.ts';
import type { Side } from '../../src/core/types.ts';

/**
 * The oracle of recorded liquidity: the design before per-level lot totals, one book order per
 * recorded level, as `src/venue/external-liquidity.ts` kept it (its `setLevel` and `raise` for
 * one level, without removing crossed opposite levels, which stays the caller's job): a
 * decrease reduces the order in place, an increase re-queues it at the back under a new id (in
 * place with `raiseLast` when it is last), a new level places it as a GTC order that may trade
 * with the account orders it crosses, 0 removes it. Only plain orders on a plain `OrderBook`.
 */
export class ExternalOrdersBook {
  readonly book: OrderBook;
  /** Book id of the recorded level's order, by side and price. */
  private readonly ids = new Map<string, number>();
  private readonly scratch = new BookEvents();

  constructor(
    options: OrderBookOptions,
    private readonly externalOwner: number,
  ) {
    this.book = new OrderBook(options);
  }

  externalLots(side: Side, priceTicks: number): number {
    const id = this.ids.get(side + priceTicks);
    return id === undefined ? 0 : this.book.openLots(id);
  }

  /** The number of recorded levels with an order on the book. */
  externalLevels(): number {
    let n = 0;
    for (const id of this.ids.values()) if (this.book.has(id)) n++;
    return n;
  }

  /** Sets the recorded level; its trades (and only its trades' kinds matter) go to `out`. */
  setExternalInto(side: Side, priceTicks: number, qtyLots: number, newId: number, out: BookEvents): void {
    const key = side + priceTicks;
    const id = this.ids.get(key);
    const shown = id === undefined ? 0 : this.book.openLots(id);
    if (qtyLots < shown) {
      this.book.reduceInto(id!, shown - qtyLots, out);
      if (qtyLots === 0) this.ids.delete(key);
      return;
    }
    if (qtyLots === shown) return;
    if (id !== undefined && shown > 0 && this.book.raiseLast(id, newId, qtyLots)) {
      this.ids.set(key, newId);
      return;
    }
    const start = out.length;
    this.book.placeInto({ orderId: newId, ownerId: this.externalOwner, side, priceTicks, qtyLots, tif: 'GTC', postOnly: false }, out);
    let rested = false;
    for (let e = start; e < out.length; e++) if (out.kind(e) === EV_RESTED) rested = true;
    if (id !== undefined && shown > 0) this.book.cancelInto(id, out);
    if (rested) this.ids.set(key, newId);
    else this.ids.delete(key);
  }

  /** A scratch buffer, cleared. */
  cleared(): BookEvents {
    this.scratch.clear();
    return this.scratch;
  }
}
