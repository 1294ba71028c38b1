import fc from 'fast-check';
import { BookEvents } from '../../src/book/book-events.ts';
import type { OrderBook } from '../../src/book/order-book.ts';
import type { Side } from '../../src/core/types.ts';

/**
 * Random commands on a bare book for the tests whose oracle reads the book's sides in full
 * (`event-log-book-tops`, `sent-books-top`): bids from 110 down and asks from 100 up, so orders
 * cross often, with cancels and reductions of orders placed earlier.
 */
export type BookStep = { k: 'place'; side: Side; offset: number; qty: number; tif: 'GTC' | 'IOC' } | { k: 'cancel' | 'reduce'; which: number; lots: number };

const side = fc.constantFrom<Side>('B', 'S');

/** A place up to `maxOffset` ticks from 110 (a bid) or 100 (an ask): up to `maxOffset + 1` levels a side. */
export const placeStep = (maxOffset: number): fc.Arbitrary<BookStep> =>
  fc.record({ k: fc.constant('place' as const), side, offset: fc.integer({ min: 0, max: maxOffset }), qty: fc.integer({ min: 1, max: 6 }), tif: fc.constantFrom('GTC' as const, 'IOC' as const) });

/** A cancel or a reduction of one of the orders placed so far (`which` modulo their count). */
export const takeStep: fc.Arbitrary<BookStep> = fc.record({ k: fc.constantFrom('cancel' as const, 'reduce' as const), which: fc.nat(), lots: fc.integer({ min: 1, max: 6 }) });

/** Runs `s` on `book`; `ids` keeps the orders placed, `next` the next order id. */
export function applyStep(book: OrderBook, s: BookStep, ids: number[], next: { id: number }): void {
  const out = new BookEvents();
  if (s.k === 'place') {
    const orderId = next.id++;
    book.placeInto({ orderId, ownerId: 1 + (orderId % 3), side: s.side, priceTicks: s.side === 'B' ? 110 - s.offset : 100 + s.offset, qtyLots: s.qty, tif: s.tif, postOnly: false }, out);
    ids.push(orderId);
  } else if (ids.length > 0) {
    const id = ids[s.which % ids.length]!;
    if (s.k === 'cancel') book.cancelInto(id, out);
    else book.reduceInto(id, s.lots, out);
  }
}
