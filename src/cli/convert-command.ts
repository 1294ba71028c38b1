import { mergeSources, unionOf } from '../replay/market-stream.ts';
import { MarketArrowWriter } from '../replay/market-arrow.ts';
import { MarketCsvWriter } from '../replay/market-csv.ts';
import { openMarketSources, type SourceFormat } from '../replay/market-sources.ts';
import { ReplayError } from '../replay/replay-error.ts';
import { prepareOutFile } from './out-path.ts';
import { UsageError } from './usage-error.ts';

/** What `perpsim convert` was asked to do (flags parsed by `commands/convert.ts`). */
export interface ConvertRequest {
  inputs: string[];
  to: 'arrow' | 'csv';
  out: string;
  from?: SourceFormat;
  tickSize?: string;
  lotSize?: string;
  symbol?: string;
  skipBadRows: boolean;
}

/**
 * `perpsim convert IN... --to arrow|csv --out FILE [--from FORMAT] [--tick-size T --lot-size L]
 * [--symbol S] [--skip-bad-rows]`: any supported recording (tardis CSV, Binance capture,
 * LOBSTER, a perpsim event log, a `perpsim record` recording, a normalized Arrow file) as
 * normalized market records, in Arrow or CSV. Several inputs are merged by receive time (ties:
 * in the order given).
 *
 * @returns 0 on success, 1 when the input has a bad row (one line naming file, line and
 *   column); usage errors throw `UsageError` (exit 2).
 */
export async function convertCommand(request: ConvertRequest): Promise<number> {
  const { inputs, to, out, from, skipBadRows } = request;
  if (inputs.includes(out)) throw new UsageError(`--out ${out} is also an input`);
  prepareOutFile('--out', out);

  try {
    const sources = await openMarketSources(inputs, from, {
      tickSize: request.tickSize,
      lotSize: request.lotSize,
      symbol: request.symbol,
      skipBadRows,
    });
    const instruments = unionOf(sources);
    const writer = to === 'arrow'
      ? new MarketArrowWriter(out, { instruments, source: `convert ${sources.map((s) => `${s.format}:${s.name}`).join(' ')}` })
      : new MarketCsvWriter(out, instruments);
    try {
      if (sources.length === 1) {
        for await (const chunk of sources[0]!.records.chunks()) for (const r of chunk) writer.add(r);
      } else {
        // By receive time; ties in the order the inputs were given.
        const inOrder = sources.map((s) => ({ ...s, priority: 0 }));
        for await (const batch of mergeSources(inOrder, 'receive')) for (const r of batch.records) writer.add(r);
      }
    } finally {
      writer.close();
    }
    const skipped = sources.reduce((n, s) => n + (s.errors?.skippedRows ?? 0), 0);
    process.stdout.write(`wrote ${writer.rows} records to ${out}\n`);
    if (skipped > 0) {
      const first = sources.find((s) => s.errors?.firstSkipped !== undefined)!.errors!.firstSkipped!;
      process.stdout.write(`skipped ${skipped} bad rows (first: ${first.message})\n`);
    }
    return 0;
  } catch (e) {
    if (!(e instanceof ReplayError)) throw e;
    process.stderr.write(`perpsim: ${e.message.replace(/\s*\n\s*/g, ' ')}\n`);
    return 1;
  }
}
