import type { TickerStats } from '../wire/market-data.ts';
import { SNAPSHOT_NUMBERS } from '../market/session-stats.ts';
import type { Market } from './market.ts';
import type { Venue } from './venue.ts';

/** Numbers kept per trade of an instant: its time (sec, nanos), then the stats snapshot. */
const TRADE_NUMBERS = 2 + SNAPSHOT_NUMBERS;

/**
 * What one market did within one instant, in the order market data delivers it. Valid during
 * the `deliver` call only: the object and its numbers are reused for a later instant.
 *
 * Each trade's stats are kept as numbers (its time and the stats snapshot as of that trade)
 * and made into a message only by `stats(i)`, for a reader that sends them: most in-process
 * readers take no stats, and a message per trade was most of what market data allocated.
 */
export class InstantBatch {
  /** Trades of the instant: `stats(0)` … `stats(trades - 1)`, in trade order. */
  trades = 0;
  /** The book changed: one update per subscribed level follows the stats (if it differs, for L1 / L2). */
  bookChanged = false;
  /** Time of the latest book change (the update's `ts` / `tn`). */
  sec = 0;
  nanos = 0;
  private nums = new Float64Array(4 * TRADE_NUMBERS);

  constructor(readonly market: Market) {}

  /**
   * The stats message of trade `i` (a fresh object: each reader may keep or change its own),
   * stamped with its trade's time, as `tickerStats` made it at the trade.
   */
  stats(i: number): TickerStats {
    const n = this.nums;
    const at = i * TRADE_NUMBERS;
    const tick = this.market.instrument.tick;
    const price = (ticks: number): string => (Number.isNaN(ticks) ? '0' : tick.toPrice(ticks));
    const lastQty = n[at + 3]!;
    return {
      t: 's',
      ts: n[at]!,
      tn: n[at + 1]!,
      s: this.market.symbol,
      p: price(n[at + 2]!),
      q: Number.isNaN(lastQty) ? 0 : lastQty,
      o: price(n[at + 4]!),
      l: price(n[at + 6]!),
      h: price(n[at + 5]!),
      v: n[at + 7]!,
    };
  }

  /** @internal Adds a trade at (sec, nanos) with the market's stats as its listeners see them. */
  addTrade(sec: number, nanos: number): void {
    const at = this.trades * TRADE_NUMBERS;
    if (at + TRADE_NUMBERS > this.nums.length) {
      const grown = new Float64Array(this.nums.length * 2);
      grown.set(this.nums);
      this.nums = grown;
    }
    this.nums[at] = sec;
    this.nums[at + 1] = nanos;
    this.market.stats.writeSnapshot(this.nums, at + 2);
    this.trades++;
  }

  /** @internal Empties the batch for another instant starting at (sec, nanos). */
  reset(sec: number, nanos: number): void {
    this.trades = 0;
    this.bookChanged = false;
    this.sec = sec;
    this.nanos = nanos;
  }
}

/**
 * The one rule of market data within a clock instant, shared by the in-process ports
 * (src/sim/port-hub.ts) and the websocket (src/api/ws/md-fanout.ts), so both deliver the
 * same messages in the same order:
 *
 * - every trade gives its own stats message (`p` / `q` of every print reach the client, and a
 *   recorder can tell prints apart by the volume step);
 * - book changes coalesce per market and instant: one update per subscribed level, captured at
 *   the end of the instant, after that instant's stats;
 * - markets are delivered in the order they first changed within the instant.
 *
 * The end of an instant is a clock event scheduled at the current time (after everything
 * already queued there), so a manual or fast clock that runs many instants in one call still
 * delivers each instant's books. `flush()` delivers what is pending at once, for changes made
 * outside clock events (a websocket command on a paused clock) and before a new subscription.
 *
 * Per instant it allocates nothing once warm: batches are kept per market (by `market.index`)
 * and reused, the markets pending are a reused list, and the end-of-instant event is one
 * handler made once (`postIn`: the same insertion order as a handle-returning schedule).
 */
export class MarketDataInstants {
  /** The batch pending per market index, or undefined. */
  private readonly pending: (InstantBatch | undefined)[] = [];
  /** A batch per market index kept for reuse while none is pending or being delivered. */
  private readonly spare: (InstantBatch | undefined)[] = [];
  /**
   * Markets with a pending batch, in the order they first changed within the instant: the
   * first `orderLength` entries (a count, not `length = 0`, which frees the backing store).
   */
  private order: Market[] = [];
  private orderLength = 0;
  /** A list for `order` to take at the next flush (none while a flush holds it). */
  private spareOrder: Market[] | undefined = [];
  /** `bookChanged` announcements per market index while watched. */
  private readonly changes: number[] = [];
  private scheduled = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly venue: Venue,
    /** Whether anyone wants `market`'s data: unwatched markets cost one call per venue event. */
    private readonly isWatched: (market: Market) => boolean,
    private readonly deliver: (batch: InstantBatch) => void,
  ) {
    this.unsubscribe = venue.subscribe({
      trade: (trade, market) => {
        if (this.isWatched(market)) this.batchOf(market).addTrade(trade.sec, trade.nanos);
      },
      bookChanged: (market) => {
        if (!this.isWatched(market)) return;
        this.changes[market.index] = (this.changes[market.index] ?? 0) + 1;
        const batch = this.batchOf(market);
        batch.bookChanged = true;
        batch.sec = venue.clock.nowSec;
        batch.nanos = venue.clock.nowNanos;
      },
    });
  }

  /**
   * How many book changes of `market` were announced while it was watched: a reader that
   * watched throughout compares two counts to tell how many changes came in between.
   */
  bookChanges(market: Market): number {
    return this.changes[market.index] ?? 0;
  }

  /** Delivers everything pending now, market by market. */
  flush(): void {
    const n = this.orderLength;
    if (n === 0) return;
    // Take the list first: a delivery may start the next instant's batches (or flush).
    const markets = this.order;
    this.order = this.spareOrder ?? [];
    this.orderLength = 0;
    this.spareOrder = undefined;
    for (let i = 0; i < n; i++) {
      const market = markets[i]!;
      const batch = this.pending[market.index]!;
      this.pending[market.index] = undefined;
      this.deliver(batch);
      this.spare[market.index] = batch;
    }
    this.spareOrder = markets;
  }

  /** Stops listening to the venue; pending data is dropped. */
  close(): void {
    this.unsubscribe();
    for (let i = 0; i < this.orderLength; i++) this.pending[this.order[i]!.index] = undefined;
    this.orderLength = 0;
  }

  private readonly endOfInstant = (): void => {
    this.scheduled = false;
    this.flush();
  };

  private batchOf(market: Market): InstantBatch {
    const i = market.index;
    let batch = this.pending[i];
    if (batch === undefined) {
      const clock = this.venue.clock;
      batch = this.spare[i] ?? new InstantBatch(market);
      this.spare[i] = undefined;
      batch.reset(clock.nowSec, clock.nowNanos);
      this.pending[i] = batch;
      this.order[this.orderLength++] = market;
      if (!this.scheduled) {
        this.scheduled = true;
        clock.postIn(0, this.endOfInstant);
      }
    }
    return batch;
  }
}
