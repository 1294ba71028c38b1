import { TickSize } from '../core/price.ts';
import type { ByteSource } from './byte-source.ts';
import { fileSource } from './file-source.ts';
import { ChunkedStream } from './chunked-stream.ts';
import { readCsvBatches, recordFields } from './csv-records.ts';
import { FieldReader } from './fields.ts';
import { ReplayError, RowErrors } from './replay-error.ts';
import {
  detectTardisKind,
  tardisDecoder,
  type TardisBookSnapshot,
  type TardisBookUpdate,
  type TardisDerivativeTicker,
  type TardisKind,
  type TardisQuote,
  type TardisRowOf,
  type TardisTrade,
} from './tardis-rows.ts';

/**
 * Streaming reader of tardis.dev CSV files (plain or gzipped): rows are grouped into batches
 * that share one `local_timestamp` (the receipt time), because that is what a client saw at
 * once and must apply together. For incremental_book_L2 a batch never spans the start of a
 * snapshot: a batch whose first row starts a snapshot (is_snapshot true after non-snapshot
 * rows, or at the top of the file) has `reset` set — clear the book, then apply the rows.
 */

/** Rows of one kind received together. */
export interface TardisBatch<R> {
  kind: TardisKind;
  /** The rows' `symbol` (a batch never mixes symbols). */
  symbol: string;
  /** Receipt time shared by the rows (`local_timestamp`), exact ns. */
  localTsNs: bigint;
  /** incremental_book_L2 only: the rows start a full snapshot, so clear the book first. */
  reset: boolean;
  rows: R[];
  /** 1-based line of the first row. */
  line: number;
}

/** A batch of any kind, discriminated by `kind`. */
export type TardisAnyBatch = { [K in TardisKind]: TardisBatch<TardisRowOf[K]> & { kind: K } }[TardisKind];

/** Instrument units, bad-row handling and the expected kind. */
export interface TardisReadOptions {
  /** Price tick as decimal text (`"0.01"`) or a `TickSize`; prices off the grid are errors. */
  tickSize: string | TickSize;
  /** Lot size (smallest amount step), e.g. `"0.001"` BTC or `"1"` contract; amounts off it are errors. */
  lotSize: string | TickSize;
  /** Count undecodable rows in `errors` and go on, instead of throwing. */
  skipBadRows?: boolean;
  /** When set, a file of another kind is an error (line 1). */
  kind?: TardisKind;
}

/** The stream of batches plus its bad-row counts (filled while iterating). */
export interface TardisStream<B> extends ChunkedStream<B> {
  readonly errors: RowErrors;
}

/** Reads any tardis CSV kind, told by its header. */
export function readTardisCsv(source: string | ByteSource, options: TardisReadOptions): TardisStream<TardisAnyBatch> {
  const bytes = typeof source === 'string' ? fileSource(source) : source;
  const errors = new RowErrors(options.skipBadRows ?? false);
  const units = { tick: asStep(options.tickSize), lot: asStep(options.lotSize) };
  const stream = new ChunkedStream(() => batches(bytes, units, options.kind, errors)) as TardisStream<TardisAnyBatch>;
  return Object.assign(stream, { errors });
}

type Reader<R> = (source: string | ByteSource, options: Omit<TardisReadOptions, 'kind'>) => TardisStream<TardisBatch<R>>;
const typed = <R>(kind: TardisKind): Reader<R> => (source, options) => readTardisCsv(source, { ...options, kind }) as never;

/** incremental_book_L2 batches (with `reset` at snapshot starts). */
export const readTardisBookUpdates: Reader<TardisBookUpdate> = typed('incremental_book_L2');
/** trades batches. */
export const readTardisTrades: Reader<TardisTrade> = typed('trades');
/** quotes batches. */
export const readTardisQuotes: Reader<TardisQuote> = typed('quotes');
/** book_snapshot_N batches (any N). */
export const readTardisBookSnapshots: Reader<TardisBookSnapshot> = typed('book_snapshot');
/** derivative_ticker batches. */
export const readTardisDerivativeTickers: Reader<TardisDerivativeTicker> = typed('derivative_ticker');

function asStep(step: string | TickSize): TickSize {
  return typeof step === 'string' ? new TickSize(step) : step;
}

const SYMBOL = 1;
const LOCAL_TS = 3;
const IS_SNAPSHOT = 4;

async function* batches(
  source: ByteSource,
  units: { tick: TickSize; lot: TickSize },
  expected: TardisKind | undefined,
  errors: RowErrors,
): AsyncGenerator<TardisAnyBatch[]> {
  let header: string[] | undefined;
  let decode: ((f: FieldReader) => unknown) | undefined;
  let kind: TardisKind = 'trades';
  let reader = new FieldReader(source.name, undefined);
  let open: TardisAnyBatch | undefined;
  let openUs = -1;
  let openSymbol = '';
  let lastWasSnapshot = false;
  for await (const batch of readCsvBatches(source)) {
    const done: TardisAnyBatch[] = [];
    for (let r = 0; r < batch.count; r++) {
      if (header === undefined) {
        header = recordFields(batch, r);
        kind = detectTardisKind(source.name, header);
        if (expected !== undefined && kind !== expected) {
          throw new ReplayError(source.name, batch.lines[r], undefined, `expected a tardis ${expected} file, the header is ${kind}`);
        }
        reader = new FieldReader(source.name, header);
        decode = tardisDecoder(kind, header, units);
        continue;
      }
      let row: unknown;
      let localUs: number;
      try {
        reader.at(batch, r, header.length);
        localUs = reader.micros(LOCAL_TS, 'local_timestamp');
        if (localUs < openUs) throw reader.error(LOCAL_TS, `local_timestamp ${localUs} is before the previous row's ${openUs}`);
        row = decode!(reader);
      } catch (e) {
        if (!(e instanceof ReplayError)) throw e;
        errors.handle(e);
        continue;
      }
      const isSnapshot = kind === 'incremental_book_L2' && reader.is(IS_SNAPSHOT, 'true');
      const startsSnapshot = isSnapshot && !lastWasSnapshot;
      lastWasSnapshot = isSnapshot;
      const sameSymbol = reader.is(SYMBOL, openSymbol);
      if (open !== undefined && localUs === openUs && !startsSnapshot && sameSymbol) {
        (open.rows as unknown[]).push(row);
        continue;
      }
      if (open !== undefined) done.push(open);
      if (!sameSymbol) openSymbol = reader.field(SYMBOL);
      open = { kind, symbol: openSymbol, localTsNs: BigInt(localUs) * 1000n, reset: startsSnapshot, rows: [row], line: reader.line } as TardisAnyBatch;
      openUs = localUs;
    }
    if (done.length > 0) yield done;
  }
  if (header === undefined) throw new ReplayError(source.name, undefined, undefined, 'empty file (no header)');
  if (open !== undefined) yield [open];
}
