import { basename } from 'node:path';
import { ArrowReplaySource } from './arrow-source.ts';
import { readBinanceRaw } from './binance-raw.ts';
import type { ChunkedStream } from './chunked-stream.ts';
import { fileHead, fileSource } from './file-source.ts';
import { openLobster } from './lobster-files.ts';
import { readLobster } from './lobster-reader.ts';
import { ANY_SYMBOL } from './market-arrow.ts';
import type { MarketRecord, SymbolUnits } from './market-records.ts';
import { binanceRecords, lobsterRecords, tardisRecords } from './normalize.ts';
import { ReplayError, RowErrors } from './replay-error.ts';
import { readTardisCsv } from './tardis-csv.ts';

/**
 * Any supported recording as normalized market records, by format name or by looking at the
 * files: what `perpsim convert` reads, and what anything that replays "a file of any kind"
 * can use.
 */

export const SOURCE_FORMATS = ['tardis', 'binance', 'lobster', 'perpsim', 'recording', 'arrow'] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

/** Units and bad-row handling for the formats whose files do not carry them. */
export interface SourceOptions {
  /** Price tick and lot size (tardis, Binance): the files have decimal text only. */
  tickSize?: string;
  lotSize?: string;
  /** Binance captures name no symbol: default from the file name (`btcusdt_20240808.gz` → `BTCUSDT`). */
  symbol?: string;
  skipBadRows?: boolean;
}

/** One opened input: its records, the units of its symbols, and its bad-row counts. */
export interface MarketSource {
  name: string;
  format: SourceFormat;
  records: ChunkedStream<MarketRecord>;
  instruments: Record<string, SymbolUnits>;
  /** Readers with a `--skip-bad-rows` count. */
  errors: RowErrors | undefined;
}

/**
 * Opens `paths` as sources: a LOBSTER pair (or its zip) is one source, every other file its
 * own. `format` undefined: told per file (Arrow magic, LOBSTER names, a Binance capture's
 * `<ns> {` lines, else a tardis CSV, whose header must then match).
 */
export async function openMarketSources(paths: readonly string[], format: SourceFormat | undefined, options: SourceOptions): Promise<MarketSource[]> {
  if (format === 'lobster' || (format === undefined && paths.length <= 2 && paths.every(isLobsterName))) {
    const files = await openLobster(paths);
    const stream = readLobster(files, { skipBadRows: options.skipBadRows });
    return [{ name: paths.join(' '), format: 'lobster', records: lobsterRecords(stream), instruments: { [files.ticker]: { tickSize: '0.0001', lotSize: '1' } }, errors: stream.errors }];
  }
  const out: MarketSource[] = [];
  for (const path of paths) out.push(await openOne(path, format ?? (await detect(path)), options));
  return out;
}

async function openOne(path: string, format: SourceFormat, options: SourceOptions): Promise<MarketSource> {
  if (format === 'lobster') throw new ReplayError(path, undefined, undefined, 'a LOBSTER input is a zip or a message + orderbook pair on its own');
  if (format === 'perpsim' || format === 'recording' || format === 'arrow') {
    const source = new ArrowReplaySource(path);
    const info = await source.info();
    const expected = format === 'perpsim' ? 'event-log' : format === 'recording' ? 'market-records' : info.format;
    if (info.format !== expected) throw new ReplayError(path, undefined, undefined, `a ${info.format} file, not ${format === 'perpsim' ? 'a perpsim event log' : 'a recording'}`);
    return { name: path, format, records: source.records(), instruments: info.instruments, errors: undefined };
  }
  const { tickSize, lotSize } = options;
  if (tickSize === undefined || lotSize === undefined) throw new ReplayError(path, undefined, undefined, `${format} prices and sizes are decimal text: give --tick-size and --lot-size`);
  const units = { tickSize, lotSize };
  if (format === 'binance') {
    const stream = readBinanceRaw(path, { tickSize, lotSize, skipBadRows: options.skipBadRows });
    const symbol = options.symbol ?? basename(path).split(/[_.]/)[0]!.toUpperCase();
    return { name: path, format, records: binanceRecords(stream, symbol), instruments: { [symbol]: units }, errors: stream.errors };
  }
  const stream = readTardisCsv(path, { tickSize, lotSize, skipBadRows: options.skipBadRows });
  return { name: path, format, records: tardisRecords(stream), instruments: { [ANY_SYMBOL]: units }, errors: stream.errors };
}

function isLobsterName(path: string): boolean {
  const name = basename(path);
  return /_(message|orderbook)_\d+\.csv(\.gz)?$/i.test(name) || /^LOBSTER.*\.zip$/i.test(name);
}

/** Arrow by its magic; a Binance capture by its first line (`<digits> {`); else tardis. */
async function detect(path: string): Promise<SourceFormat> {
  if ((await fileHead(path, 6)).toString('latin1') === 'ARROW1') return 'arrow';
  for await (const chunk of fileSource(path).open()) {
    return /^\d+ \{/.test(chunk.toString('latin1', 0, 64)) ? 'binance' : 'tardis';
  }
  return 'tardis';
}
