import type { RecordBatch } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RandomStream } from '../../src/random/random-stream.ts';
import { loadScenario } from '../../src/scenario/load.ts';
import { buildSimulation } from '../../src/sim/build.ts';
import { readEventRecords } from '../../src/sim/event-log/reader.ts';
import { attachEventLog } from '../../src/sim/event-log/recorder.ts';
import { InProcessPort } from '../../src/sim/in-process-port.ts';
import { LogNormalLatency, ZERO_LATENCY } from '../../src/sim/latency.ts';
import { aliceAndBob, BTC } from './alice-and-bob.ts';

const MS = 1_000_000;

type Step =
  | { kind: 'place'; atMs: number; side: 'B' | 'S'; offsetTicks: number; qty: number; tif: 'GTC' | 'IOC' }
  | { kind: 'bobTakes'; atMs: number; side: 'B' | 'S'; qty: number };

const atMs = fc.integer({ min: 0, max: 20 });
const side = fc.constantFrom<'B' | 'S'>('B', 'S');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('place' as const), atMs, side, offsetTicks: fc.integer({ min: -4, max: 4 }), qty: fc.integer({ min: 1, max: 4 }), tif: fc.constantFrom<'GTC' | 'IOC'>('GTC', 'IOC') }),
  fc.record({ kind: fc.constant('bobTakes' as const), atMs, side, qty: fc.integer({ min: 1, max: 8 }) }),
);

/**
 * Alice (an in-process port whose notes may share a clock event, or not; LEVEL_1 tops too) places orders that
 * rest and cross bob's book; bob takes from hers. Her note handler answers some notes at once
 * with a new order or a cancel (as an agent does), so what a note's handler posts interleaves
 * with the notes still in flight (or, without `react`, posts nothing: then two instants' notes
 * may meet with no event between them). Returns the event log, what alice heard (sim time, note), the
 * state hash and the clock's insertions.
 */
function run(steps: readonly Step[], group: boolean, jitterMs: number, react = true, watch = true) {
  const sim = aliceAndBob('note-lane');
  const batches: RecordBatch[] = [];
  const recorder = attachEventLog(sim.venue, { onBatch: (b) => batches.push(b) });
  // Without latency every note arrives at the instant it is sent, among the market data's end-of-instant events.
  const latency = (name: string) => (jitterMs === 0 ? ZERO_LATENCY : new LogNormalLatency(new RandomStream(name), 1 * MS, jitterMs * MS));
  const alice = new InProcessPort(sim.venue, sim.venue.account('alice')!, { orderLatency: latency('order'), marketDataLatency: latency('md'), groupNotes: group, groupRequests: group });
  const bob = sim.venue.account('bob')!;
  const market = sim.venue.market(BTC)!;
  for (let i = 1; i <= 4; i++) {
    sim.venue.placeOrderTicks(bob, market, 'B', 100_000 - i, i);
    sim.venue.placeOrderTicks(bob, market, 'S', 100_000 + i, i);
  }
  const heard: string[] = [];
  alice.ticks.onTop((t) => heard.push(`${sim.clock.nowNs} top ${t.bidTicks} ${t.bidLots} ${t.askTicks} ${t.askLots}`));
  if (watch) alice.oneWay.subscribe(BTC, 'LEVEL_1');
  alice.ticks.onOwnOrder((n) => {
    heard.push(`${sim.clock.nowNs} ${n.t} ${n.seq} ${n.remainingLots} ${n.fillLots} ${n.reason ?? ''}`);
    // React at once, as agents do: a fill brings a new quote, every third acceptance its cancel.
    if (!react) return;
    if (n.t === 'p' || n.t === 'f') alice.oneWay.placeTicks(BTC, n.side, n.side === 'B' ? 99_998 : 100_002, 1, 'GTC', false);
    else if (n.t === 'n' && n.remainingLots > 0 && n.seq % 3 === 0) alice.oneWay.cancelSeq(n.seq, n.oid);
  });
  const start = sim.clock.nowNs;
  for (const s of steps) {
    sim.clock.scheduleAt(start + BigInt(s.atMs * MS), () => {
      if (s.kind === 'place') alice.oneWay.placeTicks(BTC, s.side, 100_000 + s.offsetTicks, s.qty, s.tif, false);
      else sim.venue.placeOrderTicks(bob, market, s.side, s.side === 'B' ? 100_010 : 99_990, s.qty, 'IOC');
    });
  }
  sim.clock.runUntil(start + BigInt(100 * MS));
  recorder.flush();
  return { rows: [...readEventRecords(batches)], heard, hash: sim.venue.stateHash(), insertions: sim.clock.upcomingSeq };
}

describe('notes, and requests, that arrive together in one clock event', () => {
  // 80 runs of two simulations each: ~5 s on a quiet machine, so the default 5 s timeout failed it under load.
  it('give the same notes at the same times, the same event log and the same state as one event each', { timeout: 60_000 }, () => {
    let fewer = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), fc.constantFrom(0, 0.05, 0.5, 2), fc.boolean(), fc.boolean(), (steps, jitterMs, react, watch) => {
        const apart = run(steps, false, jitterMs, react, watch);
        const grouped = run(steps, true, jitterMs, react, watch);
        expect(grouped.heard).toEqual(apart.heard);
        expect(grouped.rows).toEqual(apart.rows);
        expect(grouped.hash).toBe(apart.hash);
        expect(grouped.insertions).toBeLessThanOrEqual(apart.insertions);
        if (grouped.insertions < apart.insertions) fewer++;
      }),
      { numRuns: 80, seed: 0x9047 },
    );
    expect(fewer).toBeGreaterThan(10); // the grouped path was taken, not just the one-event path
  });

  it('start a new event for a note sent after the group before it ran, at the same instant, from outside any event', () => {
    const sim = aliceAndBob('note-lane-outside');
    const alice = new InProcessPort(sim.venue, sim.venue.account('alice')!, { groupNotes: true }); // no latency: notes arrive when sent
    const bob = sim.venue.account('bob')!;
    const market = sim.venue.market(BTC)!;
    const heard: string[] = [];
    alice.ticks.onOwnOrder((n) => heard.push(`${sim.clock.nowNs} ${n.t} ${n.fillLots}`));
    alice.oneWay.placeTicks(BTC, 'S', 100_001, 5, 'GTC', false);
    sim.clock.runUntil(sim.clock.nowNs); // the order rests; its n is heard
    const now = sim.clock.nowNs;
    // Two takes from outside the clock at one instant (as a served command on a paused clock):
    // the first one's note runs before the second is sent, with nothing scheduled in between.
    sim.venue.placeOrderTicks(bob, market, 'B', 100_001, 1, 'IOC');
    sim.clock.runUntil(now);
    sim.venue.placeOrderTicks(bob, market, 'B', 100_001, 2, 'IOC');
    sim.clock.runUntil(now);
    expect(heard).toEqual([`${now} n 0`, `${now} p 1`, `${now} p 2`]);
  });

  it('start a new event for a request sent after the group before it ran, at the same instant, from outside any event', () => {
    const sim = aliceAndBob('request-lane-outside');
    const alice = new InProcessPort(sim.venue, sim.venue.account('alice')!, { groupRequests: true }); // no latency: requests arrive when sent
    const now = sim.clock.nowNs;
    alice.oneWay.placeTicks(BTC, 'S', 100_001, 1, 'GTC', false);
    sim.clock.runUntil(now); // the first insert ran, nothing else was scheduled
    alice.oneWay.placeTicks(BTC, 'S', 100_002, 1, 'GTC', false);
    sim.clock.runUntil(now);
    expect(sim.venue.openOrders(sim.venue.account('alice')!).map((o) => o.priceTicks)).toEqual([100_001, 100_002]);
  });

  it('leave five minutes of default byte for byte as they were, with a tenth fewer clock events at least', () => {
    const runDefault = (group: boolean) => {
      const sim = buildSimulation(loadScenario('default'), { durationNs: 300n * 1_000_000_000n, groupNotes: group, groupRequests: group });
      const batches: RecordBatch[] = [];
      const recorder = attachEventLog(sim.venue, { onBatch: (b) => batches.push(b) });
      sim.runToEnd();
      recorder.flush();
      return { rows: [...readEventRecords(batches)], hash: sim.venue.stateHash(), insertions: sim.clock.upcomingSeq };
    };
    const apart = runDefault(false);
    const grouped = runDefault(true);
    expect(grouped.hash).toBe(apart.hash);
    expect(grouped.rows.length).toBe(apart.rows.length);
    expect(grouped.rows).toEqual(apart.rows);
    expect(grouped.insertions).toBeLessThan(apart.insertions * 0.9);
  });
});
