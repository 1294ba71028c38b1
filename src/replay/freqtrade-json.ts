import { Decimal } from 'decimal.js';
import type { ByteSource } from './byte-source.ts';
import type { CountedStream } from './binance-dump-csv.ts';
import { ChunkedStream } from './chunked-stream.ts';
import type { MarketRecord, StatsRecord } from './market-records.ts';
import { ReplayError, RowErrors } from './replay-error.ts';

/**
 * freqtrade's futures data files (`<PAIR>-1h-mark.json`, `<PAIR>-8h-funding_rate.json`: a JSON
 * array of `[ms, a, b, c, d, e]` rows, as `freqtrade download-data` stores them) as `stats`
 * records, with every number kept as its exact decimal text:
 * - mark candles `[open_time, open, high, low, close, volume|null]`: the mark at the candle's
 *   open time is its open (`markPrice`);
 * - funding `[funding_time, rate, 0, 0, 0, 0]`: `fundingRate` = the realised rate, with
 *   `fundingTsNs` = its funding time. The rate is the one that settles at that time, so the
 *   record is given at the previous row's funding time (the first at one interval, the
 *   distance to the second row, before), as a venue's current funding rate is the one for the
 *   coming settlement.
 * Rows are read as they arrive (the array is never parsed whole).
 */
export function readFreqtrade(source: ByteSource, kind: 'mark' | 'funding', symbol: string, options: { skipBadRows?: boolean } = {}): CountedStream {
  const errors = new RowErrors(options.skipBadRows ?? false);
  const stream = new ChunkedStream<MarketRecord>(async function* () {
    let rest = '';
    let row = 0;
    let previousMs: bigint | undefined;
    let pending: { ms: bigint; rate: string } | undefined;
    const emit = (atMs: bigint, p: { ms: bigint; rate: string }, out: MarketRecord[]) => {
      const t = atMs * MS;
      out.push({ kind: 'stats', recvNs: t, exchNs: t, symbol, fundingRate: p.rate, fundingTsNs: p.ms * MS });
    };
    for await (const chunk of source.open()) {
      const text = rest + chunk.toString('latin1');
      const out: MarketRecord[] = [];
      let end = 0;
      for (const m of text.matchAll(ROW)) {
        end = m.index + m[0].length;
        row++;
        let values: string[];
        try {
          values = decodeRow(source.name, row, m[1]!);
        } catch (e) {
          if (!(e instanceof ReplayError)) throw e;
          errors.handle(e);
          continue;
        }
        const ms = BigInt(values[0]!);
        if (previousMs !== undefined && ms < previousMs) {
          errors.handle(new ReplayError(source.name, undefined, `row ${row}`, `time ${ms} ms is before the previous row's ${previousMs} ms`));
          continue;
        }
        if (kind === 'mark') {
          const r: StatsRecord = { kind: 'stats', recvNs: ms * MS, exchNs: ms * MS, symbol, markPrice: values[1]! };
          out.push(r);
        } else {
          const current = { ms, rate: values[1]! };
          if (previousMs === undefined) pending = current;
          else {
            // The first row waits for the second, which tells the interval.
            if (pending !== undefined) emit(2n * pending.ms - ms, pending, out);
            pending = undefined;
            emit(previousMs, current, out);
          }
        }
        previousMs = ms;
      }
      rest = text.slice(end);
      yield out;
    }
    // A single funding row: nothing to tell its interval by; give it at its own time.
    if (pending !== undefined) {
      const out: MarketRecord[] = [];
      emit(pending.ms, pending, out);
      yield out;
    }
  });
  return Object.assign(stream, { errors });
}

const MS = 1_000_000n;
/** One row of the array: a bracketed list without nested brackets. */
const ROW = /\[([^[\]]*)\]/g;
const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

function decodeRow(file: string, row: number, inner: string): string[] {
  const values = inner.split(',').map((v) => v.trim());
  if (values.length < 2) throw new ReplayError(file, undefined, `row ${row}`, `expected [time, value, …], got [${inner.slice(0, 60)}]`);
  if (!/^\d{1,16}$/.test(values[0]!)) throw new ReplayError(file, undefined, `row ${row}`, `${values[0]} is not a time in ms`);
  if (!NUMBER.test(values[1]!)) throw new ReplayError(file, undefined, `row ${row}`, `${values[1]} is not a number`);
  // Exponent form (1e-05) as plain decimal text; the digits are kept exactly.
  if (/[eE]/.test(values[1]!)) values[1] = new Decimal(values[1]!).toFixed();
  return values;
}
