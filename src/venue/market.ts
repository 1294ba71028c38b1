import type { BigRational } from '../market/rational.ts';
import { INSTRUMENT_STATES, type InstrumentState } from '../core/types.ts';
import type { OrderIndex } from '../book/id-index.ts';
import { OrderBook } from '../book/order-book.ts';
import { CandleSeries } from '../market/candles.ts';
import { SessionStats } from '../market/session-stats.ts';
import { markPriceTicks } from '../market/mark-price.ts';
import { TimeWeightedPrice } from '../market/funding.ts';
import type { Instrument } from './instrument.ts';
import type { Money } from '../core/money.ts';
import type { UndoJournal } from './undo-journal.ts';
import { tickLotsAtRate } from './money-rate.ts';
import { tickLots } from '../risk/position.ts';

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
  // Money per tick·lot of the taker fee, maker fee and initial margin when that is a whole
  // number of Money units (the usual case), else undefined (then `tickLotsAtRate` rounds).
  readonly takerFeeFactor: Money | undefined;
  readonly makerFeeFactor: Money | undefined;
  /** The fee factors as doubles (0 without a whole factor: then no fill is counted in tick·lots). */
  readonly takerFeeApprox: number;
  readonly makerFeeApprox: number;
  /**
   * Σ notional (tick·lots) of taker and of maker fills whose fees the venue collected but has
   * not yet added to its Money total (`VenueState.feesCollected` adds them; see `collectFeeTicks`).
   */
  takerFeeTicks = 0;
  makerFeeTicks = 0;
  /** Initial margin (Money) per tick·lot when a whole number, else undefined. */
  readonly imFactor: Money | undefined;
  /** Largest allowed |price − mark| in ticks (the price band), recomputed when the mark moves. */
  private bandTicks = 0;
  /** The price band in lowest terms as numbers (NaN when either is no safe integer). */
  private readonly bandNum: number;
  private readonly bandDen: number;
  /**
   * Called before the mark, the band or the funding averages change (the venue saves the
   * market's state and averages then for the undo of its command: they change only when the
   * mark or index moves, far less often than orders come).
   */
  beforeAveragesChange: () => void = () => {};
  /**
   * An upper bound of every price level's total lots in this market's book: Σ of the lots of
   * every rest (`restOrder`) and of every recorded quantity set (external-liquidity.ts), never
   * lowered: fills, cancels and rollbacks only lower the levels. While it is below
   * 2^53 − an order's lots, no level total can overflow and order entry skips the level lookup
   * of its overflow check (`quantityOverflow`).
   */
  levelLotsBound = 0;
  /** Numbers of the last commands that saved this market's state, averages and trades (command-log.ts). */
  readonly undoMarks = { state: 0, averages: 0, trades: 0 };

  constructor(
    /** Position of this market in the venue's list (stable, deterministic). */
    readonly index: number,
    readonly instrument: Instrument,
    startSec: number,
    startNanos: number,
    /** The book's order index (the venue's, see book-index.ts); default the book's own. */
    ids?: OrderIndex,
  ) {
    this.book = new OrderBook({ selfTrade: instrument.selfTradePrevention ? 'cancel-resting' : 'allow', ids });
    this.state = instrument.initialState;
    this.indexTicks = instrument.indexPriceTicks;
    this.markTicks = instrument.indexPriceTicks;
    this.markTwap.reset(startSec, startNanos, this.markTicks);
    this.indexTwap.reset(startSec, startNanos, this.indexTicks);
    [this.bandNum, this.bandDen] = lowestTerms(instrument.priceBandPct);
    this.bandTicks = this.computeBandTicks();
    this.tickLotMoneyApprox = Number(instrument.tickLotMoney);
    const im = instrument.tickLotMoney * instrument.initialMarginPct.num;
    this.imPerTickLotApprox = im % instrument.initialMarginPct.den === 0n ? Number(im / instrument.initialMarginPct.den) : NaN;
    this.takerFeeFactor = wholeFactor(instrument.tickLotMoney, instrument.takerFee);
    this.makerFeeFactor = wholeFactor(instrument.tickLotMoney, instrument.makerFee);
    this.imFactor = wholeFactor(instrument.tickLotMoney, instrument.initialMarginPct);
    this.takerFeeApprox = this.takerFeeFactor === undefined ? 0 : Number(this.takerFeeFactor);
    this.makerFeeApprox = this.makerFeeFactor === undefined ? 0 : Number(this.makerFeeFactor);
  }

  /** The fees of the counters `takerFeeTicks` / `makerFeeTicks`, as Money. */
  get pendingFees(): Money {
    const t = this.takerFeeTicks;
    const m = this.makerFeeTicks;
    return (t === 0 ? 0n : BigInt(t) * this.takerFeeFactor!) + (m === 0 ? 0n : BigInt(m) * this.makerFeeFactor!);
  }

  /** The fee of a fill of `tickLots` (price ticks × lots), taker's or maker's: `tickLotsAtRate` without its lookup. */
  feeOf(tickLots: bigint, aggressor: boolean): Money {
    const f = aggressor ? this.takerFeeFactor : this.makerFeeFactor;
    if (f !== undefined) return tickLots * f;
    const inst = this.instrument;
    return tickLotsAtRate(tickLots, inst.tickLotMoney, aggressor ? inst.takerFee : inst.makerFee);
  }

  /** Initial margin of `lots` at `priceTicks` (`marginOf` at the initial margin rate, without its lookup). */
  initialMarginOf(priceTicks: number, lots: number): Money {
    const f = this.imFactor;
    const tl = tickLots(priceTicks, lots);
    if (f !== undefined) return tl * f;
    const inst = this.instrument;
    return tickLotsAtRate(tl, inst.tickLotMoney, inst.initialMarginPct);
  }

  get symbol(): string {
    return this.instrument.symbol;
  }

  /** The index moves to `indexTicks` at `(sec, nanos)`; feeds the funding benchmark's TWAP. */
  setIndex(sec: number, nanos: number, indexTicks: number): void {
    this.beforeAveragesChange();
    this.indexTicks = indexTicks;
    this.indexTwap.update(sec, nanos, indexTicks);
  }

  /** Starts the next funding interval's averages at `(sec, nanos)` from the current mark and index. */
  restartFundingAverages(sec: number, nanos: number): void {
    this.beforeAveragesChange();
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
    this.beforeAveragesChange();
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

  /**
   * Writes the scalar state and the lengths of the histories (what a command may change besides
   * the averages and a rewritten last mark record, saved apart) as a journal entry's numbers and
   * references (the venue's undo): the market by its index and its state by its place in
   * `INSTRUMENT_STATES` (numbers: no reference but a recorded funding rate).
   */
  saveTo(j: UndoJournal, op: number): void {
    const at = j.entry(op, 10);
    const n = j.nums;
    n[at] = this.indexTicks;
    n[at + 1] = this.markTicks;
    n[at + 2] = this.recordedMarkTicks ?? NaN;
    n[at + 3] = this.bandTicks;
    n[at + 4] = this.markHistory.length;
    n[at + 5] = this.fundingHistory.length;
    n[at + 6] = this.takerFeeTicks;
    n[at + 7] = this.makerFeeTicks;
    n[at + 8] = this.index;
    n[at + 9] = INSTRUMENT_STATES.indexOf(this.state);
    j.ref(this.recordedFundingRate);
  }

  /** The index of the market whose `saveTo` entry is at `n[at]`. */
  static savedIndex(n: Float64Array, at: number): number {
    return n[at + 8]!;
  }

  /** Puts back what `saveTo` wrote (`refAt`: where its references start). */
  restoreFrom(n: Float64Array, at: number, refs: readonly unknown[], refAt: number): void {
    this.indexTicks = n[at]!;
    this.markTicks = n[at + 1]!;
    this.recordedMarkTicks = Number.isNaN(n[at + 2]) ? undefined : n[at + 2]!;
    this.bandTicks = n[at + 3]!;
    this.markHistory.length = n[at + 4]!;
    this.fundingHistory.length = n[at + 5]!;
    this.takerFeeTicks = n[at + 6]!;
    this.makerFeeTicks = n[at + 7]!;
    this.state = INSTRUMENT_STATES[n[at + 9]!]!;
    this.recordedFundingRate = refs[refAt] as BigRational | undefined;
  }

  private computeBandTicks(): number {
    // |price − mark| ≤ mark × band  ⇔  |price − mark| ≤ floor(mark × band) for integer ticks.
    // In numbers while exact (the mark moves with the touch: no bigints per move).
    const scaled = this.markTicks * this.bandNum;
    if (Number.isSafeInteger(scaled) && scaled >= 0) return floorDiv(scaled, this.bandDen);
    const band = this.instrument.priceBandPct;
    return Number((BigInt(this.markTicks) * band.num) / band.den);
  }
}

/** `r` in lowest terms as safe integers, or NaNs. */
export function lowestTerms(r: BigRational): [number, number] {
  let a = r.num < 0n ? -r.num : r.num;
  let b = r.den;
  while (b !== 0n) [a, b] = [b, a % b];
  const num = Number(r.num / a);
  const den = Number(r.den / a);
  return Number.isSafeInteger(num) && Number.isSafeInteger(den) && den > 0 ? [num, den] : [NaN, NaN];
}

/**
 * floor(a / d) of safe integers a ≥ 0, d > 0, exactly: when a / d is no integer it lies at least
 * 1/d from the next one, and the double division errs by at most (a/d)·2^-53 < 1/d, so the
 * rounded quotient never reaches that integer.
 */
export function floorDiv(a: number, d: number): number {
  return Math.floor(a / d);
}

/** `unit × rate` when it is a whole number of Money units, else undefined. */
function wholeFactor(unit: Money, rate: BigRational): Money | undefined {
  const scaled = unit * rate.num;
  return scaled % rate.den === 0n ? scaled / rate.den : undefined;
}
