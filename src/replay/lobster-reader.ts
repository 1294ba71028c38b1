import type { Side } from '../core/types.ts';
import { ChunkedStream } from './chunked-stream.ts';
import { readCsvBatches, type CsvBatch } from './csv-records.ts';
import { FieldReader } from './fields.ts';
import type { Level } from './levels.ts';
import type { LobsterFiles } from './lobster-files.ts';
import { ReplayError, RowErrors } from './replay-error.ts';

/**
 * Streaming reader of a LOBSTER message file and its orderbook file in lockstep: row k of both
 * is one `LobsterRow` (the event, and the book's top levels after it).
 */

/** 1 new limit order, 2 partial cancel, 3 full delete, 4 visible execution, 5 hidden execution, 6 cross trade, 7 halt. */
export type LobsterEventType = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** One message and the orderbook state after it. */
export interface LobsterRow {
  /** 1-based row number (the line in both files). */
  row: number;
  /** Exact event time: the message's seconds after New York midnight, as UTC ns since the epoch. */
  tsNs: bigint;
  type: LobsterEventType;
  /** LOBSTER's order reference (0 for hidden executions and halts). */
  orderId: number;
  /** Shares (lot = 1 share). */
  size: number;
  /** Dollar price × 10 000 (tick = $0.0001); for halts −1 / 0 / 1 (halt, quoting, resume). */
  priceTicks: number;
  /** The side of the order the message is about: direction 1 = buy ('B'), −1 = sell ('S'). */
  side: Side;
  /** Ask levels after the message, best (lowest) first; dummy levels (price 9999999999, size 0) dropped. */
  asks: Level[];
  /** Bid levels after the message, best (highest) first; dummy levels (price −9999999999, size 0) dropped. */
  bids: Level[];
}

/** Bad-row handling. */
export interface LobsterReadOptions {
  /** Count undecodable rows (of either file; the pair is skipped) in `errors` and go on, instead of throwing. */
  skipBadRows?: boolean;
}

/** The stream of rows plus its bad-row counts (filled while iterating). */
export interface LobsterStream extends ChunkedStream<LobsterRow> {
  readonly errors: RowErrors;
  readonly files: LobsterFiles;
}

/** Dummy price LOBSTER writes for a missing ask level (bids use its negative). */
export const LOBSTER_EMPTY_ASK = 9_999_999_999;

/** Reads the pair row by row; every row is checked (types, directions, level order, dummies). */
export function readLobster(files: LobsterFiles, options: LobsterReadOptions = {}): LobsterStream {
  const errors = new RowErrors(options.skipBadRows ?? false);
  const stream = new ChunkedStream(() => rows(files, errors)) as LobsterStream;
  return Object.assign(stream, { errors, files });
}

/** One side of the lockstep: the current batch of a CSV and the next record in it. */
class Cursor {
  batch: CsvBatch | undefined;
  at = 0;
  private readonly source: AsyncIterator<CsvBatch>;

  constructor(source: AsyncIterable<CsvBatch>) {
    this.source = source[Symbol.asyncIterator]();
  }

  /** Records left in the current batch, refilling when it is used up; 0 at the end of the file. */
  async available(): Promise<number> {
    while (this.batch === undefined || this.at >= this.batch.count) {
      const next = await this.source.next();
      if (next.done === true) return 0;
      this.batch = next.value;
      this.at = 0;
    }
    return this.batch.count - this.at;
  }

  async close(): Promise<void> {
    await this.source.return?.();
  }
}

async function* rows(files: LobsterFiles, errors: RowErrors): AsyncGenerator<LobsterRow[]> {
  const messages = new Cursor(readCsvBatches(files.messages));
  const books = new Cursor(readCsvBatches(files.orderbook));
  const m = new FieldReader(files.messages.name, ['time', 'type', 'order id', 'size', 'price', 'direction']);
  const b = new FieldReader(files.orderbook.name, undefined);
  const width = 4 * files.levels;
  try {
    for (;;) {
      const n = Math.min(await messages.available(), await books.available());
      if (n === 0) {
        const left = (await messages.available()) > 0 ? files.messages.name : (await books.available()) > 0 ? files.orderbook.name : undefined;
        if (left !== undefined) throw new ReplayError(left, undefined, undefined, 'has more rows than the other file of the pair');
        return;
      }
      const out: LobsterRow[] = [];
      for (let i = 0; i < n; i++) {
        try {
          m.at(messages.batch!, messages.at + i, 6);
          b.at(books.batch!, books.at + i, width);
          if (m.line !== b.line) throw new ReplayError(files.orderbook.name, b.line, undefined, `row is on line ${b.line} but its message on line ${m.line} (blank lines?)`);
          out.push(decodeRow(m, b, files));
        } catch (e) {
          if (!(e instanceof ReplayError)) throw e;
          errors.handle(e);
        }
      }
      messages.at += n;
      books.at += n;
      yield out;
    }
  } finally {
    await messages.close();
    await books.close();
  }
}

const MAX_SECONDS_DIGITS = 5; // 86400 s in a day

/** The orderbook row's integers, parsed in one pass (reused: `bookSide` copies them into levels). */
let rowValues = new Float64Array(40);

function decodeRow(m: FieldReader, b: FieldReader, files: LobsterFiles): LobsterRow {
  const width = 4 * files.levels;
  if (rowValues.length < width) rowValues = new Float64Array(width);
  const values = b.integers(0, width, rowValues) ? rowValues : undefined;
  const type = m.integer(1, 'event type');
  if (type < 1 || type > 7) throw m.error(1, `event type ${type} is not 1–7`);
  const direction = m.integer(5, 'direction');
  if (direction !== 1 && direction !== -1) throw m.error(5, `direction ${direction} is not 1 or -1`);
  const size = m.integer(3, 'size');
  const priceTicks = m.integer(4, 'price');
  if (type !== 7 && (size <= 0 || priceTicks <= 0)) throw m.error(size <= 0 ? 3 : 4, `${size <= 0 ? 'size' : 'price'} must be positive`);
  return {
    row: m.line,
    tsNs: files.midnightNs + BigInt(m.secondsAsNs(0, MAX_SECONDS_DIGITS, 'seconds after midnight')),
    type: type as LobsterEventType,
    orderId: m.integer(2, 'order id'),
    size,
    priceTicks,
    side: direction === 1 ? 'B' : 'S',
    asks: bookSide(b, files.levels, 0, LOBSTER_EMPTY_ASK, 1, values),
    bids: bookSide(b, files.levels, 2, -LOBSTER_EMPTY_ASK, -1, values),
  };
}

/**
 * One side of an orderbook row: columns `offset + 4i` (price) and `offset + 4i + 1` (size) for
 * level i. Real levels come first, strictly worse each step (`direction` 1: ascending asks,
 * −1: descending bids), then only dummies (`emptyPrice`, size 0). `values` holds the row's
 * integers when they all parsed in one pass (else each field is read, and named if bad).
 */
function bookSide(b: FieldReader, levels: number, offset: number, emptyPrice: number, direction: number, values: Float64Array | undefined): Level[] {
  const out: Level[] = [];
  for (let i = 0; i < levels; i++) {
    const at = offset + 4 * i;
    const priceTicks = values === undefined ? b.integer(at, 'price') : values[at]!;
    const qtyLots = values === undefined ? b.integer(at + 1, 'size') : values[at + 1]!;
    if (priceTicks === emptyPrice) {
      if (qtyLots !== 0) throw b.error(at + 1, `an empty level (price ${emptyPrice}) must have size 0, got ${qtyLots}`);
      continue;
    }
    if (out.length < i) throw b.error(at, `level ${i + 1} follows an empty level`);
    if (qtyLots <= 0 || priceTicks <= 0) throw b.error(qtyLots <= 0 ? at + 1 : at, 'a level must have a positive price and size');
    const previous = out[i - 1];
    if (previous !== undefined && (priceTicks - previous.priceTicks) * direction <= 0) {
      throw b.error(at, `level ${i + 1} price ${priceTicks} is not ${direction > 0 ? 'above' : 'below'} level ${i}'s ${previous.priceTicks}`);
    }
    out.push({ priceTicks, qtyLots });
  }
  return out;
}
