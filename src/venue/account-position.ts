import type { Money } from '../core/money.ts';
import { tickLotsAtRate } from './money-rate.ts';
import { Position, tickLots } from '../risk/position.ts';
import type { Market } from './market.ts';
import type { BigRational } from '../market/rational.ts';
import type { Instrument } from './instrument.ts';

/** What an `AccountPosition` reads from its account: the money still pending as tick·lot counters. */
interface PendingMoney {
  pendingOf(marketIndex: number): { realized: Money; fees: Money };
}

/** A position plus the money it has settled into cash. */
export class AccountPosition {
  readonly position: Position;
  /**
   * Realized trading PnL (FIFO) and fees paid, but for what the account's market row still
   * holds as tick·lot counters (`Account.addFillTicks`): `tradingPnl` and `fees` add it.
   */
  tradingPnlBase: Money = 0n;
  feesBase: Money = 0n;
  /** Funding received, Money. */
  funding: Money = 0n;

  // The last unrealized PnL and margin, with the inputs they were computed from: the margin
  // check reads both for every order, and they only change when the mark or the position does
  // (bigint arithmetic allocates, so recomputing them per order was a large part of its cost).
  private uMark = NaN;
  private uVersion = -1;
  private uValue: Money = 0n;
  private mMark = NaN;
  private mNet = 0;
  private mPct: BigRational | undefined = undefined;
  private mValue: Money = 0n;

  /** `rows` from `at`: where the position's numbers live (its account's market row). */
  constructor(
    readonly market: Market,
    private readonly account: PendingMoney,
    rows: number[],
    at: number,
  ) {
    this.position = new Position(rows, at);
  }

  /** Realized trading PnL (FIFO), Money. */
  get tradingPnl(): Money {
    return this.tradingPnlBase + this.account.pendingOf(this.market.index).realized;
  }

  set tradingPnl(value: Money) {
    this.tradingPnlBase = value - this.account.pendingOf(this.market.index).realized;
  }

  /** Fees paid (maker rebates negative), Money. */
  get fees(): Money {
    return this.feesBase + this.account.pendingOf(this.market.index).fees;
  }

  set fees(value: Money) {
    this.feesBase = value - this.account.pendingOf(this.market.index).fees;
  }

  /** Adds Money straight to the bigints (a fill without counters, or counters folded). */
  addToBases(realized: Money, fee: Money): void {
    this.tradingPnlBase += realized;
    this.feesBase += fee;
  }

  /** Drops the cached values (the position was put back by an undo: its version repeats). */
  forgetCache(): void {
    this.uVersion = -1;
    this.mMark = NaN;
  }

  /** Realized PnL as the venue reports it: trading PnL − fees + funding received. */
  get realized(): Money {
    return this.tradingPnl - this.fees + this.funding;
  }

  unrealized(): Money {
    const mark = this.market.markTicks;
    const p = this.position;
    if (mark !== this.uMark || p.version !== this.uVersion) {
      this.uValue = p.unrealizedTicks(mark) * this.market.instrument.tickLotMoney;
      this.uMark = mark;
      this.uVersion = p.version;
    }
    return this.uValue;
  }

  /** Margin of the position at the current mark, for the given percent. */
  margin(pct: BigRational): Money {
    const net = this.position.netLots;
    if (net === 0) return 0n;
    const mark = this.market.markTicks;
    if (mark !== this.mMark || net !== this.mNet || pct !== this.mPct) {
      this.mValue = marginOf(this.market.instrument, mark, Math.abs(net), pct);
      this.mMark = mark;
      this.mNet = net;
      this.mPct = pct;
    }
    return this.mValue;
  }
}

/** Money margin of `lots` at `priceTicks`: lots × price × multiplier × pct. */
export function marginOf(instrument: Instrument, priceTicks: number, lots: number, pct: BigRational): Money {
  return tickLotsAtRate(tickLots(priceTicks, lots), instrument.tickLotMoney, pct);
}
