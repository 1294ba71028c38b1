import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimClock, type ScheduledEvent } from '../../src/clock/sim-clock.ts';

/**
 * The clock's now-queue (events scheduled for the current instant skip the heap) must not change
 * the order events run in. Oracle: a reference clock that keeps every event in one list and runs
 * the earliest (time, insertion order) by a linear scan — the order the heap-only clock had.
 */

interface Handle {
  readonly entry?: RefEvent;
  readonly event?: ScheduledEvent;
}

interface RefEvent {
  readonly atNs: bigint;
  readonly seq: number;
  readonly fn: () => void;
  state: 'pending' | 'ran' | 'canceled';
}

/** The reference: a list scanned for the earliest pending (time, seq). */
class ListClock {
  nowNs: bigint;
  private readonly events: RefEvent[] = [];
  constructor(startNs: bigint) {
    this.nowNs = startNs;
  }
  scheduleAt(atNs: bigint, fn: () => void): RefEvent {
    if (atNs < this.nowNs) throw new RangeError('past');
    const entry: RefEvent = { atNs, seq: this.events.length, fn, state: 'pending' };
    this.events.push(entry);
    return entry;
  }
  cancel(entry: RefEvent): boolean {
    if (entry.state !== 'pending') return false;
    entry.state = 'canceled';
    return true;
  }
  get pending(): number {
    return this.events.filter((e) => e.state === 'pending').length;
  }
  next(): RefEvent | undefined {
    let best: RefEvent | undefined;
    for (const e of this.events) if (e.state === 'pending' && (best === undefined || e.atNs < best.atNs)) best = e;
    return best;
  }
  run(e: RefEvent): void {
    this.nowNs = e.atNs;
    e.state = 'ran';
    e.fn();
  }
}

type Action = { kind: 'in' | 'post' | 'at'; delayNs: number } | { kind: 'cancel'; pick: number };
type Op = { kind: 'step' } | { kind: 'idle' } | { kind: 'until'; advanceNs: number } | { kind: 'next' } | { kind: 'act'; action: Action };

const START_NS = 1_700_000_000_999_999_990n;
const MAX_EVENTS = 250;

/** Delays that often land on the current instant or on each other, sometimes past a second. */
const delayArb = fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 2_000_000_000 }));
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constantFrom('in' as const, 'post' as const, 'at' as const), delayNs: delayArb }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('act' as const), action: actionArb }),
  fc.record({ kind: fc.constantFrom('step' as const, 'idle' as const, 'next' as const) }),
  fc.record({ kind: fc.constant('until' as const), advanceNs: delayArb }),
);

/** Runs a program on one clock (the real one or the reference) and returns what it observed. */
function runProgram(real: boolean, scripts: Action[][], ops: Op[]): string[] {
  const log: string[] = [];
  const clock = new SimClock(START_NS);
  const ref = new ListClock(START_NS);
  const now = (): bigint => (real ? clock.nowNs : ref.nowNs);
  const handles: Handle[] = [];
  let made = 0;
  const makeEvent = (): (() => void) => {
    const id = made++;
    return () => {
      log.push(`ran ${id} at ${now()}`);
      for (const action of scripts[id % scripts.length]!) act(action);
    };
  };
  const act = (action: Action): void => {
    if (action.kind === 'cancel') {
      if (handles.length === 0) return;
      const h = handles[action.pick % handles.length]!;
      log.push(`cancel ${action.pick % handles.length}: ${real ? clock.cancel(h.event!) : ref.cancel(h.entry!)}`);
      return;
    }
    if (made >= MAX_EVENTS) return;
    const fn = makeEvent();
    const atNs = now() + BigInt(action.delayNs);
    if (!real) {
      const entry = ref.scheduleAt(atNs, fn);
      if (action.kind !== 'post') handles.push({ entry });
    } else if (action.kind === 'post') {
      clock.postIn(action.delayNs, fn);
    } else {
      handles.push({ event: action.kind === 'in' ? clock.scheduleIn(action.delayNs, fn) : clock.scheduleAt(atNs, fn) });
    }
  };
  for (const op of ops) {
    if (op.kind === 'act') act(op.action);
    else if (op.kind === 'next') log.push(`next ${real ? clock.nextEventNs() : ref.next()?.atNs}`);
    else if (op.kind === 'step') log.push(`step ${real ? clock.step() : stepRef(ref)}`);
    else if (op.kind === 'idle') log.push(`idle ${real ? clock.runUntilIdle() : runRef(ref, undefined)}`);
    else {
      const untilNs = now() + BigInt(op.advanceNs);
      log.push(`until ${untilNs}: ${real ? clock.runUntil(untilNs) : runRef(ref, untilNs)}`);
    }
    log.push(`now ${now()} pending ${real ? clock.pending : ref.pending}`);
  }
  return log;
}

function stepRef(ref: ListClock): boolean {
  const e = ref.next();
  if (e === undefined) return false;
  ref.run(e);
  return true;
}

function runRef(ref: ListClock, untilNs: bigint | undefined): number {
  let ran = 0;
  for (let e = ref.next(); e !== undefined && (untilNs === undefined || e.atNs <= untilNs); e = ref.next()) {
    ref.run(e);
    ran++;
  }
  if (untilNs !== undefined) ref.nowNs = untilNs;
  return ran;
}

describe('SimClock with events for the current instant beside the heap', () => {
  it('runs, cancels and counts events exactly as a clock keeping one list in (time, insertion) order', () => {
    fc.assert(
      fc.property(fc.array(fc.array(actionArb, { maxLength: 4 }), { minLength: 1, maxLength: 12 }), fc.array(opArb, { minLength: 1, maxLength: 40 }), (scripts, ops) => {
        expect(runProgram(true, scripts, ops)).toEqual(runProgram(false, scripts, ops));
      }),
      { numRuns: 400 },
    );
  });

  it('runs an event the heap holds for this instant before a zero-delay event pushed at it', () => {
    const clock = new SimClock(0n);
    const order: string[] = [];
    clock.scheduleIn(10, () => {
      order.push('a');
      clock.postIn(0, () => order.push('c'));
      clock.scheduleIn(0, () => order.push('d'));
    });
    clock.scheduleIn(10, () => order.push('b'));
    clock.runUntilIdle();
    expect(order).toEqual(['a', 'b', 'c', 'd']);
  });

  it('cancels a zero-delay event once, and a stale handle never cancels a later event in its cell', () => {
    const clock = new SimClock(0n);
    const ran: number[] = [];
    const first = clock.scheduleIn(0, () => ran.push(1));
    expect(clock.cancel(first)).toBe(true);
    expect(clock.cancel(first)).toBe(false);
    clock.runUntilIdle();
    const second = clock.scheduleIn(0, () => ran.push(2));
    expect(clock.cancel(first)).toBe(false);
    expect(clock.pending).toBe(1);
    clock.runUntilIdle();
    expect(clock.cancel(second)).toBe(false);
    expect(ran).toEqual([2]);
  });

  it('keeps order while the queue grows past its first ring, across many zero-delay events', () => {
    const clock = new SimClock(5n);
    const order: number[] = [];
    for (let i = 0; i < 300; i++) clock.postIn(0, (k: number) => order.push(k), i);
    clock.runUntil(5n);
    expect(order).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });
});
