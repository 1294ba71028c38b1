import { basename } from 'node:path';
import { ArrowReplaySource } from './arrow-source.ts';
import { readBinanceBookTicker, readBinanceDepth } from './binance-dump-csv.ts';
import { binanceBatches } from './binance-batches.ts';
import { readBinanceRaw } from './binance-raw.ts';
import { readBybitOrderbook } from './bybit-orderbook.ts';
import { ChunkedStream } from './chunked-stream.ts';
import { fileSource } from './file-source.ts';
import { readFreqtrade } from './freqtrade-json.ts';
import { openLobster } from './lobster-files.ts';
import { readLobster } from './lobster-reader.ts';
import { readMarketCsv } from './market-csv-reader.ts';
import { ANY_SYMBOL } from './market-arrow.ts';
import { KIND_BOOK, type MarketBatch, type MarketRecord, type SymbolUnits } from './market-records.ts';
import { binanceRecords, lobsterRecords, tardisRecords } from './normalize.ts';
import { ReplayError, type RowErrors } from './replay-error.ts';
import { sniffFile, type Sniffed, type SniffedFormat } from './sniff.ts';
import { readTardisCsv } from './tardis-csv.ts';
import { detectTardisKind } from './tardis-rows.ts';

/**
 * Every readable recording, opened by content as a stream of normalized `MarketRecord`s: the
 * one road from files to records that `perpsim convert`, `facts` and the replays take
 * (`openMarketRecords` in `market-stream.ts` merges the sources into one stream).
 */

/** What a source is, once sniffed: the file formats, with Arrow told apart by its schema. */
export type RecordFormat = Exclude<SniffedFormat, 'arrow' | 'lobster-zip' | 'lobster-message' | 'lobster-orderbook'> | 'lobster' | 'market-records' | 'event-log';

/** Units, symbol and bad-row handling for the files that do not carry them. */
export interface RecordSourceOptions {
  /** Price tick and lot of every symbol of files without units (`--tick-size`, `--lot-size`). */
  units?: SymbolUnits;
  /** Units by symbol when `units` is not given (e.g. the instruments perpsim knows). */
  unitsOf?: (symbol: string) => SymbolUnits | undefined;
  /** The symbol of files that name none (Binance captures and dumps, freqtrade); default: content, else the file name. */
  symbol?: string;
  skipBadRows?: boolean;
  /** The reader's quotes beside a book are ignored (a depth replay): a Binance capture's book tickers are read for their times only. */
  quotesBesideBookUnused?: boolean;
}

/** One opened recording (a LOBSTER pair and a symbol's Binance depth files are one source each). */
export interface RecordSource {
  /** The path, or the paths joined by spaces. */
  name: string;
  paths: string[];
  format: RecordFormat;
  records: ChunkedStream<MarketRecord>;
  /** The same rows as columns, where the format has them (Arrow): a consumer of one source reads these. */
  batches?: () => AsyncGenerator<MarketBatch>;
  /** Units of its symbols (`"*"`: any symbol, for tardis files read with given units). */
  instruments: Record<string, SymbolUnits>;
  errors: RowErrors | undefined;
  /** The symbol its content or name gives, for files of one symbol. */
  symbol?: string;
  /**
   * Tie order at equal times: stats-only sources (tickers, mark, funding) 0, trades 1, books 2
   * — a ticker's mark is in place before the trade and book changes of the same instant.
   */
  priority: number;
  /**
   * Whether its quotes are the book (a bookTicker dump, tardis quotes, an event log: there are
   * no levels) or beside one (`ignore`: a Binance capture's book tickers next to its depth);
   * `auto` for normalized files: the book unless their first batch has book rows.
   */
  quotes: 'book' | 'ignore' | 'auto';
}

/**
 * Opens `paths` as sources, each told by content (`sniffFile`): a missing, unreadable or
 * unknown file is a `ReplayError` naming it before anything is read.
 */
export async function openRecordSources(paths: readonly string[], options: RecordSourceOptions = {}): Promise<RecordSource[]> {
  const sniffed: Sniffed[] = [];
  for (const path of paths) sniffed.push(await sniffFile(path));
  const out: RecordSource[] = [];
  const lobsterFiles = sniffed.filter((s) => s.format === 'lobster-message' || s.format === 'lobster-orderbook');
  const depthBySymbol = new Map<string, Sniffed[]>();
  for (const s of sniffed) {
    if (s.format !== 'binance-depth') continue;
    const symbol = options.symbol ?? s.symbol ?? nameSymbol(s.path);
    depthBySymbol.set(symbol, [...(depthBySymbol.get(symbol) ?? []), s]);
  }
  for (const s of sniffed) {
    if (s.format === 'lobster-message' || s.format === 'lobster-orderbook') {
      // The pair is one source, where its first file was named.
      if (s === lobsterFiles[0]) out.push(await lobsterSource(lobsterFiles.map((f) => f.path), options));
      continue;
    }
    if (s.format === 'binance-depth') {
      const symbol = options.symbol ?? s.symbol ?? nameSymbol(s.path);
      const group = depthBySymbol.get(symbol);
      if (group?.[0] !== s) continue; // opened with the first file of its symbol
      const units = unitsFor(s.path, 'binance-depth', symbol, options);
      const stream = readBinanceDepth(group.map((g) => fileSource(g.path)), { ...units, skipBadRows: options.skipBadRows });
      out.push(source(group.map((g) => g.path), 'binance-depth', stream, { [symbol]: units }, stream.errors, 2, 'ignore'));
      continue;
    }
    out.push(await openOne(s, options));
  }
  return out;
}

async function openOne(s: Sniffed, options: RecordSourceOptions): Promise<RecordSource> {
  const { path } = s;
  const skipBadRows = options.skipBadRows;
  switch (s.format) {
    case 'arrow': {
      const arrow = new ArrowReplaySource(path);
      const info = await arrow.info();
      const batches = () => arrow.batches();
      if (info.format === 'event-log') return { ...source([path], 'event-log', arrow.records(), info.instruments, undefined, 2, 'book'), batches };
      return quotesFromFirstChunk({ ...source([path], 'market-records', arrow.records(), info.instruments, undefined, 2, 'auto'), batches });
    }
    case 'lobster-zip':
      return lobsterSource([path], options);
    case 'tardis': {
      const kind = detectTardisKind(path, s.firstLine.split(','));
      const symbol = s.symbol ?? nameSymbol(path);
      const units = unitsFor(path, 'tardis', symbol, options);
      const stream = readTardisCsv(path, { ...units, skipBadRows });
      const instruments = options.units !== undefined ? { [ANY_SYMBOL]: units } : { [symbol]: units };
      const priority = kind === 'derivative_ticker' ? 0 : kind === 'trades' ? 1 : 2;
      return { ...source([path], 'tardis', tardisRecords(stream), instruments, stream.errors, priority, 'book'), symbol };
    }
    case 'binance-raw': {
      const symbol = options.symbol ?? s.symbol ?? nameSymbol(path);
      const units = unitsFor(path, 'binance-raw', symbol, options);
      const stream = readBinanceRaw(path, { ...units, skipBadRows, tickerTimesOnly: options.quotesBesideBookUnused === true, packedLevels: true });
      // Columns too: a replay of the capture alone reads them, with no object per level.
      return { ...source([path], 'binance-raw', binanceRecords(stream, symbol), { [symbol]: units }, stream.errors, 2, 'ignore'), batches: () => binanceBatches(stream, symbol) };
    }
    case 'binance-bookticker': {
      const symbol = options.symbol ?? nameSymbol(path);
      const units = unitsFor(path, 'binance-bookticker', symbol, options);
      const stream = readBinanceBookTicker(fileSource(path), symbol, { ...units, skipBadRows });
      return source([path], 'binance-bookticker', stream, { [symbol]: units }, stream.errors, 2, 'book');
    }
    case 'perpsim-csv': {
      // Several symbols may share the file: each one's units as the first row of it comes.
      const symbol = s.symbol ?? nameSymbol(path);
      const units = unitsFor(path, 'perpsim-csv', symbol, options);
      const stream = readMarketCsv(fileSource(path), (sym) => options.units ?? options.unitsOf?.(sym), { skipBadRows });
      const instruments = options.units !== undefined ? { [ANY_SYMBOL]: units } : { [symbol]: units };
      return quotesFromFirstChunk({ ...source([path], 'perpsim-csv', stream, instruments, stream.errors, 2, 'auto'), symbol });
    }
    case 'bybit-orderbook': {
      const symbol = s.symbol ?? nameSymbol(path);
      const units = unitsFor(path, 'bybit-orderbook', symbol, options);
      const stream = readBybitOrderbook(fileSource(path), { ...units, skipBadRows });
      return source([path], 'bybit-orderbook', stream, { [symbol]: units }, stream.errors, 2, 'ignore');
    }
    case 'freqtrade-mark':
    case 'freqtrade-funding': {
      const symbol = options.symbol ?? nameSymbol(path);
      const units = unitsFor(path, s.format, symbol, options);
      const stream = readFreqtrade(fileSource(path), s.format === 'freqtrade-mark' ? 'mark' : 'funding', symbol, { skipBadRows });
      return source([path], s.format, stream, { [symbol]: units }, stream.errors, 0, 'ignore');
    }
    default:
      throw new ReplayError(path, undefined, undefined, `a ${s.format} file must be given with its pair`);
  }
}

async function lobsterSource(paths: string[], options: RecordSourceOptions): Promise<RecordSource> {
  const files = await openLobster(paths);
  const stream = readLobster(files, { skipBadRows: options.skipBadRows });
  return source(paths, 'lobster', lobsterRecords(stream), { [files.ticker]: { tickSize: '0.0001', lotSize: '1' } }, stream.errors, 2, 'ignore');
}

function source(paths: string[], format: RecordFormat, records: ChunkedStream<MarketRecord>, instruments: Record<string, SymbolUnits>, errors: RowErrors | undefined, priority: number, quotes: RecordSource['quotes']): RecordSource {
  return { name: paths.join(' '), paths, format, records, instruments, errors, priority, quotes };
}

/** An `auto` source's quotes are the book unless its first chunk has book rows (decided as it is read, rows or columns). */
function quotesFromFirstChunk(s: RecordSource): RecordSource {
  const inner = s.records;
  s.records = new ChunkedStream(async function* () {
    let first = true;
    for await (const chunk of inner.chunks()) {
      if (first && chunk.length > 0) {
        first = false;
        s.quotes = chunk.some((r) => r.kind === 'book') ? 'ignore' : 'book';
      }
      yield chunk;
    }
  });
  const columns = s.batches;
  if (columns !== undefined) {
    s.batches = async function* () {
      let first = true;
      for await (const b of columns()) {
        if (first && b.length > 0) {
          first = false;
          s.quotes = b.kind.subarray(0, b.length).includes(KIND_BOOK) ? 'ignore' : 'book';
        }
        yield b;
      }
    };
  }
  return s;
}

function unitsFor(path: string, format: RecordFormat, symbol: string, options: RecordSourceOptions): SymbolUnits {
  const units = options.units ?? options.unitsOf?.(symbol);
  if (units === undefined) throw new ReplayError(path, undefined, undefined, `${format} prices and sizes are decimal text and ${symbol} has no known units: give --tick-size and --lot-size`);
  return units;
}

/**
 * The symbol a file name carries, for formats whose content names none: hftbacktest
 * `btcusdt_20240808.gz` → BTCUSDT, `btcusd_perp_20240808.gz` → BTCUSD_PERP; Binance dumps
 * `BTCUSDT-bookTicker-2023-10-02.csv` → BTCUSDT; freqtrade `XRP_USDT_USDT-1h-mark.json` →
 * XRPUSDT (base and quote of the pair).
 */
export function nameSymbol(path: string): string {
  const name = basename(path).replace(/(\.(csv|gz|zip|json|data|txt))+$/gi, '');
  const head = name.split('-')[0]!;
  const pair = /^([A-Z0-9]+)_([A-Z0-9]+)_[A-Z0-9]+$/.exec(head);
  if (pair !== null) return `${pair[1]}${pair[2]}`;
  return head.replace(/_\d{8}$/, '').toUpperCase();
}
