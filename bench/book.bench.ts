/**
 * Order book hot paths: inserting, a realistic insert/cancel/IOC mix with deep queues, and the
 * L2 snapshot. Workloads are generated from a seed before timing; every command's events are
 * written into one `BookEvents` buffer, as the venue does, which is cleared after every
 * command, as a consumer would.
 */
import { OrderBook } from '../src/book/order-book.ts';
import type { PlaceCommand } from '../src/book/events.ts';
import { BookEvents } from '../src/book/book-events.ts';
import { RandomStream } from '../src/random/random-stream.ts';
import { alternatedPasses, findGc, type BenchCase } from './harness.ts';
import type { TypedReferenceBook } from './reference-book.ts';
import { externalCase } from './book-external.ts';
import { MID_TICKS, OWNERS, PASS_OPS, countTrades, emptyMix, generateMix, limitOrder, referenceBookFor, replayMix, replayMixOnReference } from './book-mix.ts';


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
      const note = bookNote(check, trades, `, ${misses} cancel misses, deepest bid level ${deepest} orders`);
      return floor === 'book.mix-reference' ? `${note}; ${pairedWithReference(mix, out)}` : note;
    },
  };
}

/** Alternated pairs for `book.mix`'s ratio to its floor (besides the fastest-pass ratio `run.ts` prints). */
const REFERENCE_PAIRS = 9;

/**
 * `book.mix` against its floor in passes alternated one by one in this process (the reference
 * first in even pairs, the book first in odd ones): each pair's ratio is the reference's CPU
 * time over the book's. The fastest-pass ratio compares the best of 5 passes of one case, run
 * after the other, with the best of 5 of the other: a quiet moment in either moves it (the
 * reference's own figure moves 8–11 M ops/s between runs of the same code). The median of
 * alternated pairs is the figure both see under the same load.
 */
function pairedWithReference(mix: ReturnType<typeof generateMix>, out: BookEvents): string {
  let ref: TypedReferenceBook | undefined;
  let book: OrderBook | undefined;
  const { a: refS, b: bookS } = alternatedPasses(
    REFERENCE_PAIRS,
    { fresh: () => void (ref = referenceBookFor(mix)), run: () => void replayMixOnReference(ref!, mix) },
    { fresh: () => void (book = new OrderBook()), run: () => void replayMix(book!, mix, out, false) },
    findGc(),
  );
  const ratios = refS.map((r, i) => r / bookS[i]!).sort((x, y) => x - y);
  const median = ratios[ratios.length >> 1]!;
  const bookRates = bookS.map((x) => PASS_OPS / x / 1e6);
  return `paired with book.mix-reference (CPU, ${REFERENCE_PAIRS} alternated pairs): ${ratios[0]!.toFixed(2)}–${ratios[ratios.length - 1]!.toFixed(2)}×, median ${median.toFixed(2)}× (target ≥ 0.7×); book ${Math.min(...bookRates).toFixed(1)}–${Math.max(...bookRates).toFixed(1)} M ops/s`;
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
