import type { OwnOrder, InFlightOrder } from './own-orders.ts';
import type { OwnOrderNote } from '../strategy/tick-feeds.ts';
import { removeAt } from '../core/arrays.ts';

/**
 * Orders, in-flight inserts and position of one symbol. Open orders in an array in acceptance
 * order (an agent has a few dozen at most: a search by engine id beats a map keyed by id text,
 * which also grew and shrank its table with every order).
 */
export interface SymbolBook {
  open: OwnOrder[];
  inFlight: InFlightOrder[];
  position: number;
  /**
   * The largest engine id ever added to `open` (-Infinity: none): an acceptance above it is of
   * an order not open, so it is appended without a search. Engine ids grow, so on a venue's
   * notes this is every acceptance.
   */
  maxSeq: number;
  /**
   * `open` holds engine ids only, strictly ascending (true while empty), so an order is found by
   * bisection; false once an order was added out of that order or without an engine id (the
   * wire-id path, a test's script), until `open` is empty again.
   */
  sorted: boolean;
}

/** A symbol's empty book. */
export function newSymbolBook(): SymbolBook {
  return { open: [], inFlight: [], position: 0, maxSeq: -Infinity, sorted: true };
}

/** `removeAt` on a book's open orders: an empty list is sorted again. */
export function removeOpen(b: SymbolBook, at: number): void {
  removeAt(b.open, at);
  if (b.open.length === 0) b.sorted = true;
}

/**
 * Position of the open order a note is about: by engine id where the port gives one (every
 * note of an in-process port does; by bisection while the ids ascend), else by wire id; -1
 * when it is not open (e.g. an IOC).
 */
export function indexOf(b: SymbolBook, note: OwnOrderNote): number {
  const open = b.open;
  const seq = note.seq;
  if (Number.isNaN(seq)) {
    for (let i = 0; i < open.length; i++) if (open[i]!.id === note.oid) return i;
  } else if (b.sorted) {
    let lo = 0;
    let hi = open.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = open[mid]!.seq;
      if (at === seq) return mid;
      if (at < seq) lo = mid + 1;
      else hi = mid - 1;
    }
  } else {
    for (let i = 0; i < open.length; i++) if (open[i]!.seq === seq) return i;
  }
  return -1;
}
