import { binanceLineDecoder } from '../../src/replay/binance-raw.ts';
import { lineChunks } from '../../src/replay/line-chunks.ts';
import { BinanceDepthSync, type BinanceSyncedEvent } from '../../src/replay/binance-depth-sync.ts';
import { fileSource } from '../../src/replay/file-source.ts';
import type { Level } from '../../src/replay/levels.ts';
import { emptySpan, type RecordingSpan } from '../../src/replay/l2/l2-span.ts';

/**
 * The oracle for `binanceRawSpan` (src/replay/l2/l2-span-binance.ts): the span pass as it was
 * until round 9, every line decoded in full, kept as it was so the header-only pass is checked
 * against it (test/replay/l2-span-binance.test.ts) and timed against it (bench/replay-span-pass.ts).
 *
 * The span (`l2-span.ts`) of one Binance raw capture as `scanL2Span` gives it through the whole
 * road (decode, depth sync, normalized records, the merge's time floor, column batches), from
 * the decoded lines alone: no record per level, no merge, no batches. Every line is decoded by
 * the reader's own line decoder as a depth replay reads it (book tickers for their times only,
 * `tickerTimesOnly`), so a line the run would refuse fails here, before the run, with the same
 * error; the diffs go through the same `BinanceDepthSync` (gaps, stale and buffered diffs alike).
 * The span pass of a raw capture was the whole road, a third of a replay's CPU.
 */
export async function binanceRawSpanOracle(path: string, tickSize: string, lotSize: string, market: number): Promise<RecordingSpan> {
  const decode = binanceLineDecoder(path, tickSize, lotSize, true);
  const scan = new SpanOfRows(market);
  const sync = new BinanceDepthSync();
  const synced: BinanceSyncedEvent[] = [];
  /** Exchange time (`E`, ms) of each depth line the sync still holds. */
  const eventMs = new Map<number, number>();
  for await (const { firstLine, texts } of lineChunks(fileSource(path))) {
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i]!;
      if (text.length === 0) continue;
      const line = firstLine + i;
      const e = decode(text, line);
      const ms = Number(e.eventTsNs / NS_PER_MS);
      if (e.kind === 'bookTicker') scan.quote(ms);
      else if (e.kind === 'trade') scan.trade(e.localTsNs, ms, e.priceTicks);
      else {
        eventMs.set(line, ms);
        sync.push(e, synced);
      }
      // The sync hands on book updates and gaps (trades and tickers go around it: it passes them at once).
      for (const s of synced) {
        if (s.kind !== 'book' && s.kind !== 'gap') continue;
        const ms = eventMs.get(s.line)!;
        // A gapped diff waits for the next snapshot, and may gap again: its time stays known.
        if (s.kind === 'gap') scan.book(s.localTsNs, ms, true, undefined);
        else {
          eventMs.delete(s.line);
          scan.book(s.localTsNs, ms, s.reset, s.bids[0] ?? s.asks[0]);
        }
      }
      synced.length = 0;
    }
  }
  return scan.span;
}

const NS_PER_MS = 1_000_000n;

/** What `normalize.ts` → `mergeSources` → `L2ColumnBuilder` → `addBatchToSpan` make of the synced rows, kept as a span. */
class SpanOfRows {
  readonly span = emptySpan();
  /** The merge's floor: the latest exchange time (ms) of any record so far (quotes too). */
  private floorMs = -Infinity;
  /** The open book row's receive and exchange time (a book message of the same times joins it); none after any other record. */
  private openRecvNs: bigint | undefined;
  private openMs = 0;

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

  /** A book update (its first level, undefined when it has none); one that sets nothing makes no record. */
  book(recvNs: bigint, ms: number, reset: boolean, first: Level | undefined): void {
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

