import type { RecordBatch } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readEventRecords } from '../../src/sim/event-log/reader.ts';
import { EventLogRecorder } from '../../src/sim/event-log/recorder.ts';
import { aliceAndBob, BTC } from './alice-and-bob.ts';

type Step = { kind: 'place'; who: 0 | 1; side: 'B' | 'S'; offsetTicks: number; qty: number; tif: 'GTC' | 'IOC' } | { kind: 'cancel'; who: 0 | 1; pick: number };

const who = fc.constantFrom<0 | 1>(0, 1);
const steps = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('place' as const), who, side: fc.constantFrom<'B' | 'S'>('B', 'S'), offsetTicks: fc.integer({ min: -4, max: 4 }), qty: fc.integer({ min: 1, max: 4 }), tif: fc.constantFrom<'GTC' | 'IOC'>('GTC', 'GTC', 'IOC') }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), who, pick: fc.nat(200) }) },
  ),
  { minLength: 1, maxLength: 300 },
);

/**
 * The order ids of every row of the log of `steps`, placed and canceled by engine id (no id
 * text made by the venue's callers). With `readFirst`, a listener subscribed before the recorder
 * reads every order's wire id first (the text the recorder then copies: the oracle); without,
 * the recorder writes each id from the order's numbers.
 */
function ids(script: readonly Step[], readFirst: boolean, batchRows: number): string[] {
  const sim = aliceAndBob('order-ids');
  const v = sim.venue;
  if (readFirst) v.subscribe({ orderEvent: (e) => void e.orderId(), trade: (t) => void (t.makerOrderId + t.takerOrderId) });
  const batches: RecordBatch[] = [];
  const recorder = new EventLogRecorder(v, { onBatch: (b) => batches.push(b), batchRows });
  v.subscribe(recorder);
  const users = [v.account('alice')!, v.account('bob')!];
  const market = v.market(BTC)!;
  const placed: number[][] = [[], []];
  let t = sim.clock.nowNs;
  for (const s of script) {
    t += 1_500_000n; // ids carry the millisecond: let it move
    sim.clock.runUntil(t);
    const user = users[s.who]!;
    if (s.kind === 'place') placed[s.who]!.push(v.placeOrderSeq(user, market, s.side, 100_000 + s.offsetTicks, s.qty, s.tif));
    else {
      const mine = placed[s.who]!;
      if (mine.length > 0) v.cancelOrderSeq(user, mine[s.pick % mine.length]!, undefined);
    }
  }
  recorder.flush();
  return [...readEventRecords(batches)].map((r) => `${r.seq} ${r.kind}:${r.feed} ${r.orderId} ${r.makerOrderId}`);
}

describe('order ids in the event log', () => {
  it('written from the orders numbers are the wire ids, across batches and buffer growth', () => {
    fc.assert(
      fc.property(steps, fc.constantFrom(8, 64, 4096), (script, batchRows) => {
        const fromNumbers = ids(script, false, batchRows);
        expect(fromNumbers).toEqual(ids(script, true, batchRows));
        for (const line of fromNumbers) {
          const [, kind, id] = line.split(' ');
          // (an `e` of a cancel by engine id names the engine id)
          if (id !== 'null' && kind !== 'feed:e') expect(id).toMatch(/^(O-|L-)[0-9A-HJKMNP-TV-Z]{26}$|^EXTERNAL$/);
        }
      }),
      { numRuns: 60, seed: 0x1d5 },
    );
  });
});
