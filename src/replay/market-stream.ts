import type { MarketRecord, SymbolUnits } from './market-records.ts';
import { openRecordSources, type RecordSource, type RecordSourceOptions } from './open-records.ts';
import { ReplayError } from './replay-error.ts';

/**
 * The one entry point from recordings to a replay: `openMarketRecords(paths)` opens every file
 * by content (any readable format, several at once) and yields one time-ordered stream of
 * normalized `MarketRecord`s in batches, pulled as the consumer asks (a file is never read
 * whole). Ties are deterministic: at equal times by source priority (tickers, then trades,
 * then books), then in the order the paths were given, then in file order.
 */

/** Which time orders the merged stream. */
export type RecordOrder = 'exchange' | 'receive';

export interface MarketRecordsOptions extends RecordSourceOptions {
  /** `exchange` (default; what a replay plays at) or `receive` (what a recorder saw, as `convert` writes). */
  order?: RecordOrder;
  /** Records per batch at most (default 4096). */
  batchRecords?: number;
}

/**
 * A batch of the merged stream: `records[i]` came from `sources[source[i]]` and plays at
 * `timeNs[i]` — its exchange (or receive) time, held level where a source's times step back
 * (buffered messages), so times never decrease. Book rows that share receive and exchange
 * time (one message) are never split by another source's records.
 */
export interface RecordBatch {
  records: MarketRecord[];
  source: number[];
  timeNs: bigint[];
}

/** The opened sources and their merged stream; each `batches()` pass reads the files anew. */
export interface MarketRecords {
  sources: RecordSource[];
  /** Units of every symbol (the same symbol with other units in two files is an error). */
  instruments: Record<string, SymbolUnits>;
  batches(): AsyncGenerator<RecordBatch>;
}

/** Opens `paths` (see `openRecordSources`) and merges them. */
export async function openMarketRecords(paths: readonly string[], options: MarketRecordsOptions = {}): Promise<MarketRecords> {
  const sources = await openRecordSources(paths, options);
  const order = options.order ?? 'exchange';
  const size = options.batchRecords ?? 4096;
  return { sources, instruments: unionOf(sources), batches: () => mergeSources(sources, order, size) };
}

/** One source's read position: its current chunk and the time of the record at `at`. */
interface Cursor {
  stream: number;
  priority: number;
  chunks: AsyncIterator<MarketRecord[]>;
  chunk: MarketRecord[];
  at: number;
  timeNs: bigint;
  /** The last time handed out (times are held level, never decrease). */
  floorNs: bigint;
}

/** Before any time: where a source's held time starts. */
export const MIN_TIME_NS = -(1n << 62n);

/** Merges sources already opened (as `openMarketRecords` does), for callers that open them with their own options. */
export async function* mergeSources(sources: readonly RecordSource[], order: RecordOrder = 'exchange', size = 4096): AsyncGenerator<RecordBatch> {
  const timeOf = order === 'exchange' ? (r: MarketRecord) => r.exchNs : (r: MarketRecord) => r.recvNs;
  const cursors: Cursor[] = sources.map((s, stream) => ({ stream, priority: s.priority, chunks: s.records.chunks()[Symbol.asyncIterator](), chunk: [], at: 0, timeNs: 0n, floorNs: MIN_TIME_NS }));
  const timeAt = (c: Cursor): void => {
    const t = timeOf(c.chunk[c.at]!);
    c.timeNs = t < c.floorNs ? c.floorNs : t;
    c.floorNs = c.timeNs;
  };
  /** Refills an exhausted cursor from its source (the only await: once per chunk, not per record); false at its end. */
  const refill = async (c: Cursor): Promise<boolean> => {
    while (c.at >= c.chunk.length) {
      const r = await c.chunks.next();
      if (r.done === true) return false;
      c.chunk = r.value;
      c.at = 0;
    }
    timeAt(c);
    return true;
  };
  const heap: Cursor[] = [];
  try {
    for (const c of cursors) if (await refill(c)) push(heap, c);
    let batch: RecordBatch = { records: [], source: [], timeNs: [] };
    while (heap.length > 0) {
      const c = heap[0]!;
      batch.records.push(c.chunk[c.at]!);
      batch.source.push(c.stream);
      batch.timeNs.push(c.timeNs);
      // Most steps take the next record of the same source: re-seat it rather than pop and push.
      if (++c.at < c.chunk.length) {
        timeAt(c);
        if (heap.length > 1) siftDown(heap, 0);
      } else if (await refill(c)) siftDown(heap, 0);
      else pop(heap);
      if (batch.records.length >= size) {
        yield batch;
        batch = { records: [], source: [], timeNs: [] };
      }
    }
    if (batch.records.length > 0) yield batch;
  } finally {
    for (const c of cursors) await c.chunks.return?.();
  }
}

function before(a: Cursor, b: Cursor): boolean {
  if (a.timeNs !== b.timeNs) return a.timeNs < b.timeNs;
  if (a.priority !== b.priority) return a.priority < b.priority;
  return a.stream < b.stream;
}

function push(heap: Cursor[], c: Cursor): void {
  let i = heap.length;
  heap.push(c);
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!before(heap[i]!, heap[parent]!)) break;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
}

function pop(heap: Cursor[]): void {
  const last = heap.pop()!;
  if (heap.length === 0) return;
  heap[0] = last;
  siftDown(heap, 0);
}

function siftDown(heap: Cursor[], from: number): void {
  for (let i = from; ; ) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
    if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
    if (m === i) return;
    [heap[i], heap[m]] = [heap[m]!, heap[i]!];
    i = m;
  }
}

/** The units of every source's symbols; one symbol with two different units is an error. */
export function unionOf(sources: readonly RecordSource[]): Record<string, SymbolUnits> {
  const out: Record<string, SymbolUnits> = {};
  for (const s of sources) {
    for (const [symbol, units] of Object.entries(s.instruments)) {
      const known = out[symbol];
      if (known !== undefined && (known.tickSize !== units.tickSize || known.lotSize !== units.lotSize)) {
        throw new ReplayError(s.name, undefined, undefined, `${symbol} has tick ${units.tickSize} / lot ${units.lotSize} here but ${known.tickSize} / ${known.lotSize} in another input`);
      }
      out[symbol] = units;
    }
  }
  return out;
}
