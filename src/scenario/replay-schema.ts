import { isAbsolute, join, basename } from 'node:path';
import { z } from 'zod';
import { latencyModelSchema } from './market-schema.ts';

/**
 * A scenario's recorded market source (`"market": {"replay": {...}}`): L2 recordings whose
 * levels become external liquidity on the named instruments (see src/replay/l2).
 */

const positiveDecimal = z.string().regex(/^\d*\.?\d+$/, 'must be a positive decimal string such as "0.001"');

const queueModelSchema = z.union([
  z.enum(['risk-averse', 'prob']),
  z.strictObject({ kind: z.literal('prob'), weight: z.literal('power'), n: z.number().positive() }),
  z.strictObject({ kind: z.literal('prob'), weight: z.literal('log') }),
]);

export const replaySchema = z.strictObject({
  /** Optional and unused: files are read by their content (src/replay/sniff.ts); kept so older scenarios still load. */
  format: z.enum(['tardis', 'binance']).optional(),
  /** Paths (relative to the scenario file), or {path, symbol} naming the recorded symbol. */
  files: z.array(z.union([z.string().min(1), z.strictObject({ path: z.string().min(1), symbol: z.string().min(1) })])).min(1),
  /**
   * Recorded symbol → instrument symbol, or {symbol, lotSize, tickSize}: lotSize is the
   * recording's quantity per venue lot (default "1"), tickSize the recording's price step
   * (default: the instrument's). Recorded price steps map one to one onto instrument ticks, so
   * an instrument quoting per lot (tickSize = recorded tick × lotSize) keeps money exact.
   */
  symbolMap: z.record(
    z.string().min(1),
    z.union([z.string().min(1), z.strictObject({ symbol: z.string().min(1), lotSize: positiveDecimal.default('1'), tickSize: positiveDecimal.optional() })]),
  ),
  /**
   * `l2` (default): the recording's levels are the book. `l1`: L1 + trades — only top of book
   * (Binance bookTicker, tardis quotes), trades and tickers are read; the recorded touch is the
   * book, and levels behind it are unknown to the queue estimate (src/replay/l1).
   */
  mode: z.enum(['l2', 'l1']).default('l2'),
  /** How an order's place in a recorded level moves: risk-averse (trades only) or prob (trades and cancels). */
  queueModel: queueModelSchema.default('risk-averse'),
  /** Market data to agents: the recorded feed delay (`"recorded"`, default) or a latency model. */
  latency: z.strictObject({ marketData: z.union([z.literal('recorded'), latencyModelSchema]).default('recorded') }).default({ marketData: 'recorded' }),
  skipBadRows: z.boolean().default(false),
});

export const marketSourceSchema = z.strictObject({ replay: replaySchema });

export type ReplaySpec = z.infer<typeof replaySchema>;

/** One file of a replay with its recorded symbol resolved. */
export interface ReplayFile {
  path: string;
  recordedSymbol: string;
}

/**
 * The recorded symbol of each file: given, or the one symbolMap key the file name contains
 * (case-insensitive; tardis and hftbacktest name files by symbol). Returns an error message
 * per unresolvable file (by index) instead of throwing, for the schema's checks.
 */
export function replayFiles(spec: ReplaySpec): { files: ReplayFile[]; errors: { index: number; message: string }[] } {
  const keys = Object.keys(spec.symbolMap);
  const files: ReplayFile[] = [];
  const errors: { index: number; message: string }[] = [];
  spec.files.forEach((f, index) => {
    if (typeof f !== 'string') {
      if (!keys.includes(f.symbol)) errors.push({ index, message: `symbol ${f.symbol} is not in symbolMap (${keys.join(', ')})` });
      files.push({ path: f.path, recordedSymbol: f.symbol });
      return;
    }
    const name = basename(f).toLowerCase();
    const matches = keys.length === 1 ? keys : keys.filter((k) => name.includes(k.toLowerCase()));
    if (matches.length !== 1) {
      errors.push({ index, message: `cannot tell the recorded symbol of ${f} from its name (symbolMap: ${keys.join(', ')}); give {"path", "symbol"}` });
    }
    files.push({ path: f, recordedSymbol: matches[0] ?? '' });
  });
  return { files, errors };
}

/** Instrument symbol, lot size and recorded price step (undefined: the instrument's) of a symbolMap entry. */
export function mappedInstrument(entry: ReplaySpec['symbolMap'][string]): { symbol: string; lotSize: string; tickSize: string | undefined } {
  return typeof entry === 'string' ? { symbol: entry, lotSize: '1', tickSize: undefined } : { symbol: entry.symbol, lotSize: entry.lotSize, tickSize: entry.tickSize };
}

/** Cross-field checks: files resolve to mapped symbols, mapped symbols are instruments. */
export function checkReplay(spec: ReplaySpec, instruments: ReadonlySet<string>, ctx: z.RefinementCtx): void {
  const base = ['market', 'replay'];
  for (const [recorded, entry] of Object.entries(spec.symbolMap)) {
    const { symbol } = mappedInstrument(entry);
    if (!instruments.has(symbol)) ctx.addIssue({ code: 'custom', path: [...base, 'symbolMap', recorded], message: `unknown symbol ${symbol} (instruments: ${[...instruments].join(', ')})` });
  }
  for (const e of replayFiles(spec).errors) ctx.addIssue({ code: 'custom', path: [...base, 'files', e.index], message: e.message });
}

/** The spec with relative file paths made relative to `baseDir` (the scenario's folder). */
export function resolveReplayPaths(spec: ReplaySpec, baseDir: string): ReplaySpec {
  const abs = (p: string) => (isAbsolute(p) ? p : join(baseDir, p));
  return { ...spec, files: spec.files.map((f) => (typeof f === 'string' ? abs(f) : { ...f, path: abs(f.path) })) };
}
