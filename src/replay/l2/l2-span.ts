import { L2_BOOK, L2_TRADE, type L2Batch } from './l2-batch.ts';
import type { L2Event } from './l2-event.ts';

/**
 * What a scenario made for recordings named on the command line needs of them: the first and
 * last event time, and per market the first traded or quoted price (ticks) or, for a
 * recording of mark and funding only, the first recorded mark (decimal text).
 */
export interface RecordingSpan {
  firstNs: bigint;
  lastNs: bigint;
  events: number;
  firstPriceTicks: (number | undefined)[];
  firstMark: (string | undefined)[];
  /** The most negative feed delay (0 when none is): the recorded delay's shift, `feed-delay.ts`. */
  minFeedDelayNs: bigint;
}

export function emptySpan(): RecordingSpan {
  return { firstNs: 0n, lastNs: 0n, events: 0, firstPriceTicks: [], firstMark: [], minFeedDelayNs: 0n };
}

/** Adds events (in replay order) to a span. */
export function addToSpan(span: RecordingSpan, events: Iterable<L2Event>): RecordingSpan {
  for (const e of events) {
    if (span.events++ === 0) span.firstNs = e.tsNs;
    span.lastNs = e.tsNs;
    if (e.feedDelayNs < span.minFeedDelayNs) span.minFeedDelayNs = e.feedDelayNs;
    if (span.firstPriceTicks[e.market] !== undefined) continue;
    if (e.kind === 'trade') span.firstPriceTicks[e.market] = e.priceTicks;
    else if (e.kind === 'book' && e.updates.length > 0) span.firstPriceTicks[e.market] = e.updates[0]!.priceTicks;
    else if (e.kind === 'ticker' && e.markPrice !== undefined) span.firstMark[e.market] ??= e.markPrice;
  }
  return span;
}

/** Adds a batch's rows (in replay order) to a span, as `addToSpan` adds events. */
export function addBatchToSpan(span: RecordingSpan, b: L2Batch): RecordingSpan {
  if (b.length === 0) return span;
  if (span.events === 0) span.firstNs = b.tsNs[0]!;
  span.events += b.length;
  span.lastNs = b.tsNs[b.length - 1]!;
  for (let i = 0; i < b.length; i++) if (b.feedDelayNs[i]! < span.minFeedDelayNs) span.minFeedDelayNs = b.feedDelayNs[i]!;
  for (let i = 0; i < b.length; i++) {
    const market = b.market[i]!;
    if (span.firstPriceTicks[market] !== undefined) continue;
    const kind = b.kind[i];
    if (kind === L2_TRADE) span.firstPriceTicks[market] = b.priceTicks[i]!;
    else if (kind === L2_BOOK && b.levelEnd[i]! > b.levelStart[i]!) span.firstPriceTicks[market] = b.levelPrice[b.levelStart[i]!]!;
    else if (kind !== L2_BOOK) {
      const mark = b.tickers.get(i)?.markPrice;
      if (mark !== undefined) span.firstMark[market] ??= mark;
    }
  }
  return span;
}
