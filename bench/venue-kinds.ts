/**
 * Where `venue.mix`'s time goes, per command kind (bench/README "round 12"): the same commands
 * through a fresh `Venue` (as `venue.mix` sets it up: 1,000 users, every risk check on, the
 * counting listener) and through a bare `OrderBook`, kind by kind, in CPU ns per command:
 *
 * - `rest`: GTC orders 10–59 ticks behind the mid on their own side (the book never crosses),
 * - `ioc-miss`: IOC orders priced at the mid (the other side starts 10 ticks away: no fill),
 * - `cross-fill`: 1-lot GTC orders priced through the touch (one trade each, the taker filled,
 *   the maker filled or partly filled),
 * - `cancel`: cancels of resting orders in a random order,
 * - `sweep`: IOC orders at ±60 ticks of 10–40 lots, each taking several resting orders (3–10
 *   makers of 1–10 lots: what `venue.mix`'s IOCs do); the phase prints its trades per command,
 *   so that (sweep − cross-fill) / (trades per sweep − 1) is what each added trade of a sweep costs.
 *
 * Bundle it with esbuild like `venue-passes.ts`; usage: node --expose-gc bundle.mjs [passes=4] [kinds,…].
 * Prints each kind's ns per command, venue and book, fastest pass after the first.
 */
import { BookEvents } from '../src/book/book-events.ts';
import type { PlaceCommand } from '../src/book/events.ts';
import { OrderBook } from '../src/book/order-book.ts';
import { RandomStream } from '../src/random/random-stream.ts';
import { MID_TICKS } from './book-mix.ts';
import { cpuSeconds } from './harness.ts';
import { freshVenue, type VenueRun } from './venue.bench.ts';

const RESTS = 200_000;
const IOCS = 100_000;
const CROSSES = 100_000;
const CANCELS = 100_000;
/** Few enough that the book they sweep (what the rests left, after the crosses and cancels) stays deep. */
const SWEEPS = 10_000;
const USERS = 1000;

interface Phase {
  name: string;
  /** Places (ids 1, 2, … in the order of all phases' places) or cancels (`cancelIds`). */
  places: PlaceCommand[];
  cancelIds: number[];
}

function workload(): Phase[] {
  const rng = new RandomStream('bench/venue.kinds');
  let nextId = 1;
  const order = (buy: boolean, priceTicks: number, qtyLots: number, ioc: boolean): PlaceCommand => ({
    orderId: nextId++, ownerId: rng.int(1, USERS), side: buy ? 'B' : 'S', priceTicks, qtyLots, tif: ioc ? 'IOC' : 'GTC', postOnly: false,
  });
  const rest: PlaceCommand[] = [];
  for (let i = 0; i < RESTS; i++) {
    const buy = rng.chance(0.5);
    const k = rng.int(10, 59);
    rest.push(order(buy, buy ? MID_TICKS - k : MID_TICKS + k, rng.int(1, 10), false));
  }
  const ioc: PlaceCommand[] = [];
  for (let i = 0; i < IOCS; i++) ioc.push(order(rng.chance(0.5), MID_TICKS, rng.int(1, 10), true));
  const cross: PlaceCommand[] = [];
  for (let i = 0; i < CROSSES; i++) {
    const buy = rng.chance(0.5);
    cross.push(order(buy, buy ? MID_TICKS + 60 : MID_TICKS - 60, 1, false));
  }
  // Cancel a random choice of the resting orders (some were filled by the crosses: misses).
  const ids = rest.map((p) => p.orderId);
  const cancelIds: number[] = [];
  for (let i = 0; i < CANCELS; i++) {
    const at = rng.int(i, ids.length - 1);
    [ids[i], ids[at]] = [ids[at]!, ids[i]!];
    cancelIds.push(ids[i]!);
  }
  // A stream of its own: the other kinds' commands stay those of the rounds before it.
  const sweepRng = new RandomStream('bench/venue.kinds.sweep');
  const sweep: PlaceCommand[] = [];
  for (let i = 0; i < SWEEPS; i++) {
    const buy = sweepRng.chance(0.5);
    sweep.push({ orderId: nextId++, ownerId: sweepRng.int(1, USERS), side: buy ? 'B' : 'S', priceTicks: buy ? MID_TICKS + 60 : MID_TICKS - 60, qtyLots: sweepRng.int(10, 40), tif: 'IOC', postOnly: false });
  }
  return [
    { name: 'rest', places: rest, cancelIds: [] },
    { name: 'ioc-miss', places: ioc, cancelIds: [] },
    { name: 'cross-fill', places: cross, cancelIds: [] },
    { name: 'cancel', places: [], cancelIds },
    { name: 'sweep', places: sweep, cancelIds: [] },
  ];
}

function venuePhase(run: VenueRun, phase: Phase, seqs: Float64Array, owners: Int32Array, trades: number[]): number {
  const { venue, market, users } = run;
  const tradesBefore = run.counter.trades;
  const s = cpuSeconds(() => {
    for (const p of phase.places) seqs[p.orderId] = venue.placeOrderSeq(users[p.ownerId - 1]!, market, p.side, p.priceTicks, p.qtyLots, p.tif);
    const ids = phase.cancelIds;
    for (let i = 0; i < ids.length; i++) venue.cancelOrderSeq(users[owners[ids[i]!]! - 1]!, seqs[ids[i]!]!);
  });
  trades.push(run.counter.trades - tradesBefore);
  return s;
}

function bookPhase(book: OrderBook, phase: Phase, out: BookEvents): number {
  return cpuSeconds(() => {
    for (const p of phase.places) {
      book.placeInto(p, out);
      out.clear();
    }
    const ids = phase.cancelIds;
    for (let i = 0; i < ids.length; i++) {
      book.cancelInto(ids[i]!, out);
      out.clear();
    }
  });
}

const passes = Number(process.argv[2] ?? 4);
/** Optional: only the kinds named (comma-separated) are timed, e.g. `rest,cancel` for a profile of those. */
const only = process.argv[3]?.split(',');
const phases = workload().filter((ph) => only === undefined || only.includes(ph.name));
const owners = new Int32Array(RESTS + IOCS + CROSSES + SWEEPS + 1);
for (const ph of workload()) for (const p of ph.places) owners[p.orderId] = p.ownerId;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const venueS = phases.map(() => [] as number[]);
const bookS = phases.map(() => [] as number[]);
const tradesOf = phases.map(() => [] as number[]);
for (let pass = 0; pass < passes; pass++) {
  const run = freshVenue(false);
  const seqs = new Float64Array(owners.length);
  gc();
  phases.forEach((ph, i) => venueS[i]!.push(venuePhase(run, ph, seqs, owners, tradesOf[i]!)));
  const book = new OrderBook();
  const out = new BookEvents();
  gc();
  phases.forEach((ph, i) => bookS[i]!.push(bookPhase(book, ph, out)));
}
const best = (xs: number[]) => Math.min(...(xs.length > 1 ? xs.slice(1) : xs));
console.log('kind        venue ns  book ns  venue-book ns  trades/command');
phases.forEach((ph, i) => {
  const n = ph.places.length + ph.cancelIds.length;
  const v = (best(venueS[i]!) / n) * 1e9;
  const b = (best(bookS[i]!) / n) * 1e9;
  const t = tradesOf[i]!.at(-1)! / n;
  console.log(`${ph.name.padEnd(11)} ${v.toFixed(0).padStart(8)} ${b.toFixed(0).padStart(8)} ${(v - b).toFixed(0).padStart(14)} ${t.toFixed(2).padStart(15)}`);
});
