/**
 * Orders through the venue: the `book.mix` command mix (60% GTC inserts, 30% cancels, 10% IOC)
 * from 1,000 users, with every risk check on and a subscriber receiving every feed, against the
 * bare book on exactly the same commands, so the cost of the venue layer reads as a ratio.
 *
 * - `venue.mix`: one op = one `placeOrderTicks` or `cancelOrder` call on a `Venue` (one
 *   BTCUSD-PERP market, tick 0.5, index 50,000 = the workload's mid of 100,000 ticks; users
 *   with 10^9 of cash each, so no order fails the margin check). Each pass starts from a fresh
 *   venue. The listener counts order feeds, trades and book changes, so every feed is built.
 * - `venue.mix-book`: the same commands straight into an `OrderBook` (`book.mix`'s case with
 *   this workload).
 */
import { SimClock } from '../src/clock/sim-clock.ts';
import { parseMoney } from '../src/core/money.ts';
import type { Account } from '../src/venue/account.ts';
import type { OrderFeed } from '../src/wire/order.ts';
import type { Market } from '../src/venue/market.ts';
import { Venue } from '../src/venue/venue.ts';
import { KIND_CANCEL, PASS_OPS, generateMix, mixCase, type MixWorkload } from './book.bench.ts';
import type { BenchCase } from './harness.ts';

const USERS = 1000;
/** 2024-01-01T00:00:00Z. */
const START_NS = 1_704_067_200n * 1_000_000_000n;
const SEED = 'bench/venue.mix';

/** What the listener saw in one pass: order feeds by type, trades, book changes. */
class FeedCounter {
  readonly byType = new Map<string, number>();
  trades = 0;
  bookChanges = 0;
  orderFeed(_userId: number, feed: OrderFeed): void {
    this.byType.set(feed.t, (this.byType.get(feed.t) ?? 0) + 1);
  }
  trade(): void {
    this.trades++;
  }
  bookChanged(): void {
    this.bookChanges++;
  }
  describe(): string {
    const types = [...this.byType].sort(([a], [b]) => (a < b ? -1 : 1)).map(([t, n]) => `${t} ${n}`);
    return `${this.trades} trades, ${this.bookChanges} book changes, feeds: ${types.join(', ')}`;
  }
}

interface VenueRun {
  venue: Venue;
  market: Market;
  users: Account[];
  counter: FeedCounter;
}

function freshVenue(): VenueRun {
  const venue = new Venue(new SimClock(START_NS), { instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' }] });
  const cash = parseMoney('1000000000');
  const users: Account[] = [];
  for (let u = 1; u <= USERS; u++) users.push(venue.addUser(`user${u}`, cash));
  const counter = new FeedCounter();
  venue.subscribe(counter);
  return { venue, market: venue.markets[0]!, users, counter };
}

/** The mix, plus the owner of each cancel's order (looked up before timing). */
interface VenueWorkload extends MixWorkload {
  cancelOwners: Int32Array;
}

function venueWorkload(): VenueWorkload {
  const mix = generateMix(SEED, USERS);
  const cancelOwners = new Int32Array(mix.cancelIds.length);
  for (let c = 0; c < cancelOwners.length; c++) {
    const id = mix.cancelIds[c]!;
    cancelOwners[c] = id === 0 ? 1 : mix.places[id - 1]!.ownerId;
  }
  return { ...mix, cancelOwners };
}

/**
 * Sends the mix through the venue. `wireIds[id]` keeps the wire id of the workload's order `id`
 * so a cancel can name it (the venue's cancel takes wire ids); a cancel names the order's owner.
 */
function replayVenue(run: VenueRun, mix: VenueWorkload, wireIds: string[]): void {
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

/** `venue.mix`: the mix through the venue with risk checks and feeds. */
export function venueMixCase(): BenchCase {
  let mix: VenueWorkload | undefined;
  let run: VenueRun | undefined;
  let wireIds: string[] = [];
  return {
    name: 'venue.mix',
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
      run = freshVenue();
      wireIds = new Array<string>(mix!.places.length + 1).fill('');
    },
    run() {
      replayVenue(run!, mix!, wireIds);
    },
    release() {
      mix = undefined;
      wireIds = [];
    },
    dispose() {
      run = undefined;
    },
    describe() {
      if (run === undefined) return '';
      const book = run.market.book;
      return `${book.orderCount} resting, ${run.counter.describe()}`;
    },
  };
}

/** Every venue case, in run order: the bare book first, then the venue. */
export const venueCases = (): BenchCase[] => [mixCase('venue.mix-book', SEED, USERS), venueMixCase()];
