import type { BigRational } from '../market/rational.ts';
import { divRoundHalfEven, formatMoney, formatScaled } from '../core/money.ts';
import { computeFunding, nextFundingSec } from '../market/funding.ts';
import type { Account } from './account.ts';
import type { Market } from './market.ts';
import type { OrderFlow } from './order-flow.ts';
import type { VenueState } from './venue-state.ts';
import { faultPoint } from './fault-points.ts';
import { saveAccount, savePosition } from './undo.ts';
import { openSlotsOf } from './order-scans.ts';

/** Digits kept in a funding rate's text. */
const FUNDING_RATE_DECIMALS = 12;

/**
 * Mark-to-market records, funding settlements and liquidations: everything the venue does on
 * its own schedule rather than in answer to an order.
 */
export class Settlement {
  constructor(
    private readonly s: VenueState,
    private readonly flow: OrderFlow,
  ) {}

  /** Records the current mark of every market (the fixed-cadence mtm record). */
  recordMarks(): void {
    for (const market of this.s.markets) this.recordMark(market);
  }

  recordMark(market: Market): void {
    this.s.log.touchMarket(market);
    const { nowSec: sec, nowNanos: nanos } = this.s.clock;
    const last = market.markHistory[market.markHistory.length - 1];
    // The minute cadence and a funding can fall on one instant: keep one record per instant.
    if (last !== undefined && last.sec === sec && last.nanos === nanos) {
      const before = last.markTicks;
      this.s.log.onUndo(() => (last.markTicks = before));
      last.markTicks = market.markTicks;
    }
    else market.markHistory.push({ sec, nanos, markTicks: market.markTicks });
    this.s.announce('markRecorded', market);
  }

  /** Schedules the next funding of `market` after now. */
  scheduleFunding(market: Market): void {
    const at = nextFundingSec(this.s.clock.nowSec, market.instrument.funding);
    this.s.clock.scheduleAt(BigInt(at) * 1_000_000_000n, () => {
      this.s.exclusive(() => this.settleFunding(market));
      this.scheduleFunding(market);
    });
  }

  /**
   * Settles one funding interval of `market` (decisions.md): benchmark = time-weighted index
   * since the last funding, settlement = time-weighted mark over the same interval, rate =
   * (settlement − benchmark) / benchmark (plus the instrument's interest component, if any)
   * clamped to ± cap, amount = rate × benchmark per contract. Longs pay amount × qty ×
   * multiplier to shorts when positive. A recorded rate (replayed derivative ticker) replaces
   * the computed one: amount = rate × index now, as the exchange itself settled it. The
   * per-contract amount is rounded once to Money precision, so payments are exact integers
   * and sum to zero across accounts.
   */
  settleFunding(market: Market): void {
    const { nowSec: sec, nowNanos: nanos } = this.s.clock;
    const inst = market.instrument;
    const settlement = market.markTwap.average(sec, nanos);
    const twapIndex = market.indexTwap.average(sec, nanos);
    const benchmark = market.recordedFundingRate === undefined
      ? { num: twapIndex.numTicks, den: twapIndex.den }
      : { num: BigInt(market.indexTicks), den: 1n };
    const f = market.recordedFundingRate === undefined
      ? computeFunding(benchmark, { num: settlement.numTicks, den: settlement.den }, inst.fundingCap, inst.fundingInterest)
      : recordedFunding(market.indexTicks, market.recordedFundingRate);
    const amountPerContract = divRoundHalfEven(f.amountNum * inst.tick.money, f.amountDen);
    const amountPerLot = amountPerContract * BigInt(inst.multiplier);
    this.s.log.touchMarket(market);
    for (const account of this.s.accounts) {
      const p = account.findPosition(market);
      if (p === undefined || p.position.netLots === 0) continue;
      const payment = amountPerLot * BigInt(p.position.netLots); // > 0: this account pays
      saveAccount(this.s.log.journal, account, market);
      savePosition(this.s.log.journal, account, market);
      p.funding -= payment;
      faultPoint('funding.position');
      account.cash -= payment;
      faultPoint('funding.cash');
    }
    faultPoint('funding.record');
    market.fundingHistory.push({
      sec,
      nanos,
      benchmarkPrice: inst.tick.formatRatioPrice(benchmark.num, benchmark.den),
      settlementPrice: inst.tick.formatRatioPrice(settlement.numTicks, settlement.den),
      fundingAmount: formatMoney(amountPerContract),
      fundingRate: formatScaled(divRoundHalfEven(f.rateNum * 10n ** BigInt(FUNDING_RATE_DECIMALS), f.rateDen), FUNDING_RATE_DECIMALS),
      amountPerLot,
    });
    market.restartFundingAverages(sec, nanos);
    this.recordMark(market);
    faultPoint('funding.mark');
    this.s.announce('fundingSettled', market);
  }

  /** Liquidates every account whose equity is below its maintenance margin. */
  checkLiquidations(): void {
    for (const account of this.s.accounts) {
      if (!account.hasOpenPosition()) continue;
      if (account.equity() < account.positionsMargin('maintenance')) this.liquidate(account);
    }
  }

  /**
   * Cancels the account's orders (`xr: LIQUIDATION`) and closes its positions with IOC
   * orders marked as liquidations (`L-` ids) priced at the edge of the price band, so they
   * take whatever liquidity the band allows. What does not fill stays open and is retried at
   * the next check; a deficit stays on the account (there is no insurance fund).
   */
  liquidate(account: Account): void {
    this.s.liquidations++;
    faultPoint('liquidation.start');
    for (const slot of openSlotsOf(this.s.orders, account.id)) {
      this.flow.cancelResting(slot, 'LIQUIDATION', 'canceled for liquidation');
      faultPoint('liquidation.cancel');
    }
    for (const p of account.positionList) {
      const net = p.position.netLots;
      const market = p.market;
      if (net === 0 || market.state !== 'OPEN') continue;
      const side = net > 0 ? 'S' : 'B';
      const priceTicks = market.bandEdgeTicks(side);
      const slot = this.flow.submit(account, market, market.symbol, {
        side,
        priceText: market.instrument.tick.toPrice(priceTicks),
        priceTicks,
        qtyLots: Math.abs(net),
        tif: 'IOC',
        postOnly: false,
        isLiquidation: true,
      });
      this.flow.release(slot);
      faultPoint('liquidation.close');
    }
  }
}

/** Funding at a recorded rate: amount per contract = rate × benchmark (index), in ticks. */
function recordedFunding(benchmarkTicks: number, rate: BigRational): { amountNum: bigint; amountDen: bigint; rateNum: bigint; rateDen: bigint } {
  return { amountNum: rate.num * BigInt(benchmarkTicks), amountDen: rate.den, rateNum: rate.num, rateDen: rate.den };
}
