/**
 * The book benches' workloads and their replays, shared by `book.bench.ts` (the cases),
 * `venue.bench.ts` (the same mix through the venue), `book-passes.ts` and `venue-passes.ts`
 * (whole passes for before/after runs): the `book.mix` command mix from a seed, its replay on
 * `OrderBook` and on the floor `TypedReferenceBook`.
 */
import { BookEvents, EV_CANCEL_REJECTED, EV_TRADE } from '../src/book/book-events.ts';
import type { PlaceCommand } from '../src/book/events.ts';
import { OrderBook } from '../src/book/order-book.ts';
import { RandomStream } from '../src/random/random-stream.ts';
import { TypedReferenceBook } from './reference-book.ts';

export const MID_TICKS = 100_000;
export const OWNERS = 100;
export const PASS_OPS = 1_000_000;

/** A GTC limit order command. */
export function limitOrder(orderId: number, ownerId: number, buy: boolean, priceTicks: number, qtyLots: number): PlaceCommand {
  return { orderId, ownerId, side: buy ? 'B' : 'S', priceTicks, qtyLots, tif: 'GTC', postOnly: false };
}

/** Trades among the events of one command. */
export function countTrades(events: BookEvents): number {
  let n = 0;
  for (let i = 0; i < events.length; i++) if (events.kind(i) === EV_TRADE) n++;
  return n;
}

/** A command's kind in `MixWorkload.kinds`. */
export const KIND_INSERT = 0;
export const KIND_CANCEL = 1;
export const KIND_IOC = 2;

/** An empty reference book for the workload's price range. */
export function referenceBookFor(mix: MixWorkload): TypedReferenceBook {
  let minTicks = Infinity;
  let maxTicks = -Infinity;
  for (const p of mix.places) {
    if (p.priceTicks < minTicks) minTicks = p.priceTicks;
    if (p.priceTicks > maxTicks) maxTicks = p.priceTicks;
  }
  return new TypedReferenceBook(Math.min(minTicks, MID_TICKS), Math.max(maxTicks, MID_TICKS));
}

/** Runs the mix on the reference book; returns the cancel misses. */
export function replayMixOnReference(book: TypedReferenceBook, mix: MixWorkload): number {
  const { kinds, places, cancelIds } = mix;
  let misses = 0;
  let pi = 0;
  let ci = 0;
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i] === KIND_CANCEL) {
      if (!book.cancel(cancelIds[ci++]!)) misses++;
    } else {
      const cmd = places[pi++]!;
      book.place(cmd.orderId, cmd.side === 'B', cmd.priceTicks, cmd.qtyLots, cmd.tif === 'IOC');
    }
  }
  return misses;
}

/** The `book.mix` workload: command kinds in order, the orders placed, the ids canceled. */
export interface MixWorkload {
  /** `KIND_*` of each command. */
  kinds: Uint8Array;
  /** Inserts and IOC orders in command order; ids are 1, 2, 3, ... in this order. */
  places: PlaceCommand[];
  /** Order id of each cancel in command order (0: nothing placed yet, a miss). */
  cancelIds: Float64Array;
}

/** A workload of no commands (what a case holds once it released its own). */
export function emptyMix(): MixWorkload {
  return { kinds: new Uint8Array(0), places: [], cancelIds: new Float64Array(0) };
}

/**
 * The mix of `book.mix` (see there) from the stream `seed`, with owners drawn from 1..owners.
 * Also the workload of `venue.mix`, so the venue's cost shows against the bare book's.
 */
export function generateMix(seed: string, owners: number, ops = PASS_OPS): MixWorkload {
  const rng = new RandomStream(seed);
  const kinds = new Uint8Array(ops);
  const places: PlaceCommand[] = [];
  const cancels: number[] = [];
  // Ids of GTC orders placed and not yet chosen for a cancel; swap-removed when chosen.
  const live: number[] = [];
  let nextId = 1;
  for (let i = 0; i < ops; i++) {
    const r = rng.next();
    const buy = rng.chance(0.5);
    if (r < 0.6) {
      const k = rng.int(0, 49);
      const priceTicks = buy ? MID_TICKS + 2 - k : MID_TICKS - 2 + k;
      live.push(nextId);
      places.push(limitOrder(nextId++, rng.int(1, owners), buy, priceTicks, rng.int(1, 10)));
      kinds[i] = KIND_INSERT;
    } else if (r < 0.9) {
      kinds[i] = KIND_CANCEL;
      if (live.length === 0) {
        cancels.push(0); // nothing placed yet: a miss
        continue;
      }
      const at = rng.int(0, live.length - 1);
      cancels.push(live[at]!);
      live[at] = live[live.length - 1]!;
      live.pop();
    } else {
      const priceTicks = buy ? MID_TICKS + 60 : MID_TICKS - 60;
      places.push({ ...limitOrder(nextId++, rng.int(1, owners), buy, priceTicks, rng.int(1, 20)), tif: 'IOC' });
      kinds[i] = KIND_IOC;
    }
  }
  return { kinds, places, cancelIds: Float64Array.from(cancels) };
}

/** Runs the mix on `book`; counts trades and cancel misses only when asked (not when timed). */
export function replayMix(book: OrderBook, mix: MixWorkload, out: BookEvents, tally: boolean): { trades: number; misses: number } {
  const { kinds, places, cancelIds } = mix;
  let trades = 0;
  let misses = 0;
  let pi = 0;
  let ci = 0;
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i] === KIND_CANCEL) book.cancelInto(cancelIds[ci++]!, out);
    else book.placeInto(places[pi++]!, out);
    if (tally) {
      trades += countTrades(out);
      if (out.kind(0) === EV_CANCEL_REJECTED) misses++;
    }
    out.clear(); // the consumer has handled the events
  }
  return { trades, misses };
}


/** The mix on a fresh bare book, events consumed as the venue consumes them (the floor of `venue.mix`). */
export function replayOnFreshBook(mix: MixWorkload): void {
  replayMix(new OrderBook(), mix, new BookEvents(), false);
}
