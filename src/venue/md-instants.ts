import type { TickerStats } from '../wire/market-data.ts';
import type { Market } from './market.ts';
import type { Venue } from './venue.ts';
import { tickerStats } from './wire-forms.ts';

/** What one market did within one instant, in the order market data delivers it. */
export interface InstantBatch {
  market: Market;
  /** One stats message per trade, in trade order, each stamped with its trade's time. */
  stats: TickerStats[];
  /** The book changed: one update per subscribed level follows the stats (if it differs, for L1 / L2). */
  bookChanged: boolean;
  /** Time of the latest book change (the update's `ts` / `tn`). */
  sec: number;
  nanos: number;
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
 */
export class MarketDataInstants {
  private readonly pending = new Map<Market, InstantBatch>();
  /** `bookChanged` announcements per market while watched. */
  private readonly changes = new Map<Market, number>();
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
        if (this.isWatched(market)) this.batchOf(market).stats.push(tickerStats(market, trade.sec, trade.nanos));
      },
      bookChanged: (market) => {
        if (!this.isWatched(market)) return;
        this.changes.set(market, (this.changes.get(market) ?? 0) + 1);
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
    return this.changes.get(market) ?? 0;
  }

  /** Delivers everything pending now, market by market. */
  flush(): void {
    if (this.pending.size === 0) return;
    const batches = [...this.pending.values()];
    this.pending.clear();
    for (const batch of batches) this.deliver(batch);
  }

  /** Stops listening to the venue; pending data is dropped. */
  close(): void {
    this.unsubscribe();
    this.pending.clear();
  }

  private batchOf(market: Market): InstantBatch {
    let batch = this.pending.get(market);
    if (batch === undefined) {
      const clock = this.venue.clock;
      this.pending.set(market, (batch = { market, stats: [], bookChanged: false, sec: clock.nowSec, nanos: clock.nowNanos }));
      if (!this.scheduled) {
        this.scheduled = true;
        clock.scheduleIn(0, () => {
          this.scheduled = false;
          this.flush();
        });
      }
    }
    return batch;
  }
}
