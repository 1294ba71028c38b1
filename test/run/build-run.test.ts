import { describe, expect, it } from 'vitest';
import { buildRun } from '../../src/run/build-run.ts';
import { loadScenario, parseScenario } from '../../src/scenario/load.ts';
import { buildSimulation } from '../../src/sim/build.ts';
import { ConstantLatency } from '../../src/sim/latency.ts';
import { RecordedFeedDelay } from '../../src/replay/l2/feed-delay.ts';
import { btcEvents, btcScenario } from '../replay/l2-fixture.ts';

const MINUTE = 60_000_000_000n;

describe('buildRun, the one builder from a scenario to a run', () => {
  it('builds a synthetic scenario event for event as the simulation builder does (same state hash)', async () => {
    const built = await buildRun(loadScenario('default'), { seed: 5, durationNs: 2n * MINUTE });
    built.sim.runToEnd();
    const direct = buildSimulation(loadScenario('default'), { seed: 5, durationNs: 2n * MINUTE });
    direct.runToEnd();
    expect(built.replayer).toBeUndefined();
    expect(built.sim.venue.stateHash()).toBe(direct.venue.stateHash());
  });

  it('gives a late port the scenario latency, or the overrides', async () => {
    const scenario = parseScenario({
      name: 'late',
      instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' }],
      latency: { order: { floorMs: 3, jitterMs: 0 }, marketData: { floorMs: 7, jitterMs: 0 } },
    });
    const built = await buildRun(scenario);
    const scenarioLatency = built.portLatency('strategy');
    expect(scenarioLatency.orderLatency).toEqual(new ConstantLatency(3_000_000));
    expect(scenarioLatency.marketDataLatency).toEqual(new ConstantLatency(7_000_000));
    const overridden = built.portLatency('strategy', { marketData: { floorMs: 1, jitterMs: 0, sigma: 0.5 } });
    expect(overridden.orderLatency).toEqual(new ConstantLatency(3_000_000));
    expect(overridden.marketDataLatency).toEqual(new ConstantLatency(1_000_000));
  });

  // ../shared/data sits beside every clone (CI too), so this never skips.
  describe('on a recorded market', () => {
    it('replays the recording and gives a late port the recorded feed delay the agents see', async () => {
      const built = await buildRun(btcScenario(), { replayEvents: await btcEvents() });
      expect(built.replayer).toBeDefined();
      const { marketDataLatency } = built.portLatency('strategy');
      expect(marketDataLatency).toBeInstanceOf(RecordedFeedDelay);
      // An override still wins over the recording.
      expect(built.portLatency('strategy', { marketData: { floorMs: 2, jitterMs: 0, sigma: 0.5 } }).marketDataLatency).toEqual(new ConstantLatency(2_000_000));
    });

    it('gives a late port the replay\'s latency model when the spec names one instead of "recorded"', async () => {
      const s = btcScenario();
      const scenario = { ...s, market: { replay: { ...s.market!.replay, latency: { marketData: { floorMs: 4, jitterMs: 0, sigma: 0.5 } } } } };
      const built = await buildRun(scenario, { replayEvents: await btcEvents() });
      expect(built.portLatency('strategy').marketDataLatency).toEqual(new ConstantLatency(4_000_000));
    });
  });
});
