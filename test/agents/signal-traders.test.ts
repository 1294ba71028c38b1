import { describe, expect, it } from 'vitest';
import type { SignalTrader } from '../../src/agents/signal-trader.ts';
import { runFor, smallScenario, started } from './fixtures.ts';

const maker = { kind: 'market-maker', name: 'mm', symbols: ['BTCUSD-PERP'], params: { sizeLots: 10, maxInventoryLots: 100000 } };

function positionsAfterRamp(pct: number): { momentum: number; reversion: number } {
  const built = started(
    smallScenario({
      agents: [
        maker,
        { kind: 'momentum-trader', name: 'trend', symbols: ['BTCUSD-PERP'], params: { sampleSec: 2, fastSec: 20, slowSec: 200, thresholdBps: 5, sizeLots: 1, maxPositionLots: 5 } },
        { kind: 'mean-reversion-trader', name: 'revert', symbols: ['BTCUSD-PERP'], params: { sampleSec: 2, meanSec: 300, thresholdBps: 10, sizeLots: 1, maxPositionLots: 5 } },
      ],
      shocks: [{ kind: 'index-jump', at: '5m', pct, rampSec: 60 }],
    }),
  );
  runFor(built, 300 + 75);
  const pos = (name: string) => (built.agents.find((a) => a.name === name)!.strategy as SignalTrader).position('BTCUSD-PERP');
  return { momentum: pos('trend-1'), reversion: pos('revert-1') };
}

describe('signal traders', () => {
  it('a momentum trader follows a rally and a mean-reversion trader fades it', () => {
    const up = positionsAfterRamp(1);
    expect(up.momentum).toBe(5);
    expect(up.reversion).toBe(-5);
  });

  it('and the other way round in a sell-off', () => {
    const down = positionsAfterRamp(-1);
    expect(down.momentum).toBe(-5);
    expect(down.reversion).toBe(5);
  });
});
