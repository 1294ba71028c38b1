import type { BinanceBookTicker, BinanceDepthDiff, BinanceDepthSnapshot, BinanceRawEvent, BinanceTrade } from './binance-raw.ts';
import type { Level, PackedLevels } from './levels.ts';

/**
 * Binance's rule for keeping a local order book from the diff-depth stream and a REST
 * snapshot (USD-M / COIN-M futures):
 * 1. buffer diffs until the snapshot arrives;
 * 2. drop diffs with `u` < `lastUpdateId`;
 * 3. the first diff applied must have `U` <= `lastUpdateId` <= `u`;
 * 4. from then on each diff's `pu` must equal the previous diff's `u`; otherwise the book is
 *    out of sync (a `gap` event), and diffs are buffered again until a newer snapshot.
 * Trades and book tickers pass through untouched.
 */

/** A change to apply to the local book: after `reset`, set every level (quantity 0 removes it). */
export interface BinanceBookUpdate {
  kind: 'book';
  /**
   * When the update takes effect, ns: the receipt time, or the snapshot's receipt time for
   * diffs buffered while waiting for it (so times never go backwards).
   */
  localTsNs: bigint;
  /** Clear the book first: this is the snapshot. */
  reset: boolean;
  /** The update id the book is complete to after this update. */
  finalUpdateId: number;
  bids: Level[];
  asks: Level[];
  /** A diff's levels as numbers, when it carries them so (`BinanceDepthDiff.packed`): then `bids` / `asks` are empty. */
  packed: PackedLevels | undefined;
  /** The line of the diff or snapshot this came from. */
  line: number;
}

/** The chain broke: the book is unusable until the next snapshot (nothing is applied until then). */
export interface BinanceBookGap {
  kind: 'gap';
  localTsNs: bigint;
  /** The `u` the next diff had to follow (`pu`), or the snapshot's `lastUpdateId` for the first diff. */
  expected: number;
  /** What the diff had: its `pu`, or its `U` when it was the first after a snapshot. */
  got: number;
  line: number;
}

/** What the sync hands on: book updates, gaps, and the trades and tickers it passes through. */
export type BinanceSyncedEvent = BinanceBookUpdate | BinanceBookGap | BinanceTrade | BinanceBookTicker;

/** Limits of the sync. */
export interface BinanceDepthSyncOptions {
  /** Diffs kept while waiting for a snapshot; the oldest go first (they would be stale anyway). Default 100 000. */
  maxBuffered?: number;
}

/** The rule as a state machine, fed one raw event at a time (`push`); synchronous and deterministic. */
export class BinanceDepthSync {
  readonly stats = {
    /** Diffs dropped because the snapshot already covers them (`u` < `lastUpdateId`). */
    staleDiffs: 0,
    /** Diffs dropped from a full buffer while waiting for a snapshot. */
    overflowDiffs: 0,
    /** Snapshots older than the book already kept, ignored. */
    staleSnapshots: 0,
    gaps: 0,
  };
  private state: 'waiting' | 'first' | 'synced' = 'waiting';
  private buffer: BinanceDepthDiff[] = [];
  private lastUpdateId = 0;
  private snapshotTsNs = 0n;
  private readonly maxBuffered: number;

  constructor(options: BinanceDepthSyncOptions = {}) {
    this.maxBuffered = options.maxBuffered ?? 100_000;
  }

  /** Diffs held until a snapshot arrives. */
  get buffered(): number {
    return this.buffer.length;
  }

  /** Appends what `event` yields to `out` (often nothing, sometimes many updates) and returns it. */
  push(event: BinanceRawEvent, out: BinanceSyncedEvent[] = []): BinanceSyncedEvent[] {
    if (event.kind === 'trade' || event.kind === 'bookTicker') out.push(event);
    else if (event.kind === 'depthSnapshot') this.snapshot(event, out);
    else this.diff(event, out);
    return out;
  }

  private snapshot(s: BinanceDepthSnapshot, out: BinanceSyncedEvent[]): void {
    if (this.state !== 'waiting' && s.lastUpdateId <= this.lastUpdateId) {
      this.stats.staleSnapshots++;
      return;
    }
    this.state = 'first';
    this.lastUpdateId = s.lastUpdateId;
    this.snapshotTsNs = s.localTsNs;
    out.push({ kind: 'book', localTsNs: s.localTsNs, reset: true, finalUpdateId: s.lastUpdateId, bids: s.bids, asks: s.asks, packed: undefined, line: s.line });
    const waiting = this.buffer;
    this.buffer = [];
    for (const d of waiting) this.diff(d, out);
  }

  private diff(d: BinanceDepthDiff, out: BinanceSyncedEvent[]): void {
    if (this.state === 'waiting') {
      if (this.buffer.length >= this.maxBuffered) {
        this.buffer.shift();
        this.stats.overflowDiffs++;
      }
      this.buffer.push(d);
      return;
    }
    if (this.state === 'first') {
      if (d.finalUpdateId < this.lastUpdateId) {
        this.stats.staleDiffs++;
        return;
      }
      if (d.firstUpdateId > this.lastUpdateId) return this.gap(d, this.lastUpdateId, d.firstUpdateId, out);
    } else if (d.prevFinalUpdateId !== this.lastUpdateId) {
      return this.gap(d, this.lastUpdateId, d.prevFinalUpdateId, out);
    }
    this.state = 'synced';
    this.lastUpdateId = d.finalUpdateId;
    const localTsNs = d.localTsNs < this.snapshotTsNs ? this.snapshotTsNs : d.localTsNs;
    out.push({ kind: 'book', localTsNs, reset: false, finalUpdateId: d.finalUpdateId, bids: d.bids, asks: d.asks, packed: d.packed, line: d.line });
  }

  private gap(d: BinanceDepthDiff, expected: number, got: number, out: BinanceSyncedEvent[]): void {
    this.stats.gaps++;
    out.push({ kind: 'gap', localTsNs: d.localTsNs, expected, got, line: d.line });
    this.state = 'waiting';
    this.buffer = [d];
  }
}

/** The synced stream of a raw capture: `BinanceDepthSync` applied to every event in order. */
export async function* syncBinanceDepth(
  events: AsyncIterable<BinanceRawEvent>,
  sync: BinanceDepthSync = new BinanceDepthSync(),
): AsyncGenerator<BinanceSyncedEvent> {
  const out: BinanceSyncedEvent[] = [];
  for await (const event of events) {
    sync.push(event, out);
    for (const e of out) yield e;
    out.length = 0;
  }
}
