import type { RecordBatch } from 'apache-arrow';
import { EventLogFileWriter } from '../sim-io/event-log-file.ts';
import { codesInto, columnData, dictionaryWords, mapCodesInto, textAt } from './arrow-columns.ts';
import { LazyMarketBatch } from './lazy-market-batch.ts';
import { MarketColumns, parseStats } from './market-arrow-columns.ts';
import { MARKET_KINDS, type MarketBatch, type MarketRecord, type SymbolUnits } from './market-records.ts';
import { ReplayError } from './replay-error.ts';

/** The `instruments` key whose units apply to every symbol not listed by name. */
export const ANY_SYMBOL = '*';

/** The units of `symbol` in an instruments map (by name, else `"*"`). */
export function unitsOf(instruments: Readonly<Record<string, SymbolUnits>>, symbol: string): SymbolUnits | undefined {
  return instruments[symbol] ?? instruments[ANY_SYMBOL];
}

/** Rows per record batch unless told otherwise (as the event log). */
export const MARKET_BATCH_ROWS = 65_536;

/** What a normalized file holds and where it came from. */
export interface MarketArrowOptions {
  /** Units of every symbol the file will hold, or of `"*"` (any symbol); a symbol not covered is an error on `add`. */
  instruments: Readonly<Record<string, SymbolUnits>>;
  /** `perpsim.source` metadata, e.g. `tardis`, `recording ws://…`. */
  source: string;
  /** Rows per batch (default 65,536). */
  batchRows?: number;
}

/**
 * Writes normalized records to an Arrow IPC file, a record batch whenever `batchRows` rows are
 * pending or `flush()` is called: each batch is on disk when `add` / `flush` returns. Until
 * `close()` writes the footer the file is a readable Arrow stream after the 8-byte file magic
 * (`openReplayArrow` reads such a file up to its last complete batch).
 */
export class MarketArrowWriter {
  private readonly file: EventLogFileWriter;
  private readonly columns: MarketColumns;
  private readonly symbols: ReadonlySet<string>;
  private batches = 0;
  /** Rows added so far. */
  rows = 0;

  constructor(
    readonly path: string,
    options: MarketArrowOptions,
  ) {
    this.columns = new MarketColumns(options.batchRows ?? MARKET_BATCH_ROWS, options.instruments, options.source);
    this.symbols = new Set(Object.keys(options.instruments));
    this.file = new EventLogFileWriter(path);
  }

  add(r: MarketRecord): void {
    if (!this.symbols.has(r.symbol) && !this.symbols.has(ANY_SYMBOL)) throw new RangeError(`${this.path}: symbol ${r.symbol} has no units (give its tick and lot size)`);
    this.columns.add(r);
    this.rows++;
    if (this.columns.full) this.flush();
  }

  /** Writes the pending rows (if any) as one batch. */
  flush(): void {
    if (this.columns.rows === 0) return;
    this.file.write(this.columns.finish());
    this.batches++;
  }

  /** Flushes, writes the footer and closes the file (an empty file still gets its schema). */
  close(): void {
    if (this.columns.rows > 0 || this.batches === 0) this.file.write(this.columns.finish());
    this.file.close();
  }

  get bytesWritten(): number {
    return this.file.bytesWritten;
  }
}

/** Where the lazily decoded columns are in a normalized file. */
const MARKET_COLUMNS = { reset: 'reset', side: 'side', price: 'price_ticks', qty: 'qty_lots', bid: 'bid_ticks', bidQty: 'bid_qty', ask: 'ask_ticks', askQty: 'ask_qty' };

/**
 * Decodes record batches of a normalized file into one reused `MarketBatch`. Times, symbols and
 * kinds are decoded for every batch; the other columns only when the consumer first reads them
 * (a quote replay never pays for the book columns).
 */
export class MarketBatchDecoder {
  private readonly out = new LazyMarketBatch(MARKET_COLUMNS);
  private words: string[] = [];
  private rowsBefore = 0;

  constructor(private readonly file: string) {}

  decode(batch: RecordBatch): MarketBatch {
    const n = batch.numRows;
    const b = this.out.load(batch, n);
    const col = (name: string) => columnData(batch, name);
    const tradeId = col('trade_id');
    b.tradeId = (row) => textAt(tradeId, row);
    const stats = col('stats');
    b.stats = (row) => parseStats(textAt(stats, row));
    const recv = col('recv_ns');
    const exch = col('exch_ns');
    if (!(recv?.values instanceof BigInt64Array) || !(exch?.values instanceof BigInt64Array)) {
      throw new ReplayError(this.file, undefined, 'recv_ns', 'not a market-records file: recv_ns / exch_ns must be int64');
    }
    b.recvNs.set(recv.values.subarray(recv.offset, recv.offset + n));
    b.exchNs.set(exch.values.subarray(exch.offset, exch.offset + n));
    const symbol = col('symbol');
    const words = dictionaryWords(symbol);
    if (words.length !== this.words.length) this.words = words;
    b.symbols = this.words;
    codesInto(symbol, n, b.symbol);
    const kind = col('kind');
    mapCodesInto(kind, n, dictionaryWords(kind).map((w) => MARKET_KINDS.indexOf(w as never)), 255, b.kind);
    const bad = b.kind.subarray(0, n).indexOf(255);
    if (bad >= 0) throw new ReplayError(this.file, undefined, 'kind', `row ${this.rowsBefore + bad} (from 0) has an unknown or null kind`);
    this.rowsBefore += n;
    return b;
  }
}

/** The `perpsim.instruments` metadata of a normalized file. */
export function instrumentsOf(file: string, metadata: ReadonlyMap<string, string>): Record<string, SymbolUnits> {
  try {
    const raw = JSON.parse(metadata.get('perpsim.instruments') ?? '{}') as Record<string, { tick_size: string; lot_size: string }>;
    return Object.fromEntries(Object.entries(raw).map(([s, u]) => [s, { tickSize: String(u.tick_size), lotSize: String(u.lot_size) }]));
  } catch {
    throw new ReplayError(file, undefined, undefined, 'perpsim.instruments metadata is not JSON');
  }
}
