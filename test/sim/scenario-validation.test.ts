import { describe, expect, it } from 'vitest';
import { loadScenario, parseScenario, ScenarioError, builtInScenarios } from '../../src/scenario/load.ts';

const base = {
  name: 'v',
  instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' }],
};

function errorOf(extra: Record<string, unknown>): string {
  try {
    parseScenario({ ...base, ...extra });
  } catch (e) {
    expect(e).toBeInstanceOf(ScenarioError);
    return (e as Error).message;
  }
  throw new Error('expected a validation error');
}

describe('scenario validation of the synthetic market', () => {
  it('accepts index, agents, shocks and latency, with defaults filled in', () => {
    const s = parseScenario({
      ...base,
      index: { kind: 'gbm', volAnnual: 0.5, updateIntervalMs: 500 },
      latency: { order: { floorMs: 1, jitterMs: 0.5 } },
      agents: [{ kind: 'market-maker', symbols: ['BTCUSD-PERP'], params: { levels: 3 } }, { kind: 'noise-trader', count: 3, symbols: ['BTCUSD-PERP'] }],
      shocks: [{ kind: 'index-jump', at: '30m', pct: -5 }, { kind: 'liquidity-withdrawal', at: '2026-01-01T01:00:00Z', durationSec: 60 }],
    });
    expect(s.agents[0]!.count).toBe(1);
    expect(s.agents[1]!.params).toEqual({});
    expect(s.latency?.order).toEqual({ floorMs: 1, jitterMs: 0.5, sigma: 0.5 });
  });

  it('applies the venue\'s instrument rules, so a scenario that validates is one the venue accepts', () => {
    // FOO-PERP once passed the schema and then failed in the venue: it names no quote currency.
    expect(errorOf({ instruments: [{ symbol: 'FOO-PERP', tickSize: '0.5', indexPrice: '50000' }] })).toMatch(/^scenario: instruments\[0\]\.symbol: must look like <BASE><QUOTE>-PERP/);
    expect(errorOf({ instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000.25' }] })).toMatch(/instruments\[0\]\.indexPrice: must be a positive multiple of the tick size 0\.5/);
    expect(errorOf({ instruments: [{ ...base.instruments[0], initialMarginPct: '5', maintenanceMarginPct: '10' }] })).toMatch(/instruments\[0\]\.maintenanceMarginPct: must not exceed initialMarginPct/);
    expect(errorOf({ instruments: [{ ...base.instruments[0], funding: { capRate: '-1' } }] })).toMatch(/instruments\[0\]\.funding/);
    expect(parseScenario({ ...base, instruments: [{ symbol: 'ETHUSDT-PERP', tickSize: '0.01', indexPrice: '3000' }] }).instruments[0]!.symbol).toBe('ETHUSDT-PERP');
  });

  it('names an unknown index kind', () => {
    expect(errorOf({ index: { kind: 'brownian' } })).toMatch(/^scenario: index\.kind: Invalid discriminator value/);
  });

  it('names a bad index parameter, also per instrument', () => {
    expect(errorOf({ index: { kind: 'ou', volAnnual: 0.2, halfLifeSec: -1 } })).toMatch(/index\.halfLifeSec: Too small/);
    expect(errorOf({ instruments: [{ ...base.instruments[0], index: { kind: 'gbm', volAnul: 0.2 } }] })).toMatch(/instruments\[0\]\.index/);
  });

  it('names a typo in agent parameters', () => {
    expect(errorOf({ agents: [{ kind: 'market-maker', symbols: ['BTCUSD-PERP'], params: { halfSpread: 2 } }] })).toMatch(/agents\[0\]\.params: Unrecognized key: "halfSpread"/);
  });

  it('names an agent symbol that is not an instrument', () => {
    expect(errorOf({ agents: [{ kind: 'noise-trader', symbols: ['BTCUSD-PERP', 'DOGEUSD-PERP'] }] })).toMatch(/agents\[0\]\.symbols\[1\]: unknown symbol DOGEUSD-PERP/);
  });

  it('names agent groups whose names collide', () => {
    expect(errorOf({ agents: [{ kind: 'noise-trader', symbols: ['BTCUSD-PERP'] }, { kind: 'noise-trader', symbols: ['BTCUSD-PERP'] }] })).toMatch(/agents\[1\]\.name: name noise-trader is already used/);
  });

  it('names a bad shock time, kind or crowd', () => {
    expect(errorOf({ shocks: [{ kind: 'index-jump', at: 'soon', pct: 1 }] })).toMatch(/shocks\[0\]\.at: must be a duration/);
    expect(errorOf({ shocks: [{ kind: 'earthquake', at: '1m' }] })).toMatch(/shocks\[0\]\.kind/);
    expect(
      errorOf({ shocks: [{ kind: 'liquidation-cascade', at: '1m', symbol: 'BTCUSD-PERP', dropPct: 5, crowd: { leverageMin: 10, leverageMax: 5, notional: '1000' } }] }),
    ).toMatch(/shocks\[0\]\.crowd\.leverageMax: must not be below leverageMin/);
  });

  it('names a bad latency', () => {
    expect(errorOf({ latency: { order: { floorMs: -1 } } })).toMatch(/latency\.order\.floorMs: Too small/);
  });

  it('requires a recorded index to name a file or give points', () => {
    expect(errorOf({ index: { kind: 'recorded' } })).toMatch(/index\.file: needs a file or points/);
  });

  it('ships built-in scenarios that validate, each saying what it shows', () => {
    const names = builtInScenarios();
    expect(names).toEqual(expect.arrayContaining(['default', 'empty', 'flash-crash', 'funding-squeeze', 'thin-book', 'equity-hours']));
    for (const name of names) {
      const s = loadScenario(name);
      expect(s.description?.length, name).toBeGreaterThan(80);
    }
  });

  it('keeps empty empty: default instruments, no agents, a flat index', () => {
    const s = loadScenario('empty');
    expect(s.agents).toEqual([]);
    expect(s.shocks).toEqual([]);
    expect(s.index).toBeUndefined();
    expect(s.instruments.map((i) => i.symbol)).toEqual(['BTCUSD-PERP', 'ETHUSD-PERP']);
  });
});
