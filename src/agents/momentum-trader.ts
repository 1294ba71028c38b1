import { withDefaults } from '../core/objects.ts';
import type { AgentEnvironment } from './environment.ts';
import { ewmaOf, type Ewma } from './ewma.ts';
import { SignalTrader, type SignalTraderParams } from './signal-trader.ts';

/** A trend follower's signal: fast vs slow moving average of the mid. */
export interface MomentumParams extends SignalTraderParams {
  fastSec: number;
  slowSec: number;
  /** Go long (short) when the fast average is this many bps above (below) the slow one. */
  thresholdBps: number;
}

/** Defaults: 1-minute vs 10-minute averages, 5 bps trigger. */
export const MOMENTUM_DEFAULTS: Omit<MomentumParams, keyof SignalTraderParams> = { fastSec: 60, slowSec: 600, thresholdBps: 5 };

/**
 * Trend follower: long while the fast EWMA of the mid is `thresholdBps` above the slow one,
 * short while below, flat once the gap has shrunk to half the threshold (hysteresis between).
 */
export class MomentumTrader extends SignalTrader {
  private readonly q: Omit<MomentumParams, keyof SignalTraderParams>;
  private readonly fast = new Map<string, Ewma>();
  private readonly slow = new Map<string, Ewma>();

  constructor(env: AgentEnvironment, params: Partial<MomentumParams> = {}) {
    super(env, params);
    this.q = withDefaults(MOMENTUM_DEFAULTS, params);
  }

  protected target(symbol: string, midTicks: number, tSec: number): number | undefined {
    const fast = ewmaOf(this.fast, symbol, this.q.fastSec).update(tSec, midTicks);
    const slow = ewmaOf(this.slow, symbol, this.q.slowSec).update(tSec, midTicks);
    const signalBps = ((fast - slow) / slow) * 1e4;
    const max = this.base.maxPositionLots;
    if (signalBps > this.q.thresholdBps) return max;
    if (signalBps < -this.q.thresholdBps) return -max;
    return Math.abs(signalBps) < this.q.thresholdBps / 2 ? 0 : undefined;
  }
}
