/**
 * A momentum taker: every `checkSec` it compares the mid with the mid `lookbackSec` ago; a
 * move beyond `entryBps` buys (up) or sells (down) with an IOC order that crosses the spread,
 * adding `sizeLots` up to `maxPositionLots`; once the move fades below `exitBps` (or turns) it
 * closes the position the same way.
 *
 *   npx perpsim backtest examples/momentum.ts --scenario default --seed 7 --duration 1h
 *   npx perpsim backtest examples/momentum.ts --params '{"lookbackSec":120,"entryBps":10}'
 */
import { z } from 'zod';
import type { Side } from '../src/core/types.ts';
import type { Strategy } from '../src/strategy/strategy.ts';
import { midTicks } from './lib/market.ts';
import { PeriodicTaker } from './lib/periodic-taker.ts';

export const paramsSchema = z
  .strictObject({
    symbol: z.string().default('BTCUSD-PERP'),
    /** Horizon of the momentum signal, seconds. */
    lookbackSec: z.int().positive().default(60),
    /** How often the signal is checked, seconds. */
    checkSec: z.int().positive().default(5),
    /** |return| over the lookback that opens or adds, basis points. */
    entryBps: z.number().positive().default(8),
    /** |return| under which an open position is closed, basis points. */
    exitBps: z.number().nonnegative().default(2),
    sizeLots: z.int().positive().default(1),
    maxPositionLots: z.int().positive().default(5),
    /** How far through the touch the IOC may fill, ticks. */
    slippageTicks: z.int().nonnegative().default(4),
  })
  .refine((p) => p.exitBps < p.entryBps, { message: 'exitBps must be below entryBps', path: ['exitBps'] })
  .refine((p) => p.checkSec <= p.lookbackSec, { message: 'checkSec must not exceed lookbackSec', path: ['checkSec'] });
export type MomentumParams = z.infer<typeof paramsSchema>;

class MomentumTaker extends PeriodicTaker {
  /** Mid at each check, oldest first (one lookback's worth). */
  private readonly mids: number[] = [];
  private busy = false;

  constructor(private readonly p: MomentumParams) {
    super(p);
  }

  protected async check(): Promise<void> {
    const mid = midTicks(this.touch);
    if (mid === undefined) return;
    this.mids.push(mid);
    const steps = this.p.lookbackSec / this.p.checkSec;
    if (this.mids.length <= steps) return;
    const past = this.mids.shift()!;
    const bps = ((mid - past) / past) * 10_000;
    if (this.busy) return; // the last order's answer is still on its way
    let side: Side | undefined;
    let lots = 0;
    if (bps >= this.p.entryBps && this.position < this.p.maxPositionLots) [side, lots] = ['B', Math.min(this.p.sizeLots, this.p.maxPositionLots - this.position)];
    else if (bps <= -this.p.entryBps && this.position > -this.p.maxPositionLots) [side, lots] = ['S', Math.min(this.p.sizeLots, this.p.maxPositionLots + this.position)];
    else if (this.position > 0 && bps < this.p.exitBps) [side, lots] = ['S', this.position];
    else if (this.position < 0 && bps > -this.p.exitBps) [side, lots] = ['B', -this.position];
    if (side === undefined) return;
    this.busy = true;
    try {
      await this.cross(side, lots);
    } finally {
      this.busy = false;
    }
  }
}

/** perpsim backtest's entry point: params (validated by paramsSchema) → strategy. */
export default function momentum(params: MomentumParams): Strategy {
  return new MomentumTaker(params);
}
