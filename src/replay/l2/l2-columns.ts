import { KIND_BOOK, KIND_QUOTE, KIND_STATS, KIND_TRADE, type MarketBatch, type MarketRecord, type StatsFields } from '../market-records.ts';
import type { RecordSource } from '../open-records.ts';
import { L2_SIDE_BUY, L2_SIDE_NONE, L2_SIDE_SELL, L2BatchBuilder, sideCode, type L2Batch } from './l2-batch.ts';

/** The replayed market a source feeds, and what of it the replay keeps. */
export interface SourceMarket {
  market: number;
  /** Of a file of several symbols: the one kept (undefined: every row). */
  symbol: string | undefined;
  /** An L1 + trades replay: level rows dropped, quotes are the book (src/replay/l1). */
  l1: boolean;
}

/**
 * Normalized records → the replay's column batches (`L2Batch`), with no object per level or
 * per event: book rows of one message (same source, symbol, receive and exchange time; a reset
 * row starts a new one) become one book row whose levels follow in the level columns; quotes
 * restate a one-level book where they are the source's book (the touch, in L1 mode); trades
 * and stats pass as trade and ticker rows. Feed delay is receive − exchange time as recorded.
 * Records come as objects (`record`, from the merged stream) or as a source's own columns
 * (`batch`, a single columnar source: no object per row at all). Full batches wait in `ready`.
 */
export class L2ColumnBuilder {
  /** Batches complete and not yet taken. */
  readonly ready: L2Batch[] = [];
  private readonly out: L2BatchBuilder;
  /** The book row being gathered: its source (-1: none), times and symbol. */
  private openSource = -1;
  private openRecvNs = 0n;
  private openExchNs = 0n;
  private openSymbol = '';

  constructor(
    private readonly sources: readonly RecordSource[],
    private readonly markets: readonly SourceMarket[],
    /** Only ticker rows are kept (the recorded index is read before a run). */
    private readonly tickersOnly = false,
    private readonly maxRows = 4096,
    private readonly maxLevels = 65_536,
  ) {
    this.out = new L2BatchBuilder(maxRows, maxLevels);
  }

  /** One record of the merged stream, from `sources[source]`, played at `tsNs`. */
  record(r: MarketRecord, source: number, tsNs: bigint): void {
    const m = this.markets[source]!;
    if (m.symbol !== undefined && r.symbol !== m.symbol) return;
    if (this.tickersOnly) {
      if (r.kind === 'stats') this.ticker(m.market, tsNs, r.recvNs - r.exchNs, r);
      return;
    }
    if (r.kind === 'book') {
      if (!m.l1) this.book(source, r.recvNs, r.exchNs, r.symbol, r.reset, sideCode(r.side), r.priceTicks, r.qtyLots, tsNs);
      return;
    }
    this.openSource = -1;
    const feedDelayNs = r.recvNs - r.exchNs;
    if (r.kind === 'trade') this.trade(m.market, tsNs, feedDelayNs, sideCode(r.side), r.priceTicks, r.qtyLots);
    else if (r.kind === 'quote') this.quote(source, m, tsNs, feedDelayNs, r.bidTicks ?? NaN, r.bidQtyLots ?? NaN, r.askTicks ?? NaN, r.askQtyLots ?? NaN);
    else this.ticker(m.market, tsNs, feedDelayNs, r);
  }

  /**
   * Rows of a source's own column batch; `floorNs` is the last time played before it, and the
   * new one is returned: exchange times are held level where they step back, as the merge does.
   */
  batch(b: MarketBatch, source: number, floorNs: bigint): bigint {
    const m = this.markets[source]!;
    const wanted = m.symbol === undefined ? -1 : b.symbols.indexOf(m.symbol);
    if (wanted < 0 && m.symbol !== undefined) return b.length === 0 ? floorNs : maxTime(floorNs, b);
    let floor = floorNs;
    const { kind, exchNs, recvNs, symbol } = b;
    if (this.tickersOnly) {
      for (let i = 0; i < b.length; i++) {
        const t = exchNs[i]!;
        floor = t < floor ? floor : t;
        if (kind[i] === KIND_STATS && (wanted < 0 || symbol[i] === wanted)) this.ticker(m.market, floor, recvNs[i]! - t, b.stats(i));
      }
      return floor;
    }
    // Read once per batch: a lazily decoded batch decodes a column on its first read.
    const side = b.side;
    const priceTicks = b.priceTicks;
    const qtyLots = b.qtyLots;
    const reset = b.reset;
    // A row's times are read as bigints only where they differ from the row before's (a book
    // message's level rows share them): each BigInt64Array read makes a bigint, and two a row were
    // most of this loop's time and of the reader thread's garbage.
    const exchWords = words(exchNs);
    const recvWords = words(recvNs);
    let t = 0n;
    let r = 0n;
    for (let i = 0; i < b.length; i++) {
      const w = 2 * i;
      if (i === 0 || exchWords[w] !== exchWords[w - 2] || exchWords[w + 1] !== exchWords[w - 1]) t = exchNs[i]!;
      if (i === 0 || recvWords[w] !== recvWords[w - 2] || recvWords[w + 1] !== recvWords[w - 1]) r = recvNs[i]!;
      const tsNs = t < floor ? floor : t;
      floor = tsNs;
      if (wanted >= 0 && symbol[i] !== wanted) continue;
      const k = kind[i];
      if (k === KIND_BOOK) {
        if (!m.l1) this.book(source, r, t, b.symbols[symbol[i]!]!, reset[i] === 1, side[i]!, priceTicks[i]!, qtyLots[i]!, tsNs);
        continue;
      }
      this.openSource = -1;
      const feedDelayNs = r - t;
      if (k === KIND_TRADE) this.trade(m.market, tsNs, feedDelayNs, side[i]!, priceTicks[i]!, qtyLots[i]!);
      else if (k === KIND_QUOTE) this.quote(source, m, tsNs, feedDelayNs, b.bidTicks[i]!, b.bidQtyLots[i]!, b.askTicks[i]!, b.askQtyLots[i]!);
      else this.ticker(m.market, tsNs, feedDelayNs, b.stats(i));
    }
    return floor;
  }

  /** Ends the input: the last rows go to `ready`. */
  finish(): void {
    this.openSource = -1;
    if (this.out.length > 0) this.ready.push(this.out.take());
  }

  /** A level row (`side` L2_SIDE_NONE: a reset that carries no level). */
  private book(source: number, recvNs: bigint, exchNs: bigint, symbol: string, reset: boolean, side: number, priceTicks: number, qtyLots: number, tsNs: bigint): void {
    if (reset || source !== this.openSource || recvNs !== this.openRecvNs || exchNs !== this.openExchNs || symbol !== this.openSymbol) {
      this.cut();
      this.out.beginBook(this.markets[source]!.market, tsNs, recvNs - exchNs, reset);
      this.openSource = source;
      this.openRecvNs = recvNs;
      this.openExchNs = exchNs;
      this.openSymbol = symbol;
    }
    if (side !== L2_SIDE_NONE) this.out.addLevel(side, priceTicks, qtyLots);
  }

  /** A quote (absent numbers NaN): the book reset to its touch, where quotes are the book. */
  private quote(source: number, m: SourceMarket, tsNs: bigint, feedDelayNs: bigint, bidTicks: number, bidQtyLots: number, askTicks: number, askQtyLots: number): void {
    // L1: a side the quote lacks (or shows empty) is empty; else quotes beside a depth book are ignored.
    const l1 = m.l1;
    if (!l1 && this.sources[source]!.quotes !== 'book') return;
    this.cut();
    this.out.beginBook(m.market, tsNs, feedDelayNs, true);
    if (!Number.isNaN(bidTicks) && !Number.isNaN(bidQtyLots) && (!l1 || bidQtyLots > 0)) this.out.addLevel(L2_SIDE_BUY, bidTicks, bidQtyLots);
    if (!Number.isNaN(askTicks) && !Number.isNaN(askQtyLots) && (!l1 || askQtyLots > 0)) this.out.addLevel(L2_SIDE_SELL, askTicks, askQtyLots);
  }

  private trade(market: number, tsNs: bigint, feedDelayNs: bigint, takerSide: number, priceTicks: number, qtyLots: number): void {
    this.cut();
    this.out.addTrade(market, tsNs, feedDelayNs, takerSide, priceTicks, qtyLots);
  }

  private ticker(market: number, tsNs: bigint, feedDelayNs: bigint, s: StatsFields): void {
    this.cut();
    this.out.addTicker({ kind: 'ticker', tsNs, feedDelayNs, market, markPrice: s.markPrice, indexPrice: s.indexPrice, fundingRate: s.fundingRate, fundingTsNs: s.fundingTsNs });
  }

  /** Before a new row: a full batch goes to `ready` (rows are never split across batches). */
  private cut(): void {
    if (this.out.length >= this.maxRows || this.out.levelCount >= this.maxLevels) this.ready.push(this.out.take());
  }
}

/** A time column's 64-bit values as pairs of 32-bit words (compared without making bigints). */
function words(times: BigInt64Array): Int32Array {
  return new Int32Array(times.buffer, times.byteOffset, times.length * 2);
}

/** The time held after a batch none of whose rows are kept. */
function maxTime(floorNs: bigint, b: MarketBatch): bigint {
  let floor = floorNs;
  for (let i = 0; i < b.length; i++) if (b.exchNs[i]! > floor) floor = b.exchNs[i]!;
  return floor;
}
