import { basename } from 'node:path';
import type { ByteSource } from './byte-source.ts';
import { fileSource } from './file-source.ts';
import { ReplayError } from './replay-error.ts';
import { listZipEntries, zipEntrySource } from './zip.ts';

/**
 * Finding a LOBSTER message / orderbook pair: from the sample zip, or from the two CSVs, and
 * what their names say (`GOOG_2012-06-21_34200000_57600000_message_10.csv`: ticker, trading
 * date, window in ms after midnight, number of levels).
 */

const NAME = /^([A-Za-z0-9.^-]+)_(\d{4})-(\d{2})-(\d{2})_(\d+)_(\d+)_(message|orderbook)_(\d+)\.csv$/;

/** A message file and its orderbook file, with what their names say. */
export interface LobsterFiles {
  ticker: string;
  /** Trading date, `YYYY-MM-DD` (exchange local). */
  date: string;
  /** Levels per side in the orderbook file (the L of `_orderbook_L.csv`). */
  levels: number;
  /** Midnight of the trading date in New York, as ns since the Unix epoch (UTC). */
  midnightNs: bigint;
  messages: ByteSource;
  orderbook: ByteSource;
}

interface ParsedName {
  ticker: string;
  date: string;
  year: number;
  month: number;
  day: number;
  kind: 'message' | 'orderbook';
  levels: number;
}

function parseName(name: string): ParsedName | undefined {
  const m = NAME.exec(basename(name));
  if (m === null) return undefined;
  return {
    ticker: m[1]!,
    date: `${m[2]}-${m[3]}-${m[4]}`,
    year: Number(m[2]),
    month: Number(m[3]),
    day: Number(m[4]),
    kind: m[7] as 'message' | 'orderbook',
    levels: Number(m[8]),
  };
}

/**
 * The message / orderbook pair in `paths`: one LOBSTER zip, or the two CSVs (plain or gzipped,
 * named as LOBSTER names them, in either order).
 *
 * @throws ReplayError when the files are missing, misnamed, or do not belong together.
 */
export async function openLobster(paths: readonly string[]): Promise<LobsterFiles> {
  if (paths.length === 1 && paths[0]!.toLowerCase().endsWith('.zip')) return openZip(paths[0]!);
  if (paths.length !== 2) {
    throw new ReplayError(paths.join(' '), undefined, undefined, 'give a LOBSTER .zip, or the message and orderbook CSV files');
  }
  const named = paths.map((p) => {
    const parsed = parseName(p.replace(/\.gz$/i, ''));
    if (parsed === undefined) throw new ReplayError(p, undefined, undefined, 'not a LOBSTER file name (TICKER_YYYY-MM-DD_start_end_message|orderbook_L.csv)');
    return { parsed, source: fileSource(p) };
  });
  return pair(named[0]!, named[1]!);
}

async function openZip(path: string): Promise<LobsterFiles> {
  const found = [];
  for (const entry of await listZipEntries(path)) {
    const parsed = parseName(entry.name);
    if (parsed !== undefined) found.push({ parsed, source: zipEntrySource(path, entry) });
  }
  if (found.length !== 2) {
    throw new ReplayError(path, undefined, undefined, `expected one message and one orderbook CSV in the zip, found ${found.length} LOBSTER files`);
  }
  return pair(found[0]!, found[1]!);
}

function pair(a: { parsed: ParsedName; source: ByteSource }, b: { parsed: ParsedName; source: ByteSource }): LobsterFiles {
  const [message, book] = a.parsed.kind === 'message' ? [a, b] : [b, a];
  const m = message.parsed;
  const o = book.parsed;
  if (m.kind !== 'message' || o.kind !== 'orderbook' || m.ticker !== o.ticker || m.date !== o.date || m.levels !== o.levels) {
    throw new ReplayError(`${a.source.name} ${b.source.name}`, undefined, undefined, 'not a message file and the orderbook file of the same ticker, date and levels');
  }
  if (m.levels < 1) throw new ReplayError(message.source.name, undefined, undefined, 'levels must be at least 1');
  return {
    ticker: m.ticker,
    date: m.date,
    levels: m.levels,
    midnightNs: newYorkMidnightNs(m.year, m.month, m.day),
    messages: message.source,
    orderbook: book.source,
  };
}

const NS_PER_MINUTE = 60_000_000_000n;
const NS_PER_DAY = 86_400_000_000_000n;

/**
 * Midnight of a date in New York (LOBSTER times are seconds after local midnight) as UTC ns:
 * UTC−4 during daylight saving time, UTC−5 otherwise. The switch happens at 02:00 local, so
 * for trading hours the date alone decides. US rules: since 2007 from the second Sunday of
 * March to the first Sunday of November; 1987–2006 from the first Sunday of April to the last
 * Sunday of October.
 *
 * @throws RangeError for dates before 1987 (other rules).
 */
export function newYorkMidnightNs(year: number, month: number, day: number): bigint {
  if (year < 1987) throw new RangeError(`no New York daylight-saving rule for ${year} (before 1987)`);
  const [startMonth, startDay, endMonth, endDay] =
    year >= 2007
      ? [3, nthSunday(year, 3, 2), 11, nthSunday(year, 11, 1)]
      : [4, nthSunday(year, 4, 1), 10, lastSunday(year, 10)];
  const key = month * 100 + day;
  const daylight = key >= startMonth * 100 + startDay && key < endMonth * 100 + endDay;
  const offsetMinutes = daylight ? 240n : 300n;
  return BigInt(daysFromCivil(year, month, day)) * NS_PER_DAY + offsetMinutes * NS_PER_MINUTE;
}

/** Day of month of the n-th Sunday. */
function nthSunday(year: number, month: number, n: number): number {
  const weekday = (daysFromCivil(year, month, 1) + 4) % 7; // 1970-01-01 was a Thursday (4)
  return 1 + ((7 - weekday) % 7) + 7 * (n - 1);
}

function lastSunday(year: number, month: number): number {
  const last = daysFromCivil(year, month + 1, 1) - daysFromCivil(year, month, 1);
  const weekday = (daysFromCivil(year, month, last) + 4) % 7;
  return last - weekday;
}

/** Days since 1970-01-01 (proleptic Gregorian, H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}
