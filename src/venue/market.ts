import type { BigRational } from '../market/rational.ts';
import type { InstrumentState } from '../core/types.ts';
import { OrderBook } from '../book/order-book.ts';
import { CandleSeries } from '../market/candles.ts';
import { SessionStats } from '../market/session-stats.ts';
import { markPriceTicks } from '../market/mark-price.ts';
import { TimeWeightedPrice } from '../market/funding.ts';
import type { Instrument } from './instrument.ts';
import type { Money } from '../core/money.ts';

/** A recorded mark price (backs get_mtm_prices). */
export interface MarkRecord {
  sec: number;
  nanos: number;
  markTicks: number;
}

/** A recorded funding settlement (backs get_funding_rates); decimals already as wire text. */
export interface FundingRecord {
  sec: number;
  nanos: number;
  benchmarkPrice: string;
  settlementPrice: string;
  fundingAmount: string;
  fundingRate: string;
  /** Money paid per contract × multiplier by longs to shorts (negative: shorts pay). */
  amountPerLot: Money;
}

/** Everything the venue keeps for one instrument. */
export class Market {
  readonly book: OrderBook;
  readonly candles = new CandleSeries();
  readonly stats = new SessionStats();
  readonly markHistory: MarkRecord[] = [];
  readonly fundingHistory: FundingRecord[] = [];
  readonly markTwap = new TimeWeightedPrice();
  /** Time-weighted index since the last funding: the funding benchmark (decisions.md). */
  readonly indexTwap = new TimeWeightedPrice();
  state: InstrumentState;
  indexTicks: number;
  markTicks: number;
  /**
   * Mark price from recorded data (a replayed derivative ticker): when set it replaces the
   * index/touch median, and funding's time-weighted mark follows it.
   */
  recordedMarkTicks: number | undefined = undefined;
  /** Funding rate per interval from recorded data: when set, funding settles at this rate. */
  recordedFundingRate: BigRational | undefined = undefined;
  /** Money of one tick·lot as a double (approximate: for the margin pre-check only). */
  readonly tickLotMoneyApprox: number;
  /**
   * Initial margin of one tick·lot as a double when tick·lot money × the initial margin rate is
   * a whole number of Money units (then margins are exact multiples of it), else NaN: the
   * order-entry margin check then always takes the exact path.
   */
  readonly imPerTickLotApprox: number;
  /** Largest allowed |price − mark| in ticks (the price band), recomputed when the mark moves. */
  private bandTicks = 0;

  constructor(
    /** Position of this market in the venue's list (stable, deterministic). */
    readonly index: number,
    readonly instrument: Instrument,
    startSec: number,
    startNanos: number,
  ) {
    this.book = new OrderBook({ selfTrade: instrument.selfTradePrevention ? 'cancel-resting' : 'allow' });
    this.state = instrument.initialState;
    this.indexTicks = instrument.indexPriceTicks;
    this.markTicks = instrument.indexPriceTicks;
    this.markTwap.reset(startSec, startNanos, this.markTicks);
    this.indexTwap.reset(startSec, startNanos, this.indexTicks);
    this.bandTicks = this.computeBandTicks();
    this.tickLotMoneyApprox = Number(instrument.tickLotMoney);
    const im = instrument.tickLotMoney * instrument.initialMarginPct.num;
    this.imPerTickLotApprox = im % instrument.initialMarginPct.den === 0n ? Number(im / instrument.initialMarginPct.den) : NaN;
  }

  get symbol(): string {
    return this.instrument.symbol;
  }

  /** The index moves to `indexTicks` at `(sec, nanos)`; feeds the funding benchmark's TWAP. */
  setIndex(sec: number, nanos: number, indexTicks: number): void {
    this.indexTicks = indexTicks;
    this.indexTwap.update(sec, nanos, indexTicks);
  }

  /** Starts the next funding interval's averages at `(sec, nanos)` from the current mark and index. */
  restartFundingAverages(sec: number, nanos: number): void {
    this.markTwap.reset(sec, nanos, this.markTicks);
    this.indexTwap.reset(sec, nanos, this.indexTicks);
  }

  /**
   * Recomputes the mark from index and touch; feeds the funding TWAP when it moved.
   * Returns true when the mark changed.
   */
  refreshMark(sec: number, nanos: number): boolean {
    const mark = this.recordedMarkTicks ?? markPriceTicks(this.indexTicks, this.book.bestBidTicks(), this.book.bestAskTicks());
    if (mark === this.markTicks) return false;
    this.markTicks = mark;
    this.markTwap.update(sec, nanos, mark);
    this.bandTicks = this.computeBandTicks();
    return true;
  }

  /** True when `priceTicks` lies within the price band around the current mark. */
  isWithinBand(priceTicks: number): boolean {
    return Math.abs(priceTicks - this.markTicks) <= this.bandTicks;
  }

  /** The most aggressive price the band allows for `side` (at least one tick). */
  bandEdgeTicks(side: 'B' | 'S'): number {
    return side === 'B' ? this.markTicks + this.bandTicks : Math.max(1, this.markTicks - this.bandTicks);
  }

  private computeBandTicks(): number {
    // |price − mark| ≤ mark × band  ⇔  |price − mark| ≤ floor(mark × band) for integer ticks.
    const band = this.instrument.priceBandPct;
    return Number((BigInt(this.markTicks) * band.num) / band.den);
  }
}
