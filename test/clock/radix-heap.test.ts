import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventHeap } from '../../src/clock/event-heap.ts';
import { SimClock } from '../../src/clock/sim-clock.ts';
import { FourAryHeap } from './four-ary-heap.ts';

/**
 * The radix heap against the 4-ary heap it replaced (kept in the test as the oracle), driven as
 * the clock drives it: pushes at or after the current time (many at a few shared instants, so
 * ties come down to seq; far apart too, so events move down through many buckets and meet in
 * bucket 0 out of seq order), canceled events dropped from the front as `nextEventNs` drops them
 * (a look at the front that does not move time), and pops that move time to the front. Pushes
 * after such a look land before the front it moved to, which is the heap's re-bucketing path.
 * After every operation both heaps must agree on the front's (sec, nanos, seq).
 */
const BASE_SEC = 1_700_000_000;
/** Seconds after the current time: near, around 2^31 and 2^32 (the xor's word), and beyond. */
const secAheadArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(0, 1, 2, 3) },
  { weight: 1, arbitrary: fc.constantFrom(2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 33 + 7) },
);
const nanosArb = fc.oneof(fc.constantFrom(0, 1, 2, 500, 1 << 20, (1 << 20) + 1, 999_999_999), fc.integer({ min: 0, max: 999_999_999 }));
type Op =
  | { kind: 'push'; sec: number; nanos: number }
  | { kind: 'again' }
  | { kind: 'cancel'; pick: number }
  | { kind: 'look' }
  | { kind: 'run' };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('push' as const), sec: secAheadArb, nanos: nanosArb }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'again' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'look' as const }) },
  { weight: 4, arbitrary: fc.constant({ kind: 'run' as const }) },
);

/** Runs `ops` on both heaps; returns the (sec, nanos, seq) of every event run, in order. */
function drive(ops: readonly Op[]): number[] {
  const radix = new EventHeap(BASE_SEC);
  const oracle = new FourAryHeap(BASE_SEC);
  const canceled = new Set<number>();
  const pending: number[] = [];
  let nowSec = BASE_SEC;
  let nowNanos = 0;
  let lastSec = BASE_SEC;
  let lastNanos = 0;
  let seq = 0;
  const ran: number[] = [];
  const front = (): number[] => {
    const slot = radix.peek();
    return slot < 0 ? [] : [radix.secOf(slot), radix.nanosOf(slot), radix.seqOf(slot)];
  };
  const agree = (): void => {
    expect(radix.size).toBe(oracle.size);
    if (oracle.size > 0) expect(front()).toEqual([oracle.topSec(), oracle.topNanos(), oracle.topSeq()]);
  };
  const dropCanceled = (): void => {
    while (oracle.size > 0 && canceled.has(oracle.topSeq())) {
      agree();
      radix.pop();
      oracle.pop();
    }
  };
  const push = (sec: number, nanos: number): void => {
    radix.push(sec, nanos, seq);
    oracle.push(sec, nanos, seq);
    pending.push(seq++);
    lastSec = sec;
    lastNanos = nanos;
  };
  for (const op of ops) {
    if (op.kind === 'push') {
      const sec = nowSec + op.sec;
      push(sec, op.sec === 0 ? Math.max(nowNanos, op.nanos) : op.nanos);
    } else if (op.kind === 'again') {
      if (lastSec > nowSec || (lastSec === nowSec && lastNanos >= nowNanos)) push(lastSec, lastNanos);
    } else if (op.kind === 'cancel') {
      if (pending.length > 0) canceled.add(pending[op.pick % pending.length]!);
    } else if (op.kind === 'look') {
      dropCanceled();
    } else if (oracle.size > 0) {
      agree();
      const [sec, nanos, s] = front() as [number, number, number];
      radix.pop();
      oracle.pop();
      pending.splice(pending.indexOf(s), 1);
      if (!canceled.has(s)) {
        nowSec = sec;
        nowNanos = nanos;
        ran.push(sec, nanos, s);
      }
    }
    agree();
  }
  return ran;
}

describe('EventHeap (radix) against the 4-ary heap it replaced', () => {
  it('gives the same front after every push, cancel, look and run, ties by seq included, and runs the same events in the same order', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 400 }), (ops) => {
        drive(ops);
      }),
      { numRuns: 400, seed: 15 },
    );
  });

  it('runs an event pushed far ahead and another pushed later at its instant, after time moved, in seq order', () => {
    const ran = drive([
      { kind: 'push', sec: 3, nanos: 7 }, // seq 0: waits in a high bucket
      { kind: 'push', sec: 1, nanos: 0 }, // seq 1
      { kind: 'run' }, // time moves to seq 1's instant
      { kind: 'push', sec: 2, nanos: 7 }, // seq 2: seq 0's instant
      { kind: 'run' },
      { kind: 'run' },
    ]);
    expect(ran).toEqual([BASE_SEC + 1, 0, 1, BASE_SEC + 3, 7, 0, BASE_SEC + 3, 7, 2]);
  });
});

describe('SimClock with the radix heap', () => {
  it('runs an event scheduled, while the now-queue runs, before a later heap event the clock had looked at', () => {
    const clock = new SimClock(0n);
    const ran: string[] = [];
    clock.scheduleAt(5_000n, () => ran.push('late'));
    clock.scheduleAt(1_000n, () => {
      ran.push('first');
      clock.scheduleIn(0, () => {
        ran.push('now');
        clock.scheduleIn(100, () => ran.push('soon')); // before 'late', pushed while the now-queue runs
      });
    });
    expect(clock.nextEventNs()).toBe(1_000n);
    expect(clock.runUntil(2_000n)).toBe(3);
    expect(ran).toEqual(['first', 'now', 'soon']);
    expect(clock.runUntilIdle()).toBe(1);
    expect(ran).toEqual(['first', 'now', 'soon', 'late']);
  });
});
