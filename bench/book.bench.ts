/**
 * Order book hot paths: inserting, a realistic insert/cancel/IOC mix with deep queues, and the
 * L2 snapshot. Workloads are generated from a seed before timing; every command's events are
 * written into one `BookEvents` buffer, as the venue does, which is cleared after every
 * command, as a consumer would.
 */
import { OrderBook } from '../src/book/order-book.ts';
import type { PlaceCommand } from '../src/book/events.ts';
import { BookEvents, EV_CANCEL_REJECTED, EV_TRADE } from '../src/book/book-events.ts';
import { RandomStream } from '../src/random/random-stream.ts';
import type { BenchCase } from './harness.ts';
import { TypedReferenceBook } from './reference-book.ts';
import { externalCase } from './book-external.ts';

export const MID_TICKS = 100_000;
export const OWNERS = 100;
export const PASS_OPS = 1_000_000;

function limitOrder(orderId: number, ownerId: number, buy: boolean, priceTicks: number, qtyLots: number): PlaceCommand {
  return { orderId, ownerId, side: buy ? 'B' : 'S', priceTicks, qtyLots, tif: 'GTC', postOnly: false };
}

/** Resting orders, trades and the touch, for the one-line sanity note. */
function bookNote(book: OrderBook | undefined, traded: number, extra = ''): string {
  if (book === undefined) return '';
  const bid = book.bestBidTicks() ?? '-';
  const ask = book.bestAskTicks() ?? '-';
  return `${book.orderCount} resting, ${traded} trades, touch ${bid}/${ask}${extra}`;
}

/**
 * `book.insert`: 1,000,000 GTC limit orders, both sides, prices uniform within ±50 ticks of a
 * fixed mid, sizes 1–10; orders that cross the touch match on arrival.
 */
export function insertCase(): BenchCase {
  let cmds: PlaceCommand[] = [];
  let book: OrderBook | undefined;
  const out = new BookEvents();
  return {
    name: 'book.insert',
    unit: 'order',
    opsPerRun: PASS_OPS,
    iterations: 5,
    timeMs: 0,
    warmupIterations: 2,
    gcBetweenRuns: true,
    prepare() {
      const rng = new RandomStream('bench/book.insert');
      cmds = new Array<PlaceCommand>(PASS_OPS);
      for (let i = 0; i < PASS_OPS; i++) {
        const buy = rng.chance(0.5);
        cmds[i] = limitOrder(i + 1, rng.int(1, OWNERS), buy, MID_TICKS + rng.int(-50, 50), rng.int(1, 10));
      }
    },
    reset() {
      book = new OrderBook();
    },
    run() {
      const b = book!;
      const list = cmds;
      for (let i = 0; i < list.length; i++) {
        b.placeInto(list[i]!, out);
        out.clear(); // the consumer has handled the events
      }
    },
    release() {
      cmds = [];
    },
    dispose() {
      book = undefined;
    },
    describe() {
      // An untimed replay that looks at the events, to show the workload is what it claims.
      const check = new OrderBook();
      let trades = 0;
      let crossed = 0;
      for (const cmd of cmds) {
        check.placeInto(cmd, out);
        const n = countTrades(out);
        if (n > 0) crossed++;
        trades += n;
        out.clear();
      }
      return bookNote(check, trades, `, ${((crossed / PASS_OPS) * 100).toFixed(0)}% matched on arrival`);
    },
  };
}

function countTrades(events: BookEvents): number {
  let n = 0;
  for (let i = 0; i < events.length; i++) if (events.kind(i) === EV_TRADE) n++;
  return n;
}

export const KIND_INSERT = 0;
export const KIND_CANCEL = 1;
export const KIND_IOC = 2;

/**
 * `book.mix`: 1,000,000 operations around a fixed mid. 60% GTC inserts 0–49 ticks behind the
 * mid on their own side with a 2-tick overlap band (a buy at mid+2-k, a sell at mid-2+k, k in
 * 0..49, so some cross), 30% cancels of a random earlier order not yet canceled (it may have
 * been filled: a miss), 10% aggressive IOC orders of 1–20 lots. Queues grow to thousands of
 * orders per level, so cancels deep inside a queue are the norm. Also `venue.mix-book`: the
 * `venue.mix` commands (another seed, more owners) on the bare book.
 */
export function mixCase(name = 'book.mix', seed = 'bench/book.mix', owners = OWNERS, floor?: string): BenchCase {
  let mix = emptyMix();
  let book: OrderBook | undefined;
  const out = new BookEvents();
  return {
    name,
    floor,
    unit: 'op',
    opsPerRun: PASS_OPS,
    iterations: 5,
    timeMs: 0,
    warmupIterations: 2,
    gcBetweenRuns: true,
    prepare() {
      mix = generateMix(seed, owners);
    },
    reset() {
      book = new OrderBook();
    },
    run() {
      replayMix(book!, mix, out, false);
    },
    release() {
      mix = emptyMix();
    },
    dispose() {
      book = undefined;
    },
    describe() {
      // An untimed replay that looks at the events, to show the workload is what it claims.
      const check = new OrderBook();
      const { trades, misses } = replayMix(check, mix, out, true);
      let deepest = 0;
      for (const level of check.l3().bids) deepest = Math.max(deepest, level.orders.length);
      return bookNote(check, trades, `, ${misses} cancel misses, deepest bid level ${deepest} orders`);
    },
  };
}

/**
 * `book.mix-reference`: the `book.mix` commands on `TypedReferenceBook`, the floor `book.mix`
 * is measured against (see `reference-book.ts`). Same command loop, same command objects.
 */
export function mixReferenceCase(): BenchCase {
  let mix = emptyMix();
  let book: TypedReferenceBook | undefined;
  return {
    name: 'book.mix-reference',
    unit: 'op',
    opsPerRun: PASS_OPS,
    iterations: 5,
    timeMs: 0,
    warmupIterations: 2,
    gcBetweenRuns: true,
    prepare() {
      mix = generateMix('bench/book.mix', OWNERS);
    },
    reset() {
      book = referenceBookFor(mix);
    },
    run() {
      replayMixOnReference(book!, mix);
    },
    release() {
      mix = emptyMix();
    },
    dispose() {
      book = undefined;
    },
    describe() {
      const check = referenceBookFor(mix);
      const misses = replayMixOnReference(check, mix);
      return `${check.resting} resting, ${check.trades} trades, ${misses} cancel misses`;
    },
  };
}

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

function emptyMix(): MixWorkload {
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
function replayMix(book: OrderBook, mix: MixWorkload, out: BookEvents, tally: boolean): { trades: number; misses: number } {
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

/** `book.l2-snapshot`: one `l2()` call on a book of 1,000 levels (500 a side, 1–5 orders each). */
export function l2SnapshotCase(): BenchCase {
  let book: OrderBook | undefined;
  let levels = 0;
  return {
    name: 'book.l2-snapshot',
    unit: 'call',
    opsPerRun: 1,
    iterations: 64,
    timeMs: 1000,
    warmupIterations: 200,
    gcBetweenRuns: false,
    prepare() {
      const rng = new RandomStream('bench/book.l2-snapshot');
      book = new OrderBook();
      const out = new BookEvents();
      let id = 1;
      for (let i = 0; i < 500; i++) {
        for (const buy of [true, false]) {
          const priceTicks = buy ? MID_TICKS - 1 - i : MID_TICKS + 1 + i;
          const orders = rng.int(1, 5);
          for (let o = 0; o < orders; o++) {
            book.placeInto(limitOrder(id++, rng.int(1, OWNERS), buy, priceTicks, rng.int(1, 10)), out);
            out.clear();
          }
        }
      }
    },
    reset() {},
    run() {
      levels = book!.l2().bids.length;
    },
    release() {},
    dispose() {
      book = undefined;
    },
    describe() {
      return `${book?.orderCount ?? 0} resting orders, ${levels} bid levels per snapshot`;
    },
  };
}

/** Every book case, in run order. */
export const bookCases = (): BenchCase[] => [
  insertCase(),
  mixReferenceCase(),
  mixCase('book.mix', 'bench/book.mix', OWNERS, 'book.mix-reference'),
  l2SnapshotCase(),
  externalCase(true),
  externalCase(false),
];
