import type { WebSocket } from 'ws';
import type { Market } from '../../venue/market.ts';
import { MarketDataInstants, type InstantBatch } from '../../venue/md-instants.ts';
import type { Venue } from '../../venue/venue.ts';
import { sendText } from './frames.ts';
import { bookLevelsJson, bookMessage, levelIndex, LEVELS, statsMessage, type Level } from './md-messages.ts';

/** Subscribers of one symbol and what each level last sent. */
class Channel {
  /** Subscribers per level (index 0, 1, 2 = LEVEL_1, 2, 3). */
  readonly subscribers: [Set<WebSocket>, Set<WebSocket>, Set<WebSocket>] = [new Set(), new Set(), new Set()];
  /** Levels part of the last update sent per level (to skip identical L1 / L2 updates). */
  readonly lastLevels: (string | undefined)[] = [undefined, undefined, undefined];
  readonly symbolJson: string;

  constructor(readonly market: Market) {
    this.symbolJson = JSON.stringify(market.symbol);
  }

  get idle(): boolean {
    return this.subscribers[0].size === 0 && this.subscribers[1].size === 0 && this.subscribers[2].size === 0;
  }

  send(text: string): void {
    const bytes = Buffer.from(text);
    for (const set of this.subscribers) for (const ws of set) sendText(ws, bytes);
  }
}

/**
 * Market-data fan-out: sends stats and book updates to the subscribed sockets by the one rule
 * of market data within an instant (venue/md-instants.ts, which the in-process ports follow
 * too, so both paths give the same messages in the same order):
 *
 * - each trade gets its own stats message (stamped with the trade's time), at every level;
 * - after an instant's stats, one full snapshot per subscribed level if the book changed,
 *   carrying the time of the latest change; L1 / L2 snapshots identical to the previous one of
 *   that level are skipped, L3 ones are not (the queue may have changed behind equal quantities);
 * - instants end on the clock, so a manual advance over many instants delivers each one's
 *   books; changes made outside clock events (a command on a paused clock) go out in a
 *   microtask, and everything pending before a market-data request (`flush`).
 * - Each message is serialized and UTF-8 encoded once (per symbol and level) and the same
 *   bytes go to every subscriber. Symbols without subscribers cost one map lookup per venue event.
 */
export class MarketDataFanout {
  private readonly channels = new Map<string, Channel>();
  private readonly instants: MarketDataInstants;
  private flushScheduled = false;
  private closed = false;

  constructor(private readonly venue: Venue) {
    this.instants = new MarketDataInstants(
      venue,
      (market) => {
        const ch = this.channels.get(market.symbol);
        if (ch === undefined || ch.idle) return false;
        this.scheduleFlush(); // a change outside a clock event still goes out
        return true;
      },
      (batch) => this.deliver(batch),
    );
  }

  /** Sends everything pending now. */
  flush(): void {
    this.flushScheduled = false;
    if (!this.closed) this.instants.flush();
  }

  /**
   * Adds a subscriber and sends it the stats and the current book at `level`, both stamped
   * with the current sim time. Pending output is flushed first, so existing subscribers are
   * up to date with the snapshot the new one gets.
   */
  subscribe(ws: WebSocket, market: Market, level: Level): void {
    this.flush();
    let ch = this.channels.get(market.symbol);
    if (ch === undefined) this.channels.set(market.symbol, (ch = new Channel(market)));
    const i = levelIndex(level);
    ch.subscribers[i].add(ws);
    const sec = this.venue.clock.nowSec;
    const nanos = this.venue.clock.nowNanos;
    sendText(ws, statsMessage(market, sec, nanos));
    const levels = bookLevelsJson(market, level);
    ch.lastLevels[i] = levels;
    sendText(ws, bookMessage(ch.symbolJson, level, sec, nanos, levels));
  }

  /** Removes a subscriber. */
  unsubscribe(ws: WebSocket, symbol: string, level: Level): void {
    this.channels.get(symbol)?.subscribers[levelIndex(level)].delete(ws);
  }

  /** Stops all output and listening to the venue. */
  close(): void {
    this.closed = true;
    this.instants.close();
    this.channels.clear();
  }

  /** One instant of one market: its stats in trade order, then one update per dirty level. */
  private deliver(batch: InstantBatch): void {
    const ch = this.channels.get(batch.market.symbol);
    if (ch === undefined || this.closed) return;
    for (const stats of batch.stats) ch.send(JSON.stringify(stats));
    if (!batch.bookChanged) return;
    for (let i = 0; i < 3; i++) {
      const subs = ch.subscribers[i]!;
      if (subs.size === 0) continue;
      const level = LEVELS[i]!;
      const levels = bookLevelsJson(ch.market, level);
      if (i < 2 && levels === ch.lastLevels[i]) continue;
      ch.lastLevels[i] = levels;
      const bytes = Buffer.from(bookMessage(ch.symbolJson, level, batch.sec, batch.nanos, levels));
      for (const ws of subs) sendText(ws, bytes);
    }
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    queueMicrotask(() => this.flush());
  }
}
