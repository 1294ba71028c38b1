import { KIND_BOOK, KIND_QUOTE, KIND_TRADE, type MarketBatch } from '../market-records.ts';
import type { RecordSource } from '../open-records.ts';
import { L2_SIDE_NONE } from './l2-batch.ts';
import type { SourceMarket } from './l2-columns.ts';
import type { L2TickerEvent } from './l2-event.ts';
import type { RecordingSpan } from './l2-span.ts';

/**
 * The span of a single columnar source (an Arrow file) read from its columns as they are,
 * without making the replay's batches: what `L2ColumnBuilder.batch` then `addBatchToSpan`
 * give, row for row (the same rows kept, book rows of one message counted once, exchange
 * times held level where they step back), reading only times, kinds and symbols once a
 * market's first price is known (a lazily decoded batch decodes only the columns read). The
 * span pass of an Arrow replay read every column and built every batch, about as much CPU as
 * the replay's own reading.
 */
export class ColumnSpan {
  /** The book row being counted (open: one is): its times and symbol. */
  private open = false;
  private openRecvNs = 0n;
  private openExchNs = 0n;
  private openSymbolName = '';

  constructor(
    private readonly source: RecordSource,
    private readonly m: SourceMarket,
    readonly span: RecordingSpan,
    /** Where given, the tickers with an index price, as `L2ColumnBuilder` makes them (the run's index pass). */
    private readonly indexTickers?: L2TickerEvent[],
  ) {}

  /** The rows of one batch; `floorNs` is the last time played before it, and the new one is returned. */
  batch(b: MarketBatch, floorNs: bigint): bigint {
    const m = this.m;
    const span = this.span;
    const market = m.market;
    const wanted = m.symbol === undefined ? -1 : b.symbols.indexOf(m.symbol);
    let floor = floorNs;
    if (wanted < 0 && m.symbol !== undefined) {
      for (let i = 0; i < b.length; i++) if (b.exchNs[i]! > floor) floor = b.exchNs[i]!;
      return floor;
    }
    const { kind, exchNs, recvNs, symbol } = b;
    // Read once per batch, and only while a first price is wanted (a column decodes on first read).
    const needPrice = span.firstPriceTicks[market] === undefined;
    const reset = m.l1 ? undefined : b.reset;
    for (let i = 0; i < b.length; i++) {
      const t = exchNs[i]!;
      const tsNs = t < floor ? floor : t;
      floor = tsNs;
      if (wanted >= 0 && symbol[i] !== wanted) continue;
      const k = kind[i];
      if (k === KIND_BOOK) {
        if (m.l1) continue;
        const r = recvNs[i]!;
        const sym = b.symbols[symbol[i]!]!;
        if (reset![i] === 1 || !this.open || r !== this.openRecvNs || t !== this.openExchNs || sym !== this.openSymbolName) {
          this.row(tsNs, r - t);
          this.open = true;
          this.openRecvNs = r;
          this.openExchNs = t;
          this.openSymbolName = sym;
        }
        if (needPrice && span.firstPriceTicks[market] === undefined && b.side[i] !== L2_SIDE_NONE) span.firstPriceTicks[market] = b.priceTicks[i]!;
        continue;
      }
      this.open = false;
      const feedDelayNs = recvNs[i]! - t;
      if (k === KIND_TRADE) {
        this.row(tsNs, feedDelayNs);
        if (span.firstPriceTicks[market] === undefined) span.firstPriceTicks[market] = b.priceTicks[i]!;
      } else if (k === KIND_QUOTE) {
        if (!m.l1 && this.source.quotes !== 'book') continue;
        this.row(tsNs, feedDelayNs);
        if (span.firstPriceTicks[market] === undefined) this.quotePrice(b, i);
      } else {
        this.row(tsNs, feedDelayNs);
        if (span.firstPriceTicks[market] === undefined && span.firstMark[market] === undefined) {
          const mark = b.stats(i).markPrice;
          if (mark !== undefined) span.firstMark[market] = mark;
        }
        const s = this.indexTickers === undefined ? undefined : b.stats(i);
        if (s?.indexPrice !== undefined) this.indexTickers!.push({ kind: 'ticker', tsNs, feedDelayNs, market, markPrice: s.markPrice, indexPrice: s.indexPrice, fundingRate: s.fundingRate, fundingTsNs: s.fundingTsNs });
      }
    }
    return floor;
  }

  private row(tsNs: bigint, feedDelayNs: bigint): void {
    const span = this.span;
    if (span.events++ === 0) span.firstNs = tsNs;
    span.lastNs = tsNs;
    if (feedDelayNs < span.minFeedDelayNs) span.minFeedDelayNs = feedDelayNs;
  }

  /** A quote's first level as the builder adds it (bid, else ask), if it adds one. */
  private quotePrice(b: MarketBatch, i: number): void {
    const l1 = this.m.l1;
    const span = this.span;
    const bid = b.bidTicks[i]!;
    const bidQty = b.bidQtyLots[i]!;
    const ask = b.askTicks[i]!;
    const askQty = b.askQtyLots[i]!;
    if (!Number.isNaN(bid) && !Number.isNaN(bidQty) && (!l1 || bidQty > 0)) span.firstPriceTicks[this.m.market] = bid;
    else if (!Number.isNaN(ask) && !Number.isNaN(askQty) && (!l1 || askQty > 0)) span.firstPriceTicks[this.m.market] = ask;
  }
}
