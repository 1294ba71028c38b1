import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventHeap } from '../../src/clock/event-heap.ts';

/**
 * The heap against a sort: events come out in (sec, nanos, seq) order, whatever mix of pushes
 * and pops, with many ties (the same instant) and, beyond 2^23 s from the base (where keys
 * round), instants a few ns apart that share a key.
 */
const BASE_SEC = 1_700_000_000;
/** Second offsets around the key's exact bound (2^23 s) and near the base. */
const secArb = fc.oneof(fc.constantFrom(0, 1, 2), fc.constantFrom(2 ** 23 - 1, 2 ** 23, 2 ** 23 + 1, 2 ** 26 + 3));
const nanosArb = fc.oneof(fc.constantFrom(0, 1, 2, 3, 999_999_999), fc.integer({ min: 0, max: 999_999_999 }));
type Op = { push: true; sec: number; nanos: number } | { push: false };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ push: fc.constant(true as const), sec: secArb, nanos: nanosArb }) },
  { weight: 2, arbitrary: fc.record({ push: fc.constant(false as const) }) },
);

describe('EventHeap', () => {
  it('pops in (time, insertion) order, ties and rounded keys included', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 400 }), (ops) => {
        const heap = new EventHeap(BASE_SEC);
        const pending: { sec: number; nanos: number; seq: number }[] = [];
        const bySlot = new Map<number, number>();
        let seq = 0;
        const popOne = () => {
          pending.sort((a, b) => a.sec - b.sec || a.nanos - b.nanos || a.seq - b.seq);
          const want = pending.shift()!;
          expect([heap.topSec(), heap.topNanos(), bySlot.get(heap.topSlot())]).toEqual([want.sec, want.nanos, want.seq]);
          heap.pop();
        };
        for (const op of ops) {
          if (op.push) {
            const e = { sec: BASE_SEC + op.sec, nanos: op.nanos, seq: seq++ };
            pending.push(e);
            bySlot.set(heap.push(e.sec, e.nanos, e.seq), e.seq);
          } else if (pending.length > 0) popOne();
          expect(heap.size).toBe(pending.length);
        }
        while (pending.length > 0) popOne();
      }),
      { numRuns: 300 },
    );
  });
});
