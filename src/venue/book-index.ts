import { IdIndex, type OrderIndex } from '../book/id-index.ts';
import { F_BOOK_REF, F_MARKET, NO_SLOT, STRIDE } from './order-record.ts';
import type { OrderStore } from './order-store.ts';

/**
 * A market's book finds its orders through the venue's own index (one index, not two): order id
 * (the engine id) → the order's slot in the `OrderStore` (`SeqIndex`) → the book's record,
 * kept in the order's record (`F_BOOK_REF`). Why: with the book keeping an `IdIndex` of its own,
 * a cancel probed two tables of hundreds of thousands of cells (the venue's for the order, the
 * book's to take it off), each a cache miss, and so did every filled maker; here the book's
 * probe meets the cell and the record the venue's own lookup just brought in (or brings them in
 * for the venue's lookup that follows). The book adds and takes exactly its resting orders, so
 * `F_BOOK_REF` is non-zero exactly while an order rests; the undo of a failed command puts the
 * book back through `cancelInto` / `placeInto`, which keep it so.
 *
 * Ids the venue never gave (no order has them: the book API's own callers, such as the oracle of
 * recorded liquidity that rests one book order per recorded level) go to an `IdIndex` of their
 * own, made on first use, so the book keeps its behaviour for any id.
 */
export class VenueBookIndex implements OrderIndex {
  /** Number of orders resting on the book (the venue's and others). */
  size = 0;
  /** Ids no venue order has, with their records. */
  private others: IdIndex | null = null;

  constructor(
    private readonly store: OrderStore,
    private readonly marketIndex: number,
  ) {}

  get(id: number): number {
    const slot = this.store.bySeq.get(id);
    if (slot === NO_SLOT) return this.others === null ? NO_SLOT : this.others.get(id);
    const d = this.store.data;
    const o = slot * STRIDE;
    const ref = d[o + F_BOOK_REF]!;
    return ref > 0 && d[o + F_MARKET] === this.marketIndex ? ref : NO_SLOT;
  }

  absent(id: number): boolean {
    const slot = this.store.bySeq.get(id);
    if (slot === NO_SLOT) return this.others === null || this.others.get(id) === NO_SLOT;
    const d = this.store.data;
    const o = slot * STRIDE;
    return !(d[o + F_BOOK_REF]! > 0 && d[o + F_MARKET] === this.marketIndex);
  }

  add(id: number, ref: number): void {
    const slot = this.store.bySeq.get(id);
    if (slot === NO_SLOT) (this.others ??= new IdIndex()).add(id, ref);
    else if (this.store.data[slot * STRIDE + F_MARKET] === this.marketIndex) this.store.data[slot * STRIDE + F_BOOK_REF] = ref;
    else throw new RangeError(`order ${id} is an order of another market than ${this.marketIndex}`);
    this.size++;
  }

  take(id: number): number {
    const slot = this.store.bySeq.get(id);
    if (slot === NO_SLOT) return this.others === null ? NO_SLOT : this.takeOther(id);
    const d = this.store.data;
    const o = slot * STRIDE;
    const ref = d[o + F_BOOK_REF]!;
    if (ref <= 0 || d[o + F_MARKET] !== this.marketIndex) return NO_SLOT;
    d[o + F_BOOK_REF] = 0;
    this.size--;
    return ref;
  }

  private takeOther(id: number): number {
    const ref = this.others!.take(id);
    if (ref !== NO_SLOT) this.size--;
    return ref;
  }
}
