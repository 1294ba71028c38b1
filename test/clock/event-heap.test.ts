import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventHeap } from '../../src/clock/event-heap.ts';
import { SimClock } from '../../src/clock/sim-clock.ts';

/**
 * The heap against a sort: events come out in (sec, nanos, seq) order, whatever mix of pushes
 * and pops, with many ties (the same instant) and instants a few ns apart from near the base to
 * 2^26 s beyond it (the old 4-ary heap's keys rounded past 2^23 s; the offsets stay as edges).
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
          const top = heap.peek();
          expect([heap.secOf(top), heap.nanosOf(top), bySlot.get(top)]).toEqual([want.sec, want.nanos, want.seq]);
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

/**
 * Pushes at the instant of the push just before are chained behind it, not sifted: whichever
 * pops come between, whether the event pushed last is still pending or already gone (its slot
 * freed, maybe reused), the heap stays in (time, insertion) order.
 */
type ChainOp = { kind: 'again' } | { kind: 'at'; instant: number } | { kind: 'pop' };
const chainOpArb: fc.Arbitrary<ChainOp> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'again' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('at' as const), instant: fc.integer({ min: 0, max: 5 }) }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'pop' as const }) },
);

describe('EventHeap, runs of one instant', () => {
  it('pops a run pushed at one instant in push order, among pops and other instants, the run\'s last event gone or not', () => {
    fc.assert(
      fc.property(fc.array(chainOpArb, { maxLength: 300 }), (ops) => {
        const heap = new EventHeap(BASE_SEC);
        const pending: { sec: number; nanos: number; seq: number }[] = [];
        const seqBySlot = new Map<number, number>();
        let seq = 0;
        let last = 0;
        for (const op of ops) {
          if (op.kind === 'pop') {
            if (pending.length === 0) continue;
            pending.sort((a, b) => a.sec - b.sec || a.nanos - b.nanos || a.seq - b.seq);
            const want = pending.shift()!;
            const top = heap.peek();
            expect([heap.secOf(top), heap.nanosOf(top), heap.seqOf(top), seqBySlot.get(top)]).toEqual([want.sec, want.nanos, want.seq, want.seq]);
            heap.pop();
          } else {
            if (op.kind === 'at') last = op.instant;
            const e = { sec: BASE_SEC + (last >> 1), nanos: (last & 1) * 500, seq: seq++ };
            pending.push(e);
            seqBySlot.set(heap.push(e.sec, e.nanos, e.seq), e.seq);
          }
          expect(heap.size).toBe(pending.length);
        }
      }),
      { numRuns: 500, seed: 11 },
    );
  });

  it('does not chain a push behind the event pushed before it once that event has left, even when the push reuses a freed slot', () => {
    const heap = new EventHeap(BASE_SEC);
    heap.push(BASE_SEC + 2, 0, 0); // later
    heap.push(BASE_SEC + 1, 0, 1); // earlier, pushed last
    heap.pop(); // the earlier one leaves
    heap.pop(); // and the later one: both slots free
    heap.push(BASE_SEC + 1, 0, 2); // the instant of the push before, which is gone
    heap.push(BASE_SEC + 3, 0, 3);
    expect([heap.size, heap.secOf(heap.peek()), heap.seqOf(heap.peek())]).toEqual([2, BASE_SEC + 1, 2]);
    heap.pop();
    expect([heap.size, heap.secOf(heap.peek()), heap.seqOf(heap.peek())]).toEqual([1, BASE_SEC + 3, 3]);
  });

  it('in the clock: an event scheduled last, canceled and dropped from the top before time reaches it, takes no later event at its instant along', () => {
    const clock = new SimClock(0n);
    const ran: string[] = [];
    clock.scheduleAt(2_000n, () => ran.push('later'));
    const gone = clock.scheduleAt(1_000n, () => ran.push('gone')); // scheduled last
    clock.cancel(gone);
    expect(clock.nextEventNs()).toBe(2_000n); // drops it from the top: the clock stays at 0
    clock.scheduleAt(1_000n, () => ran.push('again')); // its instant, in its freed slot
    clock.scheduleAt(3_000n, () => ran.push('last'));
    expect(clock.runUntilIdle()).toBe(3);
    expect(ran).toEqual(['again', 'later', 'last']);
  });
});
