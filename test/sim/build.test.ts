import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario, parseScenario } from '../../src/scenario/load.ts';
import { buildSimulation, buildSimulationParts } from '../../src/sim/build.ts';

const MIN = 60_000_000_000n;

describe('buildSimulation', () => {
  it('reproduces the default market exactly for a seed', { timeout: 60_000 }, () => {
    const scenario = loadScenario('default');
    const run = (seed: number) => {
      const sim = buildSimulation(scenario, { seed, durationNs: 3n * MIN });
      sim.runToEnd();
      return sim.venue.stateHash();
    };
    const a = run(1);
    expect(run(1)).toBe(a);
    expect(run(2)).not.toBe(a);
  });

  it('gives every agent its own user and leaves the scenario users alone', () => {
    const { sim, agents } = buildSimulationParts(loadScenario('default'));
    const names = sim.venue.accounts.map((a) => a.username);
    expect(names.slice(0, 2)).toEqual(['alice', 'bob']);
    expect(agents.map((a) => a.name)).toEqual(expect.arrayContaining(['mm-btc-1', 'mm-btc-2', 'noise-eth-2', 'arb-eth-1']));
    expect(new Set(agents.map((a) => a.port.username)).size).toBe(agents.length);
    for (const a of agents) expect(names).toContain(a.name);
  });

  it('moves the index of every instrument every second on its own process', () => {
    const sim = buildSimulation(loadScenario('default'), { durationNs: 2n * MIN });
    const changes = new Map<string, number>();
    const last = new Map(sim.venue.markets.map((m) => [m.symbol, m.indexTicks]));
    sim.start();
    for (let s = 1; s <= 120; s++) {
      sim.runUntil(sim.startNs + BigInt(s) * 1_000_000_000n);
      for (const m of sim.venue.markets) {
        if (m.indexTicks !== last.get(m.symbol)) changes.set(m.symbol, (changes.get(m.symbol) ?? 0) + 1);
        last.set(m.symbol, m.indexTicks);
      }
    }
    expect(changes.get('BTCUSD-PERP')).toBeGreaterThan(90);
    expect(changes.get('ETHUSD-PERP')).toBeGreaterThan(90);
    const [btc, eth] = sim.venue.markets.map((m) => m.indexTicks);
    expect(btc).not.toBe(100_000);
    expect(eth).not.toBe(60_000);
  });

  it('keeps the empty scenario flat and silent', () => {
    const sim = buildSimulation(loadScenario('empty'), { durationNs: 10n * MIN });
    let trades = 0;
    sim.venue.subscribe({ trade: () => void trades++ });
    sim.runToEnd();
    expect(trades).toBe(0);
    expect(sim.venue.markets.map((m) => m.indexTicks)).toEqual([100_000, 300_000]);
    expect(sim.venue.accounts.map((a) => a.username)).toEqual(['alice', 'bob']);
  });

  it('replays a recorded index from a CSV file next to the scenario', () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpsim-recorded-'));
    writeFileSync(join(dir, 'btc.csv'), 'time,price,volume\n2026-01-01T00:00:00Z,50000,1\n2026-01-01T00:00:02.5Z,50100.5,1\n1767225605,49900,1\n');
    const scenarioFile = join(dir, 'recorded.json');
    writeFileSync(
      scenarioFile,
      JSON.stringify({
        name: 'recorded',
        duration: '10s',
        instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000', index: { kind: 'recorded', file: 'btc.csv' } }],
      }),
    );
    const sim = buildSimulation(loadScenario(scenarioFile));
    const market = sim.venue.market('BTCUSD-PERP')!;
    const seen: number[] = [];
    sim.start();
    for (let s = 1; s <= 6; s++) {
      sim.runUntil(sim.startNs + BigInt(s) * 1_000_000_000n);
      seen.push(market.indexTicks / 2);
    }
    expect(seen).toEqual([50000, 50000, 50100.5, 50100.5, 49900, 49900]);
  });

  it('says how to load a recorded index that was only named', () => {
    const scenario = parseScenario({ name: 'r', instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' }], index: { kind: 'recorded', file: 'x.csv' } });
    expect(() => buildSimulation(scenario)).toThrow(/x\.csv was not loaded \(load the scenario with loadScenario\)/);
  });

  it('holds the index of a closed instrument still', () => {
    const sim = buildSimulation(loadScenario('equity-hours'), { durationNs: 30n * MIN });
    const market = sim.venue.market('AAPLUSD-PERP')!;
    sim.runUntil(sim.startNs + 29n * MIN);
    expect(market.state).toBe('CLOSED');
    expect(market.indexTicks).toBe(19_000);
  });
});
