import { TickSize } from '../../core/price.ts';
import { binanceLineDecoder, type BinanceDepthDiff } from '../binance-raw.ts';
import { receiptNs } from '../binance-chunk.ts';
import { DEPTH, FULL, LineHeaders, TICKER, TRADE } from '../binance-headers.ts';
import { ChunkLines, textChunks } from '../line-chunks.ts';
import { decimalSteps } from '../fields.ts';
import { fileSource } from '../file-source.ts';
import type { Level } from '../levels.ts';
import type { RecordingSpan } from './l2-span.ts';
import { SpanOfRows } from './span-of-rows.ts';

/**
 * The span (`l2-span.ts`) of one Binance raw capture as `scanL2Span` gives it through the whole
 * road (decode, depth sync, normalized records, the merge's time floor, column batches), from
 * each line's headers alone (`binance-headers.ts`): receipt time, stream, `E`, the update ids
 * through the same `BinanceDepthSync` (gaps, stale and buffered diffs alike), whether a diff
 * sets any level, and a first price until the market has one. Decoding every level of every
 * line was ~70 % of this pass, and the pass is on the replay's critical path.
 *
 * What fails here, before the run, with the run's own error (file, line, field): a line whose
 * receipt time, JSON, stream, times, update ids, trade id or maker flag, or `b` / `a` shape is
 * wrong (any line the header scan does not read is decoded in full, as the run decodes it), and
 * the first price the span reads. What fails when the run reaches it, with the same one-line
 * error: a price or quantity that is not a decimal on the instrument's step (a level's, a
 * trade's). The span of a capture the run reads through is the full decode's, field for field
 * (test/replay/l2-span-binance.test.ts checks it against the full-decode pass kept as oracle).
 */
export async function binanceRawSpan(path: string, tickSize: string, lotSize: string, market: number): Promise<RecordingSpan> {
  const decode = binanceLineDecoder(path, tickSize, lotSize, true);
  const tick = new TickSize(tickSize);
  const scan = new SpanOfRows(market);
  const h = new LineHeaders();
  let line = 0;
  const lines = new ChunkLines();
  for await (const bytes of textChunks(fileSource(path))) {
    for (lines.reset(bytes); lines.advance(); ) {
      line++;
      const { start, end } = lines;
      if (end === start) continue;
      const kind = h.scan(bytes, start, end, lines.plain());
      const needPrice = scan.span.firstPriceTicks[market] === undefined;
      const priceTicks = needPrice && (kind === TRADE || (kind === DEPTH && (h.bLevels || h.aLevels))) ? decimalSteps(bytes.toString('latin1', h.priceStart, h.priceEnd), tick) : 0;
      if (kind === FULL || priceTicks === undefined) {
        // Decoded as the run decodes it: it reads the line, or throws the run's error for it.
        const e = decode(bytes.toString('utf8', start, end), line);
        if (e.kind === 'bookTicker') scan.quote(Number(e.eventTsNs / NS_PER_MS));
        else if (e.kind === 'trade') scan.trade(e.localTsNs, Number(e.eventTsNs / NS_PER_MS), e.priceTicks);
        else scan.depth(e, Number(e.eventTsNs / NS_PER_MS));
      } else if (kind === TICKER) scan.quote(h.eMs);
      else if (kind === TRADE) scan.trade(receiptNs(bytes, start, h.recvEnd), h.eMs, priceTicks);
      else scan.depth(diffOf(h, receiptNs(bytes, start, h.recvEnd), line, needPrice ? { priceTicks, qtyLots: NaN } : UNREAD), h.eMs);
    }
  }
  return scan.span;
}

const NS_PER_MS = 1_000_000n;
/** The level that stands for levels not read (the market's first price is known by then). */
const UNREAD: Level = { priceTicks: NaN, qtyLots: NaN };
const NONE: Level[] = [];

/**
 * A diff from its headers, for the sync: its sides hold one level when they hold any, `first`
 * (the first bid's price, else the first ask's, where wanted; else `UNREAD`) on the side it
 * comes from.
 */
function diffOf(h: LineHeaders, localTsNs: bigint, line: number, first: Level): BinanceDepthDiff {
  const bids = h.bLevels ? [first] : NONE;
  const asks = h.aLevels ? [h.bLevels ? UNREAD : first] : NONE;
  const eventTsNs = BigInt(h.eMs) * NS_PER_MS;
  return { kind: 'depth', localTsNs, eventTsNs, transactTsNs: eventTsNs, line, firstUpdateId: h.firstUpdateId, finalUpdateId: h.finalUpdateId, prevFinalUpdateId: h.prevFinalUpdateId, bids, asks };
}
