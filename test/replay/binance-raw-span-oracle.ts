import { binanceLineDecoder } from '../../src/replay/binance-raw.ts';
import { lineChunks } from '../../src/replay/line-chunks.ts';
import { fileSource } from '../../src/replay/file-source.ts';
import type { RecordingSpan } from '../../src/replay/l2/l2-span.ts';
import { SpanOfRows } from '../../src/replay/l2/span-of-rows.ts';

/**
 * The oracle for `binanceRawSpan` (src/replay/l2/l2-span-binance.ts): the span pass as it was
 * until round 9, every line decoded in full, kept so the header-only pass is checked
 * against it. Its rows are made by the same `SpanOfRows` (src/replay/l2/span-of-rows.ts): what
 * is checked here is the decode; the rows are checked apart against the whole road's span (test/replay/l2-span-binance.test.ts) and timed against it (bench/replay-span-pass.ts).
 *
 * The span (`l2-span.ts`) of one Binance raw capture as `scanL2Span` gives it through the whole
 * road (decode, depth sync, normalized records, the merge's time floor, column batches), from
 * the decoded lines alone: no record per level, no merge, no batches. Every line is decoded by
 * the reader's own line decoder as a depth replay reads it (book tickers for their times only,
 * `tickerTimesOnly`), so a line the run would refuse fails here, before the run, with the same
 * error; the diffs go through the same `BinanceDepthSync` (gaps, stale and buffered diffs alike).
 * The span pass of a raw capture was the whole road, a third of a replay's CPU.
 */
export async function binanceRawSpanOracle(path: string, tickSize: string, lotSize: string, market: number): Promise<RecordingSpan> {
  const decode = binanceLineDecoder(path, tickSize, lotSize, true);
  const scan = new SpanOfRows(market);
  for await (const { firstLine, texts } of lineChunks(fileSource(path))) {
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i]!;
      if (text.length === 0) continue;
      const line = firstLine + i;
      const e = decode(text, line);
      const ms = Number(e.eventTsNs / NS_PER_MS);
      if (e.kind === 'bookTicker') scan.quote(ms);
      else if (e.kind === 'trade') scan.trade(e.localTsNs, ms, e.priceTicks);
      else scan.depth(e, ms);
    }
  }
  return scan.span;
}

const NS_PER_MS = 1_000_000n;
