import { describe, expect, it } from 'vitest';
import type { MarketDataMessage } from '../../src/wire/market-data.ts';
import { InProcessPort } from '../../src/sim/in-process-port.ts';
import { binance, btcEvents, btcScenario, SECOND, START_NS, startBtcReplay, stepUntil, SYMBOL } from './l2-fixture.ts';

const nsOf = (m: MarketDataMessage) => BigInt(m.ts) * SECOND + BigInt(m.tn);

describe.skipIf(binance.missing)(`${binance.title}: latency`, () => {
  it('market data reaches a strategy late by the recorded feed delay of the event that changed the book', async () => {
    const built = await startBtcReplay();
    const { sim, replayer } = built;
    const events = await btcEvents();
    // The capture's recorder clock runs behind the exchange: delays are taken relative to the smallest.
    const min = events.reduce((m, e) => (e.feedDelayNs < m ? e.feedDelayNs : m), 0n);
    expect(min).toBeLessThan(0n);
    const delayAt = new Map<bigint, bigint>(); // exchange time → delay of the last event then
    for (const e of events) delayAt.set(e.tsNs, e.feedDelayNs - min);

    const port = new InProcessPort(sim.venue, sim.venue.account('alice')!, { marketDataLatency: replayer.feedDelay });
    const arrivals: { sentNs: bigint; atNs: bigint }[] = [];
    port.onMarketData((m) => {
      if (m.t === '1') arrivals.push({ sentNs: nsOf(m), atNs: sim.clock.nowNs });
    });
    void port.subscribe(SYMBOL, 'LEVEL_1');
    stepUntil(built, START_NS + 40n * SECOND);
    arrivals.shift(); // the snapshot sent on subscribing
    expect(arrivals.length).toBeGreaterThan(100);
    let previous = 0n;
    const delays = new Set<bigint>();
    for (const a of arrivals) {
      const recorded = delayAt.get(a.sentNs);
      expect(recorded).toBeDefined();
      // One ordered channel: late by the recorded delay, or right behind an earlier, later-arriving message.
      const due = a.sentNs + recorded!;
      expect(a.atNs).toBe(due > previous ? due : previous);
      previous = a.atNs;
      delays.add(a.atNs - a.sentNs);
    }
    expect(delays.size).toBeGreaterThan(10); // the recorded jitter, not one constant
    port.close();
  }, 60_000);

  it('a latency model in the replay spec replaces the recorded delay for the scenario agents', async () => {
    const scenario = btcScenario('risk-averse', {
      agents: [{ kind: 'noise-trader', count: 1, symbols: [SYMBOL], params: { ratePerSec: 0.5 } }],
    });
    scenario.market!.replay.latency = { marketData: { floorMs: 5, jitterMs: 0, sigma: 0.5 } };
    const built = await startBtcReplay(scenario);
    const agent = built.agents[0]!;
    const delays = new Set<bigint>();
    agent.port.onMarketData((m) => void delays.add(built.sim.clock.nowNs - nsOf(m)));
    stepUntil(built, START_NS + 30n * SECOND);
    expect([...delays]).toEqual([5_000_000n]);
    // Orders of the agent went through the venue against the recorded book.
    expect(built.sim.venue.stateHash()).toMatch(/^[0-9a-f]{16}$/);
  }, 60_000);
});
