/**
 * What a recorded level change costs the book: `book.external` sets recorded quantity through
 * `setExternalInto` (a per-level lot total); `book.external-orders`, its floor, applies the
 * same stream as one book order per recorded level on the order API (the design before:
 * `reduceInto` for a decrease, `raiseLast` or `placeInto` + `cancelInto` for an increase, as
 * `src/venue/external-liquidity.ts` did), with a dense price → id table that is cheaper than the
 * hash table the venue used, so its figure flatters the old design if anything.
 *
 * The stream is shaped like the BTCUSDT capture (`../shared/data/hftbacktest-binance-futures-raw`,
 * 443,521 depth-diff levels measured with a script over its sorted book): ~3,500 levels a side,
 * 59% changes of an existing level, 20% new levels, 18% removals, 4% removals of absent levels;
 * the rank of the level changed counted from the touch has median ~220, 10th percentile ~14,
 * 90th ~1,600 (log-normal here); lots 1–20,000 log-uniform. Both sides, never crossed. New
 * levels fall in gaps, so most (87%) refill a price emptied earlier in the stream (the
 * capture: 77% of its 87,573 new levels), which the book's empty levels left in place serve.
 */
import { BookEvents } from '../src/book/book-events.ts';
import { OrderBook } from '../src/book/order-book.ts';
import type { Side } from '../src/core/types.ts';
import { RandomStream } from '../src/random/random-stream.ts';
import type { BenchCase } from './harness.ts';

const MID_TICKS = 1_000_000;
const LEVELS_A_SIDE = 3_500;
const UPDATES = 500_000;
/** Initial levels sit at ~1 tick in 3 from the touch outwards (the capture's book has gaps). */
const SPACING = 3;

/** A stream of recorded level sets: side (0 bid, 1 ask), price, new absolute lots. */
export interface LevelStream {
  /** The starting book, then the timed updates, in the same columns. */
  snapshot: number;
  side: Uint8Array;
  priceTicks: Float64Array;
  qtyLots: Float64Array;
}

/** Generates the stream against a model of both sides (keys ascending, best last). */
export function generateLevelStream(seed: string, updates = UPDATES): LevelStream {
  const rng = new RandomStream(seed);
  const sides: { keys: number[]; lots: Map<number, number> }[] = [0, 1].map(() => ({ keys: [], lots: new Map() }));
  const side: number[] = [];
  const price: number[] = [];
  const qty: number[] = [];
  const lotsOf = (): number => Math.max(1, Math.round(Math.exp(rng.next() * Math.log(20_000))));
  const emit = (s: number, key: number, lots: number): void => {
    side.push(s);
    price.push(s === 0 ? key : -key);
    qty.push(lots);
  };
  for (let s = 0; s < 2; s++) {
    for (let i = LEVELS_A_SIDE - 1; i >= 0; i--) {
      const key = (s === 0 ? MID_TICKS - 1 : -(MID_TICKS + 1)) - i * SPACING;
      sides[s]!.keys.push(key);
      sides[s]!.lots.set(key, lotsOf());
      emit(s, key, sides[s]!.lots.get(key)!);
    }
  }
  const snapshot = side.length;
  // The rank from the touch: log-normal with the capture's median and spread, within the book.
  const rankOf = (n: number): number => {
    const normal = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
    return Math.min(n - 1, Math.floor(Math.exp(Math.log(223) + 1.545 * normal)));
  };
  for (let u = 0; u < updates; u++) {
    const s = rng.chance(0.5) ? 0 : 1;
    const { keys, lots } = sides[s]!;
    const r = rng.next();
    const at = keys.length - 1 - rankOf(keys.length);
    const key = keys[at]!;
    if (r < 0.59) {
      const now = lots.get(key)!;
      let next = lotsOf();
      if (next === now) next++;
      lots.set(key, next);
      emit(s, key, next);
    } else if (r < 0.97 && rng.chance(keys.length < LEVELS_A_SIDE ? 0.55 : 0.45)) {
      // A new level in the first gap above the chosen one (below the opposite touch at the best).
      const other = sides[1 - s]!.keys;
      const touch = -other[other.length - 1]!;
      let below = at;
      while (below < keys.length - 1 && keys[below + 1]! - keys[below]! < 2) below++;
      const bound = below === keys.length - 1 ? touch : keys[below + 1]!;
      if (bound - keys[below]! < 2) {
        lots.set(key, lots.get(key)! + 1); // no room up to the touch: a change instead
        emit(s, key, lots.get(key)!);
        continue;
      }
      const fresh = keys[below]! + rng.int(1, bound - keys[below]! - 1);
      keys.splice(below + 1, 0, fresh);
      lots.set(fresh, lotsOf());
      emit(s, fresh, lots.get(fresh)!);
    } else if (r < 0.97) {
      // A removal (as many as new levels, leaning to keep ~3,500 a side).
      keys.splice(at, 1);
      lots.delete(key);
      emit(s, key, 0);
    } else {
      emit(s, keys[0]! - 1 - rng.int(0, 100), 0); // beyond the worst level: absent
    }
  }
  return { snapshot, side: Uint8Array.from(side), priceTicks: Float64Array.from(price), qtyLots: Float64Array.from(qty) };
}

/**
 * Recorded levels as one book order each (the design before `setExternalInto`): a level's
 * order id in a dense table by price, re-queued under a new id on an increase.
 */
export class OrderPerLevel {
  readonly book = new OrderBook();
  private readonly ids: Float64Array;
  private nextId = 2 ** 30;
  private readonly out = new BookEvents();

  constructor(
    private readonly minTicks: number,
    maxTicks: number,
  ) {
    this.ids = new Float64Array(2 * (maxTicks - minTicks + 1)).fill(-1);
  }

  set(side: Side, priceTicks: number, qtyLots: number): void {
    const slot = 2 * (priceTicks - this.minTicks) + (side === 'B' ? 0 : 1);
    const id = this.ids[slot]!;
    const book = this.book;
    const out = this.out;
    const shown = id < 0 ? 0 : book.openLots(id);
    out.clear();
    if (qtyLots < shown) {
      book.reduceInto(id, shown - qtyLots, out);
      if (qtyLots === 0) this.ids[slot] = -1;
    } else if (qtyLots > shown) {
      const newId = this.nextId++;
      if (shown > 0 && book.raiseLast(id, newId, qtyLots)) {
        this.ids[slot] = newId;
        return;
      }
      book.placeInto({ orderId: newId, ownerId: -1, side, priceTicks, qtyLots, tif: 'GTC', postOnly: false }, out);
      if (shown > 0) book.cancelInto(id, out);
      this.ids[slot] = newId;
    }
  }
}

function priceRange(stream: LevelStream): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const p of stream.priceTicks) {
    if (p < min) min = p;
    if (p > max) max = p;
  }
  return [min, max];
}

const sideOf = (code: number): Side => (code === 0 ? 'B' : 'S');

/** `book.external` (`orders` false) or its floor `book.external-orders` (`orders` true). */
export function externalCase(orders: boolean): BenchCase {
  let stream: LevelStream | undefined;
  let book: OrderBook | undefined;
  let perLevel: OrderPerLevel | undefined;
  let nextId = 2 ** 30;
  const out = new BookEvents();
  const apply = (from: number, to: number): void => {
    const { side, priceTicks, qtyLots } = stream!;
    if (orders) {
      const p = perLevel!;
      for (let i = from; i < to; i++) p.set(sideOf(side[i]!), priceTicks[i]!, qtyLots[i]!);
      return;
    }
    const b = book!;
    for (let i = from; i < to; i++) {
      b.setExternalInto(sideOf(side[i]!), priceTicks[i]!, qtyLots[i]!, nextId++, out);
      out.clear();
    }
  };
  return {
    name: orders ? 'book.external-orders' : 'book.external',
    floor: orders ? undefined : 'book.external-orders',
    unit: 'level',
    opsPerRun: UPDATES,
    iterations: 5,
    timeMs: 0,
    warmupIterations: 2,
    gcBetweenRuns: true,
    prepare() {
      stream = generateLevelStream('bench/book.external');
    },
    reset() {
      // The starting book is built here, untimed, before the harness collects garbage.
      const [min, max] = priceRange(stream!);
      if (orders) perLevel = new OrderPerLevel(min, max);
      else book = new OrderBook();
      apply(0, stream!.snapshot);
    },
    run() {
      apply(stream!.snapshot, stream!.side.length);
    },
    release() {
      stream = undefined;
    },
    dispose() {
      book = undefined;
      perLevel = undefined;
    },
    describe() {
      const b = orders ? perLevel?.book : book;
      if (b === undefined) return '';
      return `${b.depthOf('B')}/${b.depthOf('S')} levels, touch ${b.bestBidTicks()}/${b.bestAskTicks()}, ${b.orderCount} orders`;
    },
  };
}
