import type { WebSocket } from 'ws';
import type { SimClock } from '../../clock/sim-clock.ts';
import type { VenueTrade, VenueListener } from '../../venue/feeds.ts';
import type { Market } from '../../venue/market.ts';
import { sendText } from './frames.ts';
import { bookLevelsJson, bookMessage, levelIndex, LEVELS, statsMessage, type Level } from './md-messages.ts';

/** Subscribers and pending output of one symbol. */
class Channel {
  /** Subscribers per level (index 0, 1, 2 = LEVEL_1, 2, 3). */
  readonly subscribers: [Set<WebSocket>, Set<WebSocket>, Set<WebSocket>] = [new Set(), new Set(), new Set()];
  /** Levels part of the last update sent per level (to skip identical L1 / L2 updates). */
  readonly lastLevels: (string | undefined)[] = [undefined, undefined, undefined];
  readonly symbolJson: string;
  /** Stats messages of trades not yet sent, in trade order. */
  readonly pendingStats: string[] = [];
  bookDirty = false;
  /** Sim time of the latest book change not yet sent (the update's ts / tn). */
  changedSec = 0;
  changedNanos = 0;
  /** Already in the fan-out's dirty list. */
  queued = false;

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
 * Market-data fan-out: listens to the venue once per server and sends stats and book updates
 * to the subscribed sockets.
 *
 * - A trade queues a stats message (stamped with the trade's time) for the symbol's subscribers
 *   at every level; each trade gets its own, so `p` / `q` of every print reach the client.
 * - A book change only marks the symbol dirty. {@link flush} — run in a microtask after the
 *   change, after every batch of clock events (`Exchange.onAfterRun`), and before each
 *   market-data request — sends one full snapshot per subscribed level, so one command gives
 *   one update and a batch of sim events at most one per symbol and level. The update carries the
 *   time of the latest change it covers.
 * - Each message is serialized and UTF-8 encoded once (per symbol and level) and the same
 *   bytes go to every subscriber. L1 / L2 snapshots identical to the previous one of that level are skipped;
 *   L3 ones are not (the queue may have changed behind equal quantities).
 * - Symbols without subscribers cost one map lookup per venue event.
 */
export class MarketDataFanout implements VenueListener {
  private readonly channels = new Map<string, Channel>();
  private readonly dirty: Channel[] = [];
  private flushScheduled = false;
  private closed = false;

  constructor(private readonly clock: SimClock) {}

  /** Venue hook: the book of `market` changed. */
  bookChanged(market: Market): void {
    const ch = this.channels.get(market.symbol);
    if (ch === undefined || ch.idle) return;
    ch.bookDirty = true;
    ch.changedSec = this.clock.nowSec;
    ch.changedNanos = this.clock.nowNanos;
    this.enqueue(ch);
  }

  /** Venue hook: a trade printed (the market's stats already include it). */
  trade(trade: VenueTrade, market: Market): void {
    const ch = this.channels.get(market.symbol);
    if (ch === undefined || ch.idle) return;
    ch.pendingStats.push(statsMessage(market, trade.sec, trade.nanos));
    this.enqueue(ch);
  }

  /** Sends everything pending: stats of new trades, then one book update per dirty level. */
  flush(): void {
    this.flushScheduled = false;
    if (this.closed || this.dirty.length === 0) return;
    for (const ch of this.dirty.splice(0)) {
      ch.queued = false;
      for (const text of ch.pendingStats.splice(0)) ch.send(text);
      if (!ch.bookDirty) continue;
      ch.bookDirty = false;
      for (let i = 0; i < 3; i++) {
        const subs = ch.subscribers[i]!;
        if (subs.size === 0) continue;
        const level = LEVELS[i]!;
        const levels = bookLevelsJson(ch.market, level);
        if (i < 2 && levels === ch.lastLevels[i]) continue;
        ch.lastLevels[i] = levels;
        const bytes = Buffer.from(bookMessage(ch.symbolJson, level, ch.changedSec, ch.changedNanos, levels));
        for (const ws of subs) sendText(ws, bytes);
      }
    }
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
    const sec = this.clock.nowSec;
    const nanos = this.clock.nowNanos;
    sendText(ws, statsMessage(market, sec, nanos));
    const levels = bookLevelsJson(market, level);
    ch.lastLevels[i] = levels;
    sendText(ws, bookMessage(ch.symbolJson, level, sec, nanos, levels));
  }

  /** Removes a subscriber. */
  unsubscribe(ws: WebSocket, symbol: string, level: Level): void {
    this.channels.get(symbol)?.subscribers[levelIndex(level)].delete(ws);
  }

  /** Stops all output (the venue listener and after-run hook become no-ops). */
  close(): void {
    this.closed = true;
    this.channels.clear();
    this.dirty.length = 0;
  }

  private enqueue(ch: Channel): void {
    if (!ch.queued) {
      ch.queued = true;
      this.dirty.push(ch);
    }
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      queueMicrotask(() => this.flush());
    }
  }
}
