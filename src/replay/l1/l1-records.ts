import type { ExternalLevelUpdate } from '../../venue/external-liquidity.ts';
import type { L2BookEvent } from '../l2/l2-event.ts';
import type { MarketRecord, QuoteRecord } from '../market-records.ts';

/**
 * The L1 + trades replay's input (hftbacktest #297): of the one record stream every recording
 * becomes (`open-records.ts`), it keeps the top of book (Binance `bookTicker` lines and dumps,
 * tardis `quotes`, normalized quote rows), the trades and the tickers, and drops every level
 * row — depth diffs, snapshots, incremental L2 — before the venue sees it (`isL1Record`, the
 * record filter). Each quote restates the whole recorded book as its touch, one level a side
 * (the consumer option: quotes are the book whatever the source).
 */

/** Whether a normalized record is part of an L1 + trades replay (everything but level rows). */
export function isL1Record(r: MarketRecord): boolean {
  return r.kind !== 'book';
}

/** A quote as the L1 replay's book: a reset to the recorded touch (a side the quote lacks is empty). */
export function touchEvent(q: Pick<QuoteRecord, 'bidTicks' | 'bidQtyLots' | 'askTicks' | 'askQtyLots'>, market: number, tsNs: bigint, feedDelayNs: bigint): L2BookEvent {
  const updates: ExternalLevelUpdate[] = [];
  if (q.bidTicks !== undefined && q.bidQtyLots !== undefined && q.bidQtyLots > 0) updates.push({ side: 'B', priceTicks: q.bidTicks, qtyLots: q.bidQtyLots });
  if (q.askTicks !== undefined && q.askQtyLots !== undefined && q.askQtyLots > 0) updates.push({ side: 'S', priceTicks: q.askTicks, qtyLots: q.askQtyLots });
  return { kind: 'book', tsNs, feedDelayNs, market, reset: true, updates };
}
