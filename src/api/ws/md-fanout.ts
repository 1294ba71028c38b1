import type { WireSocket } from './wire-socket.ts';
import type { Market } from '../../venue/market.ts';
import { MarketDataInstants, type InstantBatch } from '../../venue/md-instants.ts';
import type { Venue } from '../../venue/venue.ts';
import { sendText } from './frames.ts';
import { LevelTexts } from './md-levels.ts';
import { bookMessage, statsMessage, type Level } from './md-messages.ts';
import { encodeTickerStats } from './wire-json.ts';

/** Subscribers of one symbol at one level and depth, and the levels part they were last sent. */
interface Group {
  readonly level: Level;
  /** Levels a side (Infinity: all; LEVEL_1: 1). */
  readonly depth: number;
  readonly sockets: Set<WireSocket>;
  /** Levels part of the last update sent (to skip identical L1 / L2 updates). */
  last: string | undefined;
}

/** Subscribers of one symbol, grouped by level and depth. */
class Channel {
  /** Groups by `level:depth`, in the order they were first subscribed (the order updates go out). */
  readonly groups = new Map<string, Group>();
  readonly symbolJson: string;
  readonly levels: LevelTexts;

  constructor(readonly market: Market) {
    this.symbolJson = JSON.stringify(market.symbol);
    this.levels = new LevelTexts(market);
  }

  get idle(): boolean {
    for (const g of this.groups.values()) if (g.sockets.size > 0) return false;
    return true;
  }

  group(level: Level, depth: number): Group {
    const key = `${level}:${depth}`;
    let g = this.groups.get(key);
    if (g === undefined) this.groups.set(key, (g = { level, depth, sockets: new Set(), last: undefined }));
    return g;
  }

  send(text: string): void {
    const bytes = Buffer.from(text);
    for (const g of this.groups.values()) for (const ws of g.sockets) sendText(ws, bytes);
  }
}

/** Depth of a subscription as grouped: LEVEL_1 is one level whatever was asked. */
const depthOf = (level: Level, depth: number | undefined): number => (level === 'LEVEL_1' ? 1 : (depth ?? Infinity));

/**
 * Market-data fan-out: sends stats and book updates to the subscribed sockets by the one rule
 * of market data within an instant (venue/md-instants.ts, which the in-process ports follow
 * too, so both paths give the same messages in the same order):
 *
 * - each trade gets its own stats message (stamped with the trade's time), at every level;
 * - after an instant's stats, one full snapshot per subscribed level and depth if the book
 *   changed, carrying the time of the latest change; L1 / L2 snapshots identical to the previous
 *   one of that level and depth are skipped, L3 ones are not (the queue may have changed behind
 *   equal quantities); with `depth` (an extension) a snapshot has the first `depth` levels a side;
 * - instants end on the clock, so a manual advance over many instants delivers each one's
 *   books; changes made outside clock events (a command on a paused clock) go out in a
 *   microtask, and everything pending before a market-data request (`flush`).
 * - Each message is serialized and UTF-8 encoded once (per symbol, level and depth) and the same
 *   bytes go to every subscriber; a level's text is kept until its quantity changes
 *   (./md-levels.ts). Symbols without subscribers cost one map lookup per venue event.
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
  subscribe(ws: WireSocket, market: Market, level: Level, depth?: number): void {
    this.flush();
    let ch = this.channels.get(market.symbol);
    if (ch === undefined) this.channels.set(market.symbol, (ch = new Channel(market)));
    const group = ch.group(level, depthOf(level, depth));
    group.sockets.add(ws);
    const sec = this.venue.clock.nowSec;
    const nanos = this.venue.clock.nowNanos;
    sendText(ws, statsMessage(market, sec, nanos));
    const levels = ch.levels.levelsJson(level, group.depth);
    group.last = levels;
    sendText(ws, bookMessage(ch.symbolJson, level, sec, nanos, levels));
  }

  /** Removes a subscriber. */
  unsubscribe(ws: WireSocket, symbol: string, level: Level, depth?: number): void {
    this.channels.get(symbol)?.groups.get(`${level}:${depthOf(level, depth)}`)?.sockets.delete(ws);
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
    for (let i = 0; i < batch.trades; i++) ch.send(encodeTickerStats(batch.stats(i)));
    if (!batch.bookChanged) return;
    for (const g of ch.groups.values()) {
      if (g.sockets.size === 0) continue;
      const levels = ch.levels.levelsJson(g.level, g.depth);
      if (g.level !== 'LEVEL_3' && levels === g.last) continue;
      g.last = levels;
      const bytes = Buffer.from(bookMessage(ch.symbolJson, g.level, batch.sec, batch.nanos, levels));
      for (const ws of g.sockets) sendText(ws, bytes);
    }
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    queueMicrotask(() => this.flush());
  }
}
