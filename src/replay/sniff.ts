import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { asReplayError } from './byte-source.ts';
import { fileHead, fileSource } from './file-source.ts';
import { ReplayError } from './replay-error.ts';
import { listZipEntries } from './zip.ts';

/**
 * Tells a recording's format by its content — magic bytes, the header line, the shape of the
 * first JSON line or row — through gzip and zip, never by its name: a renamed file reads the
 * same. What the first line names (a symbol column, a Bybit topic) comes back too, so a caller
 * can look up the units before opening the reader.
 */

/** The formats perpsim reads, as told by content. */
export const SNIFFED_FORMATS = [
  'arrow',
  'tardis',
  'binance-raw',
  'binance-bookticker',
  'binance-depth',
  'bybit-orderbook',
  'freqtrade-mark',
  'freqtrade-funding',
  'lobster-zip',
  'lobster-message',
  'lobster-orderbook',
  'perpsim-csv',
] as const;
export type SniffedFormat = (typeof SNIFFED_FORMATS)[number];

/** What the first bytes of a file say. */
export interface Sniffed {
  path: string;
  format: SniffedFormat;
  /** The symbol the content names on its first data line, when it names one. */
  symbol: string | undefined;
  /** The header, topic or first characters that decided it (for messages). */
  evidence: string;
  /** The first line of the (decompressed) content; empty for Arrow and zips of LOBSTER files. */
  firstLine: string;
}

/** Decompressed bytes looked at: enough for a header and a few rows of any format. */
const HEAD_BYTES = 64 * 1024;

const BOOKTICKER_HEADER = 'update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,transaction_time,event_time';
const DEPTH_HEADER = 'symbol,timestamp,first_update_id,last_update_id,side,update_type,price,qty,pu';
const TARDIS_PREFIX = 'exchange,symbol,timestamp,local_timestamp,';
/** `perpsim convert --to csv` (market-csv.ts's header starts so). */
const PERPSIM_CSV_PREFIX = 'recv_ns,exch_ns,symbol,kind,reset,side,price,qty,';
const LOBSTER_MEMBER = /_(message|orderbook)_\d+\.csv$/i;

/**
 * The format of `path`, or a `ReplayError` saying the file is missing, not a file, or of no
 * known format (naming what its first line looks like).
 */
export async function sniffFile(path: string): Promise<Sniffed> {
  await mustBeFile(path);
  const magic = await fileHead(path, 6);
  if (magic.toString('latin1') === 'ARROW1') return { path, format: 'arrow', symbol: undefined, evidence: 'ARROW1 magic', firstLine: '' };
  if (magic.length >= 4 && magic.readUInt32LE(0) === 0x04034b50) {
    const names = (await listZipEntries(path)).map((e) => e.name).filter((n) => !n.endsWith('/'));
    if (names.filter((n) => LOBSTER_MEMBER.test(n)).length === 2) return { path, format: 'lobster-zip', symbol: undefined, evidence: `zip of ${names.join(', ')}`, firstLine: '' };
    if (names.length !== 1) throw new ReplayError(path, undefined, undefined, `unknown format: a zip of ${names.length} files (${names.slice(0, 4).join(', ')})`);
  }
  const head = await decompressedHead(path);
  const found = sniffText(head);
  if (found === undefined) {
    const first = head.split('\n', 1)[0]!.slice(0, 80).replace(/[^\x20-\x7e]/g, '?');
    throw new ReplayError(path, undefined, undefined, `unknown format: its first line is ${JSON.stringify(first)} (${basename(path)})`);
  }
  return { path, ...found, firstLine: head.split('\n', 1)[0]!.replace(/\r$/, '') };
}

/** The format of a file's first decompressed characters, or undefined. */
export function sniffText(head: string): Omit<Sniffed, 'path' | 'firstLine'> | undefined {
  const lines = head.split('\n', 3).map((l) => l.replace(/\r$/, ''));
  const first = lines[0]!;
  const second = lines[1] ?? '';
  if (/^\d+ \{/.test(first)) return { format: 'binance-raw', symbol: binanceStreamSymbol(first), evidence: '<receive ns> {json} lines' };
  if (first.startsWith(TARDIS_PREFIX)) return { format: 'tardis', symbol: second.split(',')[1]?.toUpperCase(), evidence: `tardis header ${first.slice(0, 60)}…` };
  if (first.startsWith(PERPSIM_CSV_PREFIX)) return { format: 'perpsim-csv', symbol: second.split(',')[2] || undefined, evidence: 'perpsim market-records CSV header' };
  if (first === BOOKTICKER_HEADER) return { format: 'binance-bookticker', symbol: undefined, evidence: 'bookTicker header' };
  if (first === DEPTH_HEADER) return { format: 'binance-depth', symbol: second.split(',')[0]?.toUpperCase() || undefined, evidence: 'depth header' };
  const topic = /^\{"topic":"orderbook\.\d+\.([A-Z0-9]+)"/.exec(first);
  if (topic !== null) return { format: 'bybit-orderbook', symbol: topic[1], evidence: `Bybit topic orderbook.*.${topic[1]}` };
  const freqtrade = freqtradeKind(head);
  if (freqtrade !== undefined) return { format: freqtrade, symbol: undefined, evidence: 'a JSON array of 6-value rows' };
  const lobster = lobsterKind(first);
  if (lobster !== undefined) return { format: lobster, symbol: undefined, evidence: 'headerless numeric rows' };
  return undefined;
}

/** `btcusdt@depth` in a capture's first line → `BTCUSDT`. */
function binanceStreamSymbol(line: string): string | undefined {
  const m = /"stream":"([a-z0-9_]+)@/.exec(line) ?? /"s":"([A-Za-z0-9_]+)"/.exec(line);
  return m?.[1]?.toUpperCase();
}

/**
 * freqtrade's futures data: a JSON array of `[ms, a, b, c, d, e]` rows. Funding rows pad the
 * rate with four zeros; mark rows are candles (open, high, low, close, volume or null).
 */
function freqtradeKind(head: string): 'freqtrade-mark' | 'freqtrade-funding' | undefined {
  if (!/^\s*\[\s*\[/.test(head)) return undefined;
  const rows = [...head.matchAll(/\[([^[\]]*)\]/g)].slice(0, 20).map((m) => m[1]!.split(',').map((v) => v.trim()));
  if (rows.length === 0 || !rows.every((r) => r.length === 6 && /^\d{10,}$/.test(r[0]!))) return undefined;
  return rows.every((r) => r.slice(2).every((v) => Number(v) === 0)) ? 'freqtrade-funding' : 'freqtrade-mark';
}

/** LOBSTER CSVs have no header: 6 numeric message fields (type 1-7), or 4 × levels orderbook fields. */
function lobsterKind(line: string): 'lobster-message' | 'lobster-orderbook' | undefined {
  const fields = line.split(',');
  if (!fields.every((f) => /^-?\d+(\.\d+)?$/.test(f))) return undefined;
  if (fields.length === 6 && /^[1-7]$/.test(fields[1]!) && /^-?1$/.test(fields[5]!)) return 'lobster-message';
  if (fields.length % 4 === 0 && fields.length > 0) return 'lobster-orderbook';
  return undefined;
}

async function mustBeFile(path: string): Promise<void> {
  let s;
  try {
    s = await stat(path);
  } catch (e) {
    throw asReplayError(path, e);
  }
  if (!s.isFile()) throw new ReplayError(path, undefined, undefined, s.isDirectory() ? 'a directory, not a recording' : 'not a regular file');
}

/** Up to `HEAD_BYTES` of the file's content, inflated (gzip, or the one member of a zip). */
async function decompressedHead(path: string): Promise<string> {
  const parts: Buffer[] = [];
  let length = 0;
  for await (const chunk of fileSource(path).open()) {
    parts.push(chunk);
    length += chunk.length;
    if (length >= HEAD_BYTES) break;
  }
  return Buffer.concat(parts).subarray(0, HEAD_BYTES).toString('latin1');
}
