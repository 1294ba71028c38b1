import { withDefaults } from '../core/objects.ts';
import type { AgentEnvironment } from './environment.ts';
import { ewmaOf, type Ewma } from './ewma.ts';
import { SignalTrader, type SignalTraderParams } from './signal-trader.ts';

/** A mean-reversion trader's signal: the mid's deviation from its moving average. */
export interface MeanReversionParams extends SignalTraderParams {
  meanSec: number;
  /** Sell (buy) when the mid is this many bps above (below) its average. */
  thresholdBps: number;
}

/** Defaults: 5-minute average, 8 bps trigger. */
export const MEAN_REVERSION_DEFAULTS: Omit<MeanReversionParams, keyof SignalTraderParams> = { meanSec: 300, thresholdBps: 8 };

/**
 * Fades moves: short while the mid is `thresholdBps` above its EWMA, long while below, flat
 * once the deviation is back within a third of the threshold.
 */
export class MeanReversionTrader extends SignalTrader {
  private readonly q: Omit<MeanReversionParams, keyof SignalTraderParams>;
  private readonly means = new Map<string, Ewma>();

  constructor(env: AgentEnvironment, params: Partial<MeanReversionParams> = {}) {
    super(env, params);
    this.q = withDefaults(MEAN_REVERSION_DEFAULTS, params);
  }

  protected target(symbol: string, midTicks: number, tSec: number): number | undefined {
    const mean = ewmaOf(this.means, symbol, this.q.meanSec).update(tSec, midTicks);
    const deviationBps = ((midTicks - mean) / mean) * 1e4;
    const max = this.base.maxPositionLots;
    if (deviationBps > this.q.thresholdBps) return -max;
    if (deviationBps < -this.q.thresholdBps) return max;
    return Math.abs(deviationBps) < this.q.thresholdBps / 3 ? 0 : undefined;
  }
}
