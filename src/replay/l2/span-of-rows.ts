import { BinanceDepthSync, type BinanceSyncedEvent } from '../binance-depth-sync.ts';
import type { BinanceRawEvent } from '../binance-raw.ts';
import type { Level } from '../levels.ts';
import { emptySpan } from './l2-span.ts';

const NS_PER_MS = 1_000_000n;

/**
 * What `normalize.ts` → `mergeSources` → `L2ColumnBuilder` → `addBatchToSpan` make of a Binance
 * raw capture's decoded lines, kept as a span (`l2-span.ts`): book tickers move the merge's
 * time floor, trades make rows, diffs go through the same `BinanceDepthSync` the reader uses
 * (gaps, stale and buffered diffs alike) and make rows as the sync hands them on. Shared by
 * the header-only span pass (`l2-span-binance.ts`) and its full-decode oracle in test/.
 */
export class SpanOfRows {
  readonly span = emptySpan();
  /** The merge's floor: the latest exchange time (ms) of any record so far (quotes too). */
  private floorMs = -Infinity;
  /** The open book row's receive and exchange time (a book message of the same times joins it); none after any other record. */
  private openRecvNs: bigint | undefined;
  private openMs = 0;
  private readonly sync = new BinanceDepthSync();
  private readonly synced: BinanceSyncedEvent[] = [];
  /** Exchange time (`E`, ms) of each depth line the sync still holds. */
  private readonly eventMs = new Map<number, number>();

  constructor(private readonly market: number) {}

  quote(ms: number): void {
    if (ms > this.floorMs) this.floorMs = ms;
    this.openRecvNs = undefined;
  }

  trade(recvNs: bigint, ms: number, priceTicks: number): void {
    this.quote(ms);
    this.row(recvNs, ms);
    this.span.firstPriceTicks[this.market] ??= priceTicks;
  }

  /** A depth line (exchange time `ms`), through the sync: rows for the updates and gaps it hands on. */
  depth(e: BinanceRawEvent, ms: number): void {
    this.eventMs.set(e.line, ms);
    this.sync.push(e, this.synced);
    for (const s of this.synced) {
      if (s.kind !== 'book' && s.kind !== 'gap') continue;
      const at = this.eventMs.get(s.line)!;
      // A gapped diff waits for the next snapshot, and may gap again: its time stays known.
      if (s.kind === 'gap') this.book(s.localTsNs, at, true, undefined);
      else {
        this.eventMs.delete(s.line);
        this.book(s.localTsNs, at, s.reset, s.bids[0] ?? s.asks[0]);
      }
    }
    this.synced.length = 0;
  }

  /** A book update (its first level, undefined when it has none); one that sets nothing makes no record. */
  private book(recvNs: bigint, ms: number, reset: boolean, first: Level | undefined): void {
    if (!reset && first === undefined) return;
    if (ms > this.floorMs) this.floorMs = ms;
    if (reset || this.openRecvNs !== recvNs || this.openMs !== ms) {
      this.row(recvNs, ms);
      this.openRecvNs = recvNs;
      this.openMs = ms;
    }
    if (first !== undefined) this.span.firstPriceTicks[this.market] ??= first.priceTicks;
  }

  private row(recvNs: bigint, ms: number): void {
    const span = this.span;
    const tsNs = BigInt(this.floorMs) * NS_PER_MS;
    if (span.events++ === 0) span.firstNs = tsNs;
    span.lastNs = tsNs;
    const delayNs = recvNs - BigInt(ms) * NS_PER_MS;
    if (delayNs < span.minFeedDelayNs) span.minFeedDelayNs = delayNs;
  }
}
