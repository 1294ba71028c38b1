/**
 * Orders through the venue: the `book.mix` command mix (60% GTC inserts, 30% cancels, 10% IOC)
 * from 1,000 users, with every risk check on and a subscriber receiving every feed, against the
 * bare book on exactly the same commands, so the cost of the venue layer reads as a ratio.
 *
 * - `venue.mix`: one op = one `placeOrderSeq` or `cancelOrderSeq` call on a `Venue` (one
 *   BTCUSD-PERP market, tick 0.5, index 50,000 = the workload's mid of 100,000 ticks; users
 *   with 10^9 of cash each, so no order fails the margin check). Each pass starts from a fresh
 *   venue. The listener counts order events by type (`orderEvent`), trades and book changes:
 *   every event is described, no feed object is built (feeds are lazy, see order-events.ts).
 *   Its note ends with the ratio to the bare book in CPU time, from passes alternated untimed.
 * - `venue.mix-feeds`: the same by wire ids (`placeOrderTicks(…).id`, `cancelOrder(id)`) with
 *   a listener that builds every feed object, as a wire listener does (the old `venue.mix`).
 * - `venue.mix-book`: the same commands straight into an `OrderBook` (`book.mix`'s case with
 *   this workload).
 */
import { SimClock } from '../src/clock/sim-clock.ts';
import { parseMoney } from '../src/core/money.ts';
import type { Account } from '../src/venue/account.ts';
import type { OrderEvent } from '../src/venue/order-events.ts';
import type { Market } from '../src/venue/market.ts';
import { Venue } from '../src/venue/venue.ts';
import { mixCase } from './book.bench.ts';
import { KIND_CANCEL, PASS_OPS, generateMix, replayOnFreshBook, type MixWorkload } from './book-mix.ts';
import { cpuSeconds, type BenchCase } from './harness.ts';

const USERS = 1000;
/** 2024-01-01T00:00:00Z. */
const START_NS = 1_704_067_200n * 1_000_000_000n;
const SEED = 'bench/venue.mix';

/**
 * What the listener saw in one pass: order feeds by type, trades, book changes. It takes
 * order events (`orderEvent`: type and user, no feed object) unless `materialize`, when it
 * asks every event for its feed object as a wire listener would (`venue.mix-feeds`).
 */
class FeedCounter {
  /** Feeds by type, at the type letter's offset from 'a' (a count per event, no map lookup: the counting is the bench's, not the venue's). */
  readonly byType = new Float64Array(26);
  trades = 0;
  bookChanges = 0;
  constructor(private readonly materialize: boolean) {}
  orderEvent(e: OrderEvent): void {
    const t = this.materialize ? e.feed().t : e.t;
    this.byType[t.charCodeAt(0) - 97]!++;
  }
  trade(): void {
    this.trades++;
  }
  bookChanged(): void {
    this.bookChanges++;
  }
  describe(): string {
    const types: string[] = [];
    this.byType.forEach((n, i) => {
      if (n > 0) types.push(`${String.fromCharCode(97 + i)} ${n}`);
    });
    return `${this.trades} trades, ${this.bookChanges} book changes, feeds: ${types.join(', ')}`;
  }
}

export interface VenueRun {
  venue: Venue;
  market: Market;
  users: Account[];
  counter: FeedCounter;
}

export function freshVenue(materialize: boolean): VenueRun {
  const venue = new Venue(new SimClock(START_NS), { instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' }] });
  const cash = parseMoney('1000000000');
  const users: Account[] = [];
  for (let u = 1; u <= USERS; u++) users.push(venue.addUser(`user${u}`, cash));
  const counter = new FeedCounter(materialize);
  venue.subscribe(counter);
  return { venue, market: venue.markets[0]!, users, counter };
}

/** The mix, plus the owner of each cancel's order (looked up before timing). */
export interface VenueWorkload extends MixWorkload {
  cancelOwners: Int32Array;
}

export function venueWorkload(): VenueWorkload {
  const mix = generateMix(SEED, USERS);
  const cancelOwners = new Int32Array(mix.cancelIds.length);
  for (let c = 0; c < cancelOwners.length; c++) {
    const id = mix.cancelIds[c]!;
    cancelOwners[c] = id === 0 ? 1 : mix.places[id - 1]!.ownerId;
  }
  return { ...mix, cancelOwners };
}

/**
 * Sends the mix through the venue by engine id (`placeOrderSeq` / `cancelOrderSeq`, what an
 * in-process actor uses): `seqs[id]` keeps the engine id of the workload's order `id` so a
 * cancel can name it; a cancel names the order's owner.
 */
export function replayVenue(run: VenueRun, mix: VenueWorkload, seqs: Float64Array): void {
  const { venue, market, users } = run;
  const { kinds, places, cancelIds, cancelOwners } = mix;
  let pi = 0;
  let ci = 0;
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i] === KIND_CANCEL) {
      const owner = cancelOwners[ci]!;
      venue.cancelOrderSeq(users[owner - 1]!, seqs[cancelIds[ci++]!]!);
    } else {
      const p = places[pi++]!;
      seqs[p.orderId] = venue.placeOrderSeq(users[p.ownerId - 1]!, market, p.side, p.priceTicks, p.qtyLots, p.tif);
    }
  }
}

/** The same by wire id (`placeOrderTicks(…).id` / `cancelOrder`), what the wire's callers do. */
function replayVenueWireIds(run: VenueRun, mix: VenueWorkload, wireIds: string[]): void {
  const { venue, market, users } = run;
  const { kinds, places, cancelIds, cancelOwners } = mix;
  let pi = 0;
  let ci = 0;
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i] === KIND_CANCEL) {
      const owner = cancelOwners[ci]!;
      venue.cancelOrder(users[owner - 1]!, wireIds[cancelIds[ci++]!]!);
    } else {
      const p = places[pi++]!;
      wireIds[p.orderId] = venue.placeOrderTicks(users[p.ownerId - 1]!, market, p.side, p.priceTicks, p.qtyLots, p.tif).id;
    }
  }
}

/**
 * The ratio to the floor, measured in the same run: `PAIRS` passes of the venue variant and
 * of the bare book alternate (so both see the same load on the shared machine); each pair
 * gives venue orders/s ÷ book commands/s in CPU time. Prints the range over the pairs.
 */
function pairedRatio(mix: VenueWorkload, venuePass: () => number): string {
  const PAIRS = 3;
  const ratios: number[] = [];
  const venueRates: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    const venueS = venuePass();
    const bookS = cpuSeconds(() => replayOnFreshBook(mix));
    venueRates.push(PASS_OPS / venueS);
    ratios.push(bookS / venueS);
  }
  const range = (xs: number[], f: (x: number) => string) => `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;
  return `paired with the bare book (CPU, ${PAIRS} pairs): ${range(venueRates, (x) => (x / 1e6).toFixed(2))} M orders/s, ${range(ratios, (x) => x.toFixed(2))}× of the book (target ≥ 1.5 M and ≥ 0.33×)`;
}

/**
 * `venue.mix` (engine ids, order events counted without feed objects) or `venue.mix-feeds`
 * (wire ids, every feed object built, as before feeds were lazy).
 */
function venueMixCase(name: string, wire: boolean): BenchCase {
  let mix: VenueWorkload | undefined;
  let run: VenueRun | undefined;
  let seqs = new Float64Array(0);
  let wireIds: string[] = [];
  const pass = (r: VenueRun): void => (wire ? replayVenueWireIds(r, mix!, wireIds) : replayVenue(r, mix!, seqs));
  const fresh = (): void => {
    run = freshVenue(wire);
    seqs = new Float64Array(mix!.places.length + 1);
    wireIds = new Array<string>(mix!.places.length + 1).fill('');
  };
  return {
    name,
    unit: 'order',
    opsPerRun: PASS_OPS,
    iterations: 3,
    timeMs: 0,
    warmupIterations: 1,
    gcBetweenRuns: true,
    prepare() {
      mix = venueWorkload();
    },
    reset() {
      fresh();
    },
    run() {
      pass(run!);
    },
    release() {
      mix = undefined;
      seqs = new Float64Array(0);
      wireIds = [];
    },
    dispose() {
      run = undefined;
    },
    describe() {
      if (run === undefined) return '';
      const seen = `${run.market.book.orderCount} resting, ${run.counter.describe()}`;
      // The paired floor runs here, untimed, while the workload is still at hand.
      const paired = pairedRatio(mix!, () => {
        fresh();
        const r = run!;
        return cpuSeconds(() => pass(r));
      });
      return `${seen}; ${paired}`;
    },
  };
}

/** Every venue case, in run order: the bare book first, then the venue. */
export const venueCases = (): BenchCase[] => [mixCase('venue.mix-book', SEED, USERS), venueMixCase('venue.mix', false), venueMixCase('venue.mix-feeds', true)];
