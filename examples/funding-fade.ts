/**
 * A funding-rate strategy that fades extreme funding: after each funding settlement it reads
 * the average rate of the last `averageOver` settlements (one rate is noisy: the benchmark is
 * the index at one instant); when |average| ≥ `entryRate` it positions to receive the next
 * payment (short when longs pay, long when shorts pay), `sizeLots` per multiple of `entryRate`
 * up to `maxPositionLots`, betting that the crowded side keeps paying and the premium behind
 * it reverts. When |average| falls below `exitRate` it closes. A stop-loss closes the
 * position when its unrealized loss exceeds `stopLossPct` of its notional and sits out until
 * the next settlement.
 *
 *   npx perpsim backtest examples/funding-fade.ts --scenario funding-squeeze --seed 7 --duration 6h
 *   npx perpsim backtest examples/funding-fade.ts --scenario default --duration 24h --params '{"entryRate":0.00001}'
 */
import { z } from 'zod';
import type { Strategy } from '../src/strategy/strategy.ts';
import { PeriodicTaker } from './lib/periodic-taker.ts';

export const paramsSchema = z
  .strictObject({
    symbol: z.string().default('BTCUSD-PERP'),
    /** |funding rate| of one interval that opens a position (0.0005 = 5 bp). */
    entryRate: z.number().positive().default(0.0005),
    /** |funding rate| under which the position is closed. */
    exitRate: z.number().nonnegative().default(0.0001),
    /** Settlements averaged into the signal. */
    averageOver: z.int().positive().default(3),
    sizeLots: z.int().positive().default(2),
    maxPositionLots: z.int().positive().default(10),
    /** Unrealized loss, in % of the position's notional, that closes it. */
    stopLossPct: z.number().positive().default(1),
    /** How often settlements and the stop-loss are checked, seconds. */
    checkSec: z.int().positive().default(30),
    /** How far through the touch the IOC may fill, ticks. */
    slippageTicks: z.int().nonnegative().default(4),
  })
  .refine((p) => p.exitRate < p.entryRate, { message: 'exitRate must be below entryRate', path: ['exitRate'] });
export type FundingFadeParams = z.infer<typeof paramsSchema>;

const HOUR_NS = 3_600_000_000_000n;

class FundingFade extends PeriodicTaker {
  /** Timestamp of the last settlement acted on. */
  private lastSettlement = '';
  /** Wanted position in lots. */
  private target = 0;
  private stoppedOut = false;
  private busy = false;

  constructor(private readonly p: FundingFadeParams) {
    super(p);
  }

  protected async check(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      await this.readSettlement();
      await this.checkStop();
      await this.trade();
    } finally {
      this.busy = false;
    }
  }

  /** Sets the target from the latest settlement, once per settlement. */
  private async readSettlement(): Promise<void> {
    const now = this.port.now();
    const records = await this.port.fundingRates(this.p.symbol, now - 24n * HOUR_NS, now);
    const last = records[records.length - 1];
    if (last === undefined || last.timestamp === this.lastSettlement) return;
    this.lastSettlement = last.timestamp;
    this.stoppedOut = false;
    const recent = records.slice(-this.p.averageOver);
    const rate = recent.reduce((sum, r) => sum + Number(r.funding_rate), 0) / recent.length;
    if (Math.abs(rate) >= this.p.entryRate) {
      const lots = Math.min(this.p.maxPositionLots, this.p.sizeLots * Math.floor(Math.abs(rate) / this.p.entryRate));
      this.target = rate > 0 ? -lots : lots; // receive: short when longs pay
    } else if (Math.abs(rate) < this.p.exitRate) {
      this.target = 0;
    }
  }

  /** Flattens and sits out when the open position lost more than stopLossPct of its notional. */
  private async checkStop(): Promise<void> {
    if (this.position === 0) return;
    const snapshot = await this.port.riskSnapshot();
    const view = snapshot.positions.find((p) => p.symbol === this.p.symbol);
    if (view === undefined) return;
    const notional = Math.abs(Number(view.net_quantity)) * Number(view.mark_price);
    if (Number(view.unrealized_pnl) < (-this.p.stopLossPct / 100) * notional) {
      this.stoppedOut = true;
    }
  }

  /** Moves the position toward the target with one crossing IOC. */
  private async trade(): Promise<void> {
    const diff = (this.stoppedOut ? 0 : this.target) - this.position;
    if (diff !== 0) await this.cross(diff > 0 ? 'B' : 'S', Math.abs(diff));
  }
}

/** perpsim backtest's entry point: params (validated by paramsSchema) → strategy. */
export default function fundingFade(params: FundingFadeParams): Strategy {
  return new FundingFade(params);
}
