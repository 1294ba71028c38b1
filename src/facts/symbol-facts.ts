import type { FactsBookRecord as BookRecord, FactsRecord as MarketRecord, FactsQuoteRecord as QuoteRecord, FactsStatsRecord as StatsRecord, FactsTradeRecord as TradeRecord } from './records.ts';
import { LevelBook } from './level-book.ts';
import { DEPTH_DISTANCES, TopTracker } from './top-tracker.ts';

/** One funding settlement as observed: its rate, the time since the previous one and the mean basis over it. */
export interface FundingObservation {
  rate: number;
  intervalNs: number;
  /** Mean (mid − index) / index over the interval's samples, bps; NaN without samples. */
  basisBps: number;
}

/**
 * Everything `perpsim facts` accumulates for one symbol from its normalized market records, in
 * receive-time order: top of book from quotes and from book rows (kept apart: a source with
 * both, like a Binance capture with book tickers, reports the quotes' spread and the book's
 * depth), trades, fixed-horizon returns with the volume traded in each, mark/index basis and
 * funding settlements.
 */
export class SymbolFacts {
  readonly quoteTop = new TopTracker();
  readonly bookTop = new TopTracker();
  private readonly book = new LevelBook();
  /** Receive time of the book rows applied but not yet observed (rows sharing a time go together). */
  private pendingBookNs: bigint | undefined;

  readonly tradeSizes: number[] = [];
  /** Time between consecutive trade instants (prints sharing an exchange time are one arrival), ms. */
  readonly interArrivalMs: number[] = [];
  private lastTradeNs: bigint | undefined;

  /** Returns over consecutive buckets, in segments broken by buckets with no price. */
  readonly returnSegments: number[][] = [];
  /** Lots traded in each return's (ending) bucket, aligned with `returnSegments`. */
  readonly volumeSegments: number[][] = [];
  private bucket = Number.NaN;
  private bucketTrade: number | undefined;
  private bucketMid: number | undefined;
  private bucketVolume = 0;
  private prevBucket = Number.NaN;
  private prevPrice: number | undefined;

  private lastMark: number | undefined;
  private lastIndex: number | undefined;
  private lastMidTicks: number | undefined;

  /** The last mid seen, ticks. */
  get lastMid(): number | undefined {
    return this.lastMidTicks;
  }
  /** (mark − index) / index at each mark record, bps. */
  readonly basisBps: number[] = [];
  /** (mid − index) / index at each mark record with a mid, bps: the perp's own premium. */
  readonly midBasisBps: number[] = [];
  private basisSinceFundingSum = 0;
  private basisSinceFundingCount = 0;
  readonly fundings: FundingObservation[] = [];
  private lastFundingNs: bigint | undefined;
  /** Funding keyed by its settlement time (sources that restate a rate until it settles). */
  private pendingFunding: { tsNs: bigint; rate: number } | undefined;

  firstNs: bigint | undefined;
  lastNs: bigint | undefined;

  /**
   * @param horizonNs return horizon.
   * @param tickSize price of one tick, to put the mid (ticks) beside the index (a price); NaN
   *   when unknown (no mid basis then).
   */
  constructor(
    private readonly horizonNs: bigint,
    private readonly tickSize = Number.NaN,
  ) {}

  observe(r: MarketRecord): void {
    this.firstNs ??= r.recvNs;
    this.lastNs = r.recvNs;
    if (r.kind !== 'book' && this.pendingBookNs !== undefined && r.recvNs !== this.pendingBookNs) this.commitBook();
    switch (r.kind) {
      case 'book': return this.onBook(r);
      case 'quote': return this.onQuote(r);
      case 'trade': return this.onTrade(r);
      default: return this.onStats(r);
    }
  }

  /** Closes what is open (the last book update, the last bucket, a funding awaiting its time). */
  finish(): void {
    if (this.pendingBookNs !== undefined) this.commitBook();
    this.closeBucket();
    this.bucket = Number.NaN;
    if (this.pendingFunding !== undefined) this.settle(this.pendingFunding.tsNs, this.pendingFunding.rate);
    this.pendingFunding = undefined;
  }

  private onBook(r: BookRecord): void {
    if (this.pendingBookNs !== undefined && r.recvNs !== this.pendingBookNs) this.commitBook();
    if (r.reset) this.book.clear();
    if (r.side !== undefined) this.book.set(r.side, r.priceTicks, r.qtyLots);
    this.pendingBookNs = r.recvNs;
  }

  private commitBook(): void {
    const tNs = this.pendingBookNs!;
    this.pendingBookNs = undefined;
    const bid = this.book.bestBidTicks;
    const ask = this.book.bestAskTicks;
    if (bid === undefined || ask === undefined) {
      this.bookTop.observe(tNs, undefined, this.book.touchLots(), undefined);
      return;
    }
    const mid = (bid + ask) / 2;
    const depths = [
      ...DEPTH_DISTANCES.map((d) => this.book.depthWithin(mid, d)),
      ...DEPTH_DISTANCES.map((d) => this.book.depthWithin(mid, d * mid * 1e-4)),
    ];
    this.bookTop.observe(tNs, ask - bid, this.book.touchLots(), depths);
    this.onMid(tNs, mid);
  }

  private onQuote(r: QuoteRecord): void {
    const twoSided = r.bidTicks !== undefined && r.askTicks !== undefined;
    this.quoteTop.observe(r.recvNs, twoSided ? r.askTicks! - r.bidTicks! : undefined, (r.bidQtyLots ?? 0) + (r.askQtyLots ?? 0), undefined);
    if (twoSided) this.onMid(r.recvNs, (r.bidTicks! + r.askTicks!) / 2);
  }

  private onMid(tNs: bigint, mid: number): void {
    this.lastMidTicks = mid;
    this.rollBucket(tNs);
    this.bucketMid = mid;
  }

  private onTrade(r: TradeRecord): void {
    this.rollBucket(r.recvNs);
    this.bucketTrade = r.priceTicks;
    this.bucketVolume += r.qtyLots;
    this.tradeSizes.push(r.qtyLots);
    if (this.lastTradeNs !== undefined && r.exchNs > this.lastTradeNs) this.interArrivalMs.push(Number(r.exchNs - this.lastTradeNs) / 1e6);
    if (this.lastTradeNs === undefined || r.exchNs > this.lastTradeNs) this.lastTradeNs = r.exchNs;
  }

  private onStats(r: StatsRecord): void {
    if (r.indexPrice !== undefined) this.lastIndex = Number(r.indexPrice);
    if (r.markPrice !== undefined) {
      this.lastMark = Number(r.markPrice);
      if (this.lastIndex !== undefined && this.lastIndex > 0) {
        this.basisBps.push(((this.lastMark - this.lastIndex) / this.lastIndex) * 1e4);
        if (this.lastMidTicks !== undefined && this.tickSize > 0) {
          const bps = ((this.lastMidTicks * this.tickSize - this.lastIndex) / this.lastIndex) * 1e4;
          this.midBasisBps.push(bps);
          this.basisSinceFundingSum += bps;
          this.basisSinceFundingCount++;
        }
      }
    }
    if (r.fundingRate === undefined) return;
    const rate = Number(r.fundingRate);
    if (r.fundingTsNs === undefined) return this.settle(r.exchNs, rate);
    // A source restating the coming settlement's rate: the last rate before its time is the one paid.
    if (this.pendingFunding !== undefined && this.pendingFunding.tsNs !== r.fundingTsNs) this.settle(this.pendingFunding.tsNs, this.pendingFunding.rate);
    this.pendingFunding = { tsNs: r.fundingTsNs, rate };
  }

  private settle(tsNs: bigint, rate: number): void {
    const since = this.lastFundingNs ?? this.firstNs ?? tsNs;
    this.fundings.push({
      rate,
      intervalNs: Number(tsNs - since),
      basisBps: this.basisSinceFundingCount > 0 ? this.basisSinceFundingSum / this.basisSinceFundingCount : Number.NaN,
    });
    this.lastFundingNs = tsNs;
    this.basisSinceFundingSum = 0;
    this.basisSinceFundingCount = 0;
  }

  /** Closes the current bucket when `tNs` lies in a later one. */
  private rollBucket(tNs: bigint): void {
    const bucket = Number(tNs / this.horizonNs);
    if (bucket === this.bucket) return;
    this.closeBucket();
    this.bucket = bucket;
  }

  /** The bucket's price is its last trade, else its last mid; a bucket with neither breaks the series. */
  private closeBucket(): void {
    const price = this.bucketTrade ?? this.bucketMid;
    const volume = this.bucketVolume;
    this.bucketTrade = undefined;
    this.bucketMid = undefined;
    this.bucketVolume = 0;
    if (Number.isNaN(this.bucket) || price === undefined || price <= 0) return;
    if (this.prevPrice !== undefined && this.bucket === this.prevBucket + 1) {
      if (this.returnSegments.length === 0) {
        this.returnSegments.push([]);
        this.volumeSegments.push([]);
      }
      this.returnSegments[this.returnSegments.length - 1]!.push(Math.log(price / this.prevPrice));
      this.volumeSegments[this.volumeSegments.length - 1]!.push(volume);
    } else {
      this.returnSegments.push([]);
      this.volumeSegments.push([]);
    }
    this.prevBucket = this.bucket;
    this.prevPrice = price;
  }
}
