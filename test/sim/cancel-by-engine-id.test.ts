import type { RecordBatch } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readEventRecords } from '../../src/sim/event-log/reader.ts';
import { attachEventLog } from '../../src/sim/event-log/recorder.ts';
import { InProcessPort } from '../../src/sim/in-process-port.ts';
import { aliceAndBob, BTC } from './alice-and-bob.ts';

const MS = 1_000_000;

type Step =
  | { kind: 'place'; atMs: number; side: 'B' | 'S'; offsetTicks: number; qty: number }
  | { kind: 'cancel'; atMs: number; pick: number }
  | { kind: 'bobTakes'; atMs: number; side: 'B' | 'S'; qty: number };

const atMs = fc.integer({ min: 0, max: 30 });
const side = fc.constantFrom<'B' | 'S'>('B', 'S');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('place' as const), atMs, side, offsetTicks: fc.integer({ min: 1, max: 4 }), qty: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('cancel' as const), atMs, pick: fc.nat(20) }),
  fc.record({ kind: fc.constant('bobTakes' as const), atMs, side, qty: fc.integer({ min: 1, max: 6 }) }),
);

/**
 * Alice rests orders and cancels them — open, already filled or canceled (named in an `e`), or
 * bob's — by wire id (`oneWay.cancel`) or by engine id with the wire id (`oneWay.cancelSeq`).
 * Returns the event log's rows, what alice heard and the state hash.
 */
function run(steps: readonly Step[], bySeq: boolean, lazyId = false) {
  let idReads = 0;
  const sim = aliceAndBob('cancel-seq');
  const batches: RecordBatch[] = [];
  const recorder = attachEventLog(sim.venue, { onBatch: (b) => batches.push(b) });
  const alice = new InProcessPort(sim.venue, sim.venue.account('alice')!);
  const bob = sim.venue.account('bob')!;
  const market = sim.venue.market(BTC)!;
  const bobs = sim.venue.placeOrderTicks(bob, market, 'S', 100_050, 1);
  const orders: { seq: number; oid: string }[] = [{ seq: bobs.seq, oid: bobs.id }];
  const heard: string[] = [];
  alice.ticks.onOwnOrder((n) => {
    heard.push(`${sim.clock.nowNs} ${n.t} ${n.oid} ${n.reason ?? ''}`);
    if (n.t === 'n') orders.push({ seq: n.seq, oid: n.oid });
  });
  const start = sim.clock.nowNs;
  for (const s of steps) {
    sim.clock.scheduleAt(start + BigInt(s.atMs * MS), () => {
      if (s.kind === 'place') alice.oneWay.placeTicks(BTC, s.side, s.side === 'B' ? 100_000 - s.offsetTicks : 100_000 + s.offsetTicks, s.qty, 'GTC', false);
      else if (s.kind === 'bobTakes') sim.venue.placeOrderTicks(bob, market, s.side, s.side === 'B' ? 100_010 : 99_990, s.qty, 'IOC');
      else {
        const o = orders[s.pick % orders.length]!;
        // Lazily: an object whose id is read (counted) only when the cancel needs the text.
        if (bySeq && lazyId) alice.oneWay.cancelSeq(o.seq, { get id() { idReads++; return o.oid; } });
        else if (bySeq) alice.oneWay.cancelSeq(o.seq, o.oid);
        else alice.oneWay.cancel(o.oid);
      }
    });
  }
  sim.clock.runUntil(start + BigInt(100 * MS));
  recorder.flush();
  return { rows: [...readEventRecords(batches)], heard, hash: sim.venue.stateHash(), idReads };
}

describe('a one-way cancel by engine id', () => {
  it('does what the cancel by wire id does: same feeds, same event log (an e names the wire id), same state', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => {
        const byId = run(steps, false);
        const bySeq = run(steps, true);
        expect(bySeq.rows).toEqual(byId.rows);
        expect(bySeq.heard).toEqual(byId.heard);
        expect(bySeq.hash).toBe(byId.hash);
        // With the id as an object: the same, and its text read only for the cancels that miss (an e each).
        const lazy = run(steps, true, true);
        expect(lazy.rows).toEqual(byId.rows);
        expect(lazy.heard).toEqual(byId.heard);
        expect(lazy.idReads).toBe(lazy.heard.filter((h) => h.split(' ')[1] === 'e').length);
      }),
      { numRuns: 100, seed: 0x5e9 },
    );
  }, 60_000); // 300 runs of a venue with a recorder: ~4.5 s alone, past vitest's default 5 s when files run side by side

  it('names the order by its wire id when it is no longer open', () => {
    const { heard } = run(
      [
        { kind: 'place', atMs: 0, side: 'B', offsetTicks: 1, qty: 1 },
        { kind: 'cancel', atMs: 5, pick: 1 },
        { kind: 'cancel', atMs: 10, pick: 1 },
      ],
      true,
    );
    expect(heard.map((h) => h.split(' ')[1])).toEqual(['n', 'c', 'e']);
    expect(heard[2]).toContain('UNKNOWN_ORDER');
  });
});
