import { binanceLineDecoder, type BinanceDepthDiff } from '../binance-raw.ts';
import { lineChunks } from '../line-chunks.ts';
import { plainIntField } from '../binance-scan.ts';
import { BinanceDepthSync, type BinanceSyncedEvent } from '../binance-depth-sync.ts';
import { fileSource } from '../file-source.ts';
import type { Level } from '../levels.ts';
import { emptySpan, type RecordingSpan } from './l2-span.ts';

/**
 * The span (`l2-span.ts`) of one Binance raw capture from times and update ids alone: what
 * `scanL2Span` gives for it through the whole road (decode, depth sync, normalized records,
 * the merge's time floor, column batches), without reading a level. The span pass of a raw
 * capture was a full decode before the run, a third of a replay's CPU.
 *
 * Per line it reads the receipt time, the stream, `E` and, for a depth diff, `U`, `u`, `pu` and
 * whether `b` / `a` are empty; the diffs go through the same `BinanceDepthSync` as the road's
 * (so gaps, stale diffs and buffered ones count alike), with placeholder levels. A line of any
 * other shape (the REST snapshot, anything unusual) and every line until the first price is
 * known are decoded in full by the reader's own line decoder, whose errors are the reader's.
 * Not checked here: the decimal texts of levels and trades after the first price (a bad one
 * fails when the run reaches it, with the same one-line error).
 */
export async function binanceRawSpan(path: string, tickSize: string, lotSize: string, market: number): Promise<RecordingSpan> {
  const decode = binanceLineDecoder(path, tickSize, lotSize);
  const scan = new SpanOfRows(market);
  const sync = new BinanceDepthSync();
  const synced: BinanceSyncedEvent[] = [];
  /** Exchange time (`E`, ms) of each depth line the sync still holds. */
  const eventMs = new Map<number, number>();
  const light = new LightLine();
  for await (const { firstLine, texts } of lineChunks(fileSource(path))) {
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i]!;
      if (text.length === 0) continue;
      const line = firstLine + i;
      const kind = scan.firstPriceKnown() ? light.read(text) : FULL;
      if (kind === BOOK_TICKER) scan.quote(light.ms);
      else if (kind === TRADE) scan.trade(light.recvNs, light.ms, undefined);
      else if (kind === DEPTH) {
        eventMs.set(line, light.ms);
        sync.push(light.diff(line), synced);
      } else {
        const e = decode(text, line);
        const ms = Number(e.eventTsNs / NS_PER_MS);
        if (e.kind === 'bookTicker') scan.quote(ms);
        else if (e.kind === 'trade') scan.trade(e.localTsNs, ms, e.priceTicks);
        else {
          eventMs.set(line, ms);
          sync.push(e, synced);
        }
      }
      // The sync hands on book updates and gaps (trades and tickers went around it: it passes them at once).
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

  firstPriceKnown(): boolean {
    return this.span.firstPriceTicks[this.market] !== undefined;
  }

  quote(ms: number): void {
    if (ms > this.floorMs) this.floorMs = ms;
    this.openRecvNs = undefined;
  }

  trade(recvNs: bigint, ms: number, priceTicks: number | undefined): void {
    this.quote(ms);
    this.row(recvNs, ms);
    if (priceTicks !== undefined) this.span.firstPriceTicks[this.market] ??= priceTicks;
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
    // A light diff's placeholder level never gets here: light lines are read only once the first price is known.
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

const FULL = 0;
const BOOK_TICKER = 1;
const TRADE = 2;
const DEPTH = 3;
const DEPTH_STREAM = /@depth(@\d+ms)?$/;
/** Stand-ins for a diff's levels: the sync only hands them on, the span asks only whether there are any. */
const NO_LEVELS: Level[] = [];
const SOME_LEVELS: Level[] = [{ priceTicks: NaN, qtyLots: NaN }];

/**
 * Reads the times and ids of one line of the plain shape the exchange sends
 * (`<receipt ns> {"stream":"…","data":{…}}`), into its fields; FULL when the line is anything
 * else or a field it reads is missing or not a plain integer (the reader's decoder then reads it).
 */
class LightLine {
  recvNs = 0n;
  /** `E`, ms. */
  ms = 0;
  private first = 0;
  private final = 0;
  private prev = 0;
  private hasLevels = false;

  read(text: string): number {
    const space = text.indexOf(' ');
    if (space < 1 || space > 19 || !text.startsWith('{"stream":"', space + 1) || !text.endsWith('}}')) return FULL;
    for (let i = 0; i < space; i++) if (!isDigit(text.charCodeAt(i))) return FULL;
    const streamEnd = text.indexOf('"', space + 12);
    if (streamEnd < 0 || !text.startsWith('","data":{', streamEnd)) return FULL;
    const stream = text.slice(space + 12, streamEnd);
    const E = plainIntField(text, '"E":', streamEnd);
    if (!(E >= 0) || !(plainIntField(text, '"T":', streamEnd) >= 0)) return FULL;
    this.ms = E;
    if (stream.endsWith('@bookTicker')) return text.includes('"u":', streamEnd) ? BOOK_TICKER : FULL;
    this.recvNs = BigInt(text.slice(0, space));
    if (stream.endsWith('@trade')) return text.includes('"t":', streamEnd) && text.includes('"m":', streamEnd) ? TRADE : FULL;
    if (!DEPTH_STREAM.test(stream)) return FULL;
    this.first = plainIntField(text, '"U":', streamEnd);
    this.final = plainIntField(text, '"u":', streamEnd);
    this.prev = plainIntField(text, '"pu":', streamEnd);
    const b = text.indexOf('"b":[', streamEnd);
    const a = text.indexOf('"a":[', streamEnd);
    if (!(this.first >= 0 && this.final >= 0 && this.prev >= 0) || b < 0 || a < 0) return FULL;
    this.hasLevels = text.charCodeAt(b + 5) !== CLOSE_BRACKET || text.charCodeAt(a + 5) !== CLOSE_BRACKET;
    return DEPTH;
  }

  /** The depth line just read, as the sync takes it (levels are stand-ins). */
  diff(line: number): BinanceDepthDiff {
    const eventTsNs = BigInt(this.ms) * NS_PER_MS;
    const levels = this.hasLevels ? SOME_LEVELS : NO_LEVELS;
    return { kind: 'depth', localTsNs: this.recvNs, eventTsNs, transactTsNs: eventTsNs, line, firstUpdateId: this.first, finalUpdateId: this.final, prevFinalUpdateId: this.prev, bids: levels, asks: NO_LEVELS };
  }
}

const CLOSE_BRACKET = 93;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
