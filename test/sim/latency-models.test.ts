import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenario, parseScenario } from '../../src/scenario/load.ts';
import { buildSimulationParts } from '../../src/sim/build.ts';
import { InProcessPort } from '../../src/sim/in-process-port.ts';
import { ActivityLatency, MarketActivity, marketActivityOf } from '../../src/sim/latency-activity.ts';
import { InterpolatedLatency } from '../../src/sim/latency-series.ts';
import { latencyModelOf } from '../../src/sim/latency-spec.ts';
import { secNanos, ZERO_LATENCY, type LatencyModel } from '../../src/sim/latency.ts';
import { Simulation } from '../../src/sim/simulation.ts';

const MS = 1_000_000n;
const START = '2026-01-01T00:00:00Z';
const START_NS = 1767225600_000_000_000n;
const SYMBOL = 'BTCUSD-PERP';
const tmp = mkdtempSync(join(tmpdir(), 'perpsim-latency-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function venueSim() {
  const sim = new Simulation(
    parseScenario({
      name: 'latency',
      start: START,
      instruments: [{ symbol: SYMBOL, tickSize: '0.5', indexPrice: '50000' }],
      users: [
        { username: 'alice', password: 'pw', cash: '1000000' },
        { username: 'bob', password: 'pw', cash: '1000000' },
      ],
    }),
  );
  sim.start();
  return sim;
}

/**
 * When alice's order, sent at `sendNs`, reaches the venue, and when its acknowledgement feed
 * reaches her port; `latency` builds her order latency on the simulation.
 */
function orderTimes(latency: (sim: Simulation) => LatencyModel, sendNs: bigint, setup: (sim: Simulation) => void = () => {}) {
  const sim = venueSim();
  setup(sim);
  const alice = sim.venue.account('alice')!;
  const port = new InProcessPort(sim.venue, alice, { orderLatency: latency(sim), marketDataLatency: ZERO_LATENCY });
  let arrivedNs: bigint | undefined;
  let answeredNs: bigint | undefined;
  sim.venue.subscribe({ orderFeed: (userId, feed) => void (userId === alice.id && feed.t === 'n' && (arrivedNs ??= sim.clock.nowNs)) });
  port.onOrderFeed((feed) => void (feed.t === 'n' && (answeredNs ??= sim.clock.nowNs)));
  sim.clock.scheduleAt(sendNs, () => void port.insertOrder({ symbol: SYMBOL, price: '49000', quantity: 1, side: 'B', timeInForce: 'GTC' }));
  sim.clock.runUntil(sendNs + 1000n * MS);
  return { arrivedNs: arrivedNs!, answeredNs: answeredNs! };
}

describe('latency interpolated from a recorded series', () => {
  const series = new InterpolatedLatency([
    { tNs: 1000n, latencyNs: 100n },
    { tNs: 2000n, latencyNs: 300n },
    { tNs: 3000n, latencyNs: 100n },
  ]);

  it('reads the series linearly between points and holds the end values outside it', () => {
    expect(series.sampleNs(...secNanos(999n))).toBe(100);
    expect(series.sampleNs(...secNanos(1000n))).toBe(100);
    expect(series.sampleNs(...secNanos(1250n))).toBe(150);
    expect(series.sampleNs(...secNanos(1500n))).toBe(200);
    expect(series.sampleNs(...secNanos(2000n))).toBe(300);
    expect(series.sampleNs(...secNanos(2750n))).toBe(150);
    expect(series.sampleNs(...secNanos(1500n))).toBe(200); // going back in time finds the segment again
    expect(series.sampleNs(...secNanos(9000n))).toBe(100);
  });

  it('rounds an interpolated latency half up to a whole ns, the only rounding', () => {
    const third = new InterpolatedLatency([
      { tNs: 0n, latencyNs: 0n },
      { tNs: 3n, latencyNs: 1n },
    ]);
    expect([0n, 1n, 2n, 3n].map((t) => third.sampleNs(...secNanos(t)))).toEqual([0, 0, 1, 1]); // 1/3 → 0, 2/3 → 1
    const half = new InterpolatedLatency([
      { tNs: 0n, latencyNs: 1n },
      { tNs: 2n, latencyNs: 0n },
    ]);
    expect(half.sampleNs(...secNanos(1n))).toBe(1); // exactly 0.5 → up
  });

  it('stays between the two points around any time (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 0n, max: 10n ** 9n })), { minLength: 1, maxLength: 20 }), fc.bigInt({ min: 0n, max: 10n ** 12n }), (raw, at) => {
        const byTime = new Map(raw.map(([t, l]) => [t, l]));
        const points = [...byTime].map(([tNs, latencyNs]) => ({ tNs, latencyNs })).sort((a, b) => (a.tNs < b.tNs ? -1 : 1));
        const model = new InterpolatedLatency(points);
        const got = BigInt(model.sampleNs(...secNanos(at)));
        const before = [...points].reverse().find((p) => p.tNs <= at) ?? points[0]!;
        const after = points.find((p) => p.tNs >= at) ?? points[points.length - 1]!;
        const lo = before.latencyNs < after.latencyNs ? before.latencyNs : after.latencyNs;
        const hi = before.latencyNs < after.latencyNs ? after.latencyNs : before.latencyNs;
        expect(got >= lo && got <= hi).toBe(true);
      }),
      { seed: 10, numRuns: 200 },
    );
  });

  it('refuses a negative latency and two points at one time', () => {
    expect(() => new InterpolatedLatency([{ tNs: 0n, latencyNs: -1n }])).toThrow(/latency must be/);
    expect(() => new InterpolatedLatency([{ tNs: 5n, latencyNs: 1n }, { tNs: 5n, latencyNs: 2n }])).toThrow(/same time/);
  });

  it('delays an order sent in a latency spike by exactly the interpolated amount, each way', () => {
    // 1 ms flat, a spike to 41 ms at +20 ms, back to 1 ms at +30 ms.
    const spike = new InterpolatedLatency([
      { tNs: START_NS, latencyNs: 1n * MS },
      { tNs: START_NS + 10n * MS, latencyNs: 1n * MS },
      { tNs: START_NS + 20n * MS, latencyNs: 41n * MS },
      { tNs: START_NS + 30n * MS, latencyNs: 1n * MS },
    ]);
    // Sent at +15 ms: halfway up the spike, 1 + 40 / 2 = 21 ms to the venue (+36 ms); its feed
    // leaves at +36 ms, past the series' end: 1 ms back (+37 ms).
    const { arrivedNs, answeredNs } = orderTimes(() => spike, START_NS + 15n * MS);
    expect(arrivedNs - START_NS).toBe(36n * MS);
    expect(answeredNs - START_NS).toBe(37n * MS);
    // Sent at +5 ms, before the spike: 1 ms each way.
    const calm = orderTimes(() => spike, START_NS + 5n * MS);
    expect(calm.arrivedNs - START_NS).toBe(6n * MS);
  });

  it('reads a ts,latency_ns file named by a scenario, relative to the scenario file, for every agent', () => {
    writeFileSync(join(tmp, 'rt.csv'), `ts,latency_ns\n${START_NS},2000000\n2026-01-01T00:00:01Z,4000000\n`);
    const file = join(tmp, 'scenario.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'series',
        start: START,
        instruments: [{ symbol: SYMBOL, tickSize: '0.5', indexPrice: '50000' }],
        agents: [{ kind: 'noise-trader', count: 1, symbols: [SYMBOL] }],
        latency: { order: { kind: 'series', file: 'rt.csv' } },
      }),
    );
    const scenario = loadScenario(file);
    expect(scenario.latency?.order).toEqual({ kind: 'series', file: 'rt.csv', points: [{ ts: String(START_NS), latencyNs: 2000000 }, { ts: '2026-01-01T00:00:01Z', latencyNs: 4000000 }] });
    const model = latencyModelOf(scenario.latency!.order!, buildSimulationParts(scenario).sim.streams.get('x'), venueSim().venue);
    expect(model.sampleNs(...secNanos(START_NS + 500n * MS))).toBe(3_000_000);
    writeFileSync(join(tmp, 'bad.csv'), 'ts,latency_ns\nnoon,5\n');
    writeFileSync(file, JSON.stringify({ name: 'bad', instruments: [{ symbol: SYMBOL, tickSize: '0.5', indexPrice: '1' }], latency: { order: { kind: 'series', file: 'bad.csv' } } }));
    expect(() => loadScenario(file)).toThrow(/latency: .*bad\.csv: row 1: ts must be/);
  });
});

describe('latency that grows with market activity', () => {
  it('counts the messages of a trailing window, whatever window each model asks for', () => {
    const meter = new MarketActivity();
    const wide = new ActivityLatency(meter, { baseNs: 0, perMessageNs: 1, windowNs: 1000, capNs: undefined });
    const narrow = new ActivityLatency(meter, { baseNs: 0, perMessageNs: 1, windowNs: 100, capNs: undefined });
    for (const t of [0n, 50n, 500n, 950n, 1000n]) meter.note(...secNanos(t));
    // At 1000: the narrow window (900, 1000] holds 950, 1000; the wide (0, 1000] all but 0.
    expect(narrow.sampleNs(...secNanos(1000n))).toBe(2);
    expect(wide.sampleNs(...secNanos(1000n))).toBe(4);
    expect(narrow.sampleNs(...secNanos(1100n))).toBe(0);
    expect(wide.sampleNs(...secNanos(1100n))).toBe(3); // the narrow model's query forgot nothing the wide one needs
  });

  it('raises the latency of an order sent just after a burst of book changes by base + k × count, up to the cap', () => {
    const spec = { kind: 'activity' as const, baseMs: 1, perMessageMs: 0.5, windowMs: 100, capMs: 20 };
    /** Bob rests `n` one-lot asks at +10 ms (n book changes); alice sends her order at +`sendMs`. */
    const timed = (n: number, sendMs: bigint) =>
      orderTimes(
        (sim) => latencyModelOf(spec, sim.streams.get('x'), sim.venue),
        START_NS + sendMs * MS,
        (sim) =>
          void sim.clock.scheduleAt(START_NS + 10n * MS, () => {
            for (let i = 0; i < n; i++) sim.venue.placeOrderTicks(sim.venue.account('bob')!, sim.venue.market(SYMBOL)!, 'S', 100_000 + i, 1);
          }),
      );
    // Quiet market: 1 ms.
    expect(timed(0, 50n).arrivedNs - START_NS).toBe(51n * MS);
    // 6 book changes in the 100 ms window at +50 ms: 1 + 0.5 × 6 = 4 ms.
    expect(timed(6, 50n).arrivedNs - START_NS).toBe(54n * MS);
    // 100 of them: 1 + 50 = 51 ms, capped at 20.
    expect(timed(100, 50n).arrivedNs - START_NS).toBe(70n * MS);
    // Sent when the window has moved past the burst (+200 ms): quiet again.
    expect(timed(6, 200n).arrivedNs - START_NS).toBe(201n * MS);
  });

  it('has one meter per venue, which counts book changes and trades', () => {
    const sim = venueSim();
    const meter = marketActivityOf(sim.venue);
    expect(marketActivityOf(sim.venue)).toBe(meter);
    const market = sim.venue.market(SYMBOL)!;
    sim.venue.placeOrderTicks(sim.venue.account('bob')!, market, 'S', 100_000, 2); // a book change
    sim.venue.placeOrderTicks(sim.venue.account('alice')!, market, 'B', 100_000, 1); // a trade (and a book change)
    expect(meter.total).toBeGreaterThanOrEqual(3);
  });
});
