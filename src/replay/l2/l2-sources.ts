import { mergeSources, MIN_TIME_NS } from '../market-stream.ts';
import { openRecordSources, type RecordSource } from '../open-records.ts';
import { ReplayError } from '../replay-error.ts';
import { eventsOf, type L2Batch } from './l2-batch.ts';
import { L2ColumnBuilder, type SourceMarket } from './l2-columns.ts';
import type { L2Event, L2TickerEvent } from './l2-event.ts';
import { addBatchToSpan, emptySpan, type RecordingSpan } from './l2-span.ts';
import { ColumnSpan } from './l2-span-columns.ts';
import { binanceRawSpan } from './l2-span-binance.ts';

/**
 * The L2 replay's events, read through the one road from recordings (`open-records.ts`,
 * `market-stream.ts`): every file opened by content, merged into one normalized record stream
 * at exchange time, and turned into the replay's column batches (`l2-columns.ts`).
 */

/** Formats an L2 scenario may name; the files are read by content whatever it says. */
export const L2_FORMATS = ['tardis', 'binance'] as const;
export type L2Format = (typeof L2_FORMATS)[number];

/** One recorded file and the replayed market it feeds. */
export interface L2FileSpec {
  path: string;
  /** Index of the replayed market. */
  market: number;
  /** The market's tick size and the recording's quantity step (= one venue lot), decimal text. */
  tickSize: string;
  lotSize: string;
  /** Of a file holding several symbols (a recording, a normalized file): the one this market takes. */
  symbol?: string;
  /** An L1 + trades replay (src/replay/l1): its level rows are dropped, its quotes are the book. */
  l1?: boolean;
}

/**
 * Every file's L2 events as one time-ordered stream (exchange time; at equal times tickers,
 * then trades, then book changes, then file order), in column batches as the merged records
 * are read; a single source that has columns of its own (Arrow) is read as columns, with no
 * object per row. A replay streams it from a reader thread (`l2-stream.ts`).
 */
export async function* streamL2Batches(files: readonly L2FileSpec[], options: { skipBadRows?: boolean; tickersOnly?: boolean } = {}): AsyncGenerator<L2Batch> {
  const { sources, markets } = await openL2Sources(files, options);
  const builder = new L2ColumnBuilder(sources, markets, options.tickersOnly === true);
  const columns = sources.length === 1 ? sources[0]!.batches : undefined;
  if (columns !== undefined) {
    let floorNs = MIN_TIME_NS;
    for await (const b of columns()) {
      floorNs = builder.batch(b, 0, floorNs);
      yield* builder.ready.splice(0);
    }
  } else {
    for await (const batch of mergeSources(sources, 'exchange')) {
      for (let i = 0; i < batch.records.length; i++) builder.record(batch.records[i]!, batch.source[i]!, batch.timeNs[i]!);
      yield* builder.ready.splice(0);
    }
  }
  builder.finish();
  yield* builder.ready.splice(0);
}

/**
 * The span of the files' events (`l2-span.ts`), as `streamL2Batches` would give them: a single
 * columnar source (Arrow) from its columns alone (`l2-span-columns.ts`), others through the batches.
 * With `indexTickers`, a single columnar source's tickers with an index price are put in its
 * `found` (what `streamL2Batches(files, { tickersOnly })` keeps of them); other files leave it unset.
 */
export async function scanL2Span(files: readonly L2FileSpec[], options: { skipBadRows?: boolean; indexTickers?: { found?: L2TickerEvent[] } } = {}): Promise<RecordingSpan> {
  const { sources, markets } = await openL2Sources(files, options);
  const columns = sources.length === 1 ? sources[0]!.batches : undefined;
  const only = sources.length === 1 && files.length === 1 ? files[0]! : undefined;
  // A raw Binance capture: from its times and update ids alone (a bad row fails in the run instead).
  if (only !== undefined && sources[0]!.format === 'binance-raw' && options.skipBadRows !== true && only.l1 !== true && markets[0]!.symbol === undefined) {
    return binanceRawSpan(only.path, only.tickSize, only.lotSize, only.market);
  }
  if (columns === undefined) {
    const span = emptySpan();
    for await (const b of streamL2Batches(files, options)) addBatchToSpan(span, b);
    return span;
  }
  const indexTickers = options.indexTickers === undefined ? undefined : (options.indexTickers.found = []);
  const scan = new ColumnSpan(sources[0]!, markets[0]!, emptySpan(), indexTickers);
  let floorNs = MIN_TIME_NS;
  for await (const b of columns()) floorNs = scan.batch(b, floorNs);
  return scan.span;
}

/** The files opened by content, grouped as they are read together, with the market each feeds. */
async function openL2Sources(files: readonly L2FileSpec[], options: { skipBadRows?: boolean }): Promise<{ sources: RecordSource[]; markets: SourceMarket[] }> {
  const sources: RecordSource[] = [];
  const markets: SourceMarket[] = [];
  for (const group of groupsOf(files)) {
    const f = group[0]!;
    // An L2 replay ignores quotes beside a book (`L2ColumnBuilder.quote`); an L1 replay reads them.
    const opened = await openRecordSources(group.map((g) => g.path), { units: { tickSize: f.tickSize, lotSize: f.lotSize }, skipBadRows: options.skipBadRows, quotesBesideBookUnused: f.l1 !== true });
    for (const s of opened) {
      checkUnits(s, f);
      sources.push(s);
      // Only a file of several symbols is filtered (a file's own symbol name may differ from the scenario's key).
      markets.push({ market: f.market, symbol: Object.keys(s.instruments).length > 1 ? f.symbol : undefined, l1: f.l1 === true });
    }
  }
  return { sources, markets };
}

/** `streamL2Batches` as event objects (tests, a recording loaded into memory, the index tickers). */
export async function* streamL2Chunks(files: readonly L2FileSpec[], options: { skipBadRows?: boolean } = {}): AsyncGenerator<L2Event[]> {
  for await (const b of streamL2Batches(files, options)) yield eventsOf(b);
}

/** `streamL2Chunks` read into memory (several runs of one recording, tests). */
export async function loadL2Events(files: readonly L2FileSpec[], options: { skipBadRows?: boolean } = {}): Promise<L2Event[]> {
  const out: L2Event[] = [];
  for await (const chunk of streamL2Chunks(files, options)) for (const e of chunk) out.push(e);
  return out;
}

/** Files of one market with the same units open together (a LOBSTER pair, a symbol's depth dumps). */
function groupsOf(files: readonly L2FileSpec[]): L2FileSpec[][] {
  const groups = new Map<string, L2FileSpec[]>();
  for (const f of files) {
    const key = `${f.market} ${f.tickSize} ${f.lotSize} ${f.symbol ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups.values()];
}

/** A file that carries its own units (Arrow, LOBSTER) must agree with the market's. */
function checkUnits(s: RecordSource, f: L2FileSpec): void {
  const own = s.instruments[f.symbol ?? ''] ?? (Object.keys(s.instruments).length === 1 ? Object.values(s.instruments)[0] : undefined);
  if (own === undefined || (own.tickSize === f.tickSize && own.lotSize === f.lotSize)) return;
  throw new ReplayError(s.name, undefined, undefined, `its prices are in steps of ${own.tickSize} and sizes of ${own.lotSize}, the replay expects ${f.tickSize} / ${f.lotSize}`);
}
