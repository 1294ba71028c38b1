import type { SymbolUnits } from './market-records.ts';
import { openRecordSources, type RecordFormat, type RecordSource } from './open-records.ts';
import { ReplayError } from './replay-error.ts';

/**
 * Any supported recording as normalized market records, with an optional format check: what
 * `perpsim convert` and `perpsim facts` read. Files are told by content (`open-records.ts`);
 * a format named with `--from` must be what the content says.
 */

export const SOURCE_FORMATS = ['tardis', 'binance', 'lobster', 'perpsim', 'recording', 'arrow'] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

/** What each `--from` name accepts. */
const ACCEPTS: Record<SourceFormat, readonly RecordFormat[]> = {
  tardis: ['tardis'],
  binance: ['binance-raw'],
  lobster: ['lobster'],
  perpsim: ['event-log'],
  recording: ['market-records', 'perpsim-csv'],
  arrow: ['market-records', 'event-log'],
};

/** Units and bad-row handling for the formats whose files do not carry them. */
export interface SourceOptions {
  /** Price tick and lot size (tardis, Binance, Bybit): the files have decimal text only. */
  tickSize?: string | undefined;
  lotSize?: string | undefined;
  /** Files that name no symbol: default from the content, else the file name (`btcusdt_20240808.gz` → `BTCUSDT`). */
  symbol?: string | undefined;
  skipBadRows?: boolean | undefined;
  /** Quotes beside a book are not read (an L2 replay's road: a raw Binance capture's book tickers for their times only). */
  quotesBesideBookUnused?: boolean | undefined;
}

/** One opened input: its records, the units of its symbols, and its bad-row counts. */
export type MarketSource = RecordSource;

/**
 * Opens `paths` as sources (a LOBSTER pair or zip is one source, a symbol's Binance depth
 * dumps one, every other file its own), each told by content; with `format`, a file of another
 * format is an error naming both.
 */
export async function openMarketSources(paths: readonly string[], format: SourceFormat | undefined, options: SourceOptions): Promise<MarketSource[]> {
  const { tickSize, lotSize } = options;
  const units: SymbolUnits | undefined = tickSize !== undefined && lotSize !== undefined ? { tickSize, lotSize } : undefined;
  const sources = await openRecordSources(paths, {
    ...(units !== undefined ? { units } : {}),
    ...(options.symbol !== undefined ? { symbol: options.symbol } : {}),
    skipBadRows: options.skipBadRows ?? false,
    ...(options.quotesBesideBookUnused === true ? { quotesBesideBookUnused: true } : {}),
  });
  if (format !== undefined) {
    for (const s of sources) {
      if (!ACCEPTS[format].includes(s.format)) throw new ReplayError(s.name, undefined, undefined, `--from ${format}, but the content is ${s.format}`);
    }
  }
  return sources;
}
