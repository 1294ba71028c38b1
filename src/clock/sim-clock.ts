import type { TimeNs } from '../core/types.ts';
import { EventHeap } from './event-heap.ts';
import { delayInto, Instant, nsOf } from './exact-delay.ts';
import { ClockTime } from './clock-time.ts';
import { ClockEvent, type ClockCallback, type ScheduledEvent } from './clock-event.ts';
import { NowQueue } from './now-queue.ts';

export type { ClockCallback, ScheduledEvent } from './clock-event.ts';

// 10^9 is a literal in the per-event code below (event-heap.ts says why its constants are).

/**
 * Discrete-event clock with exact nanosecond time.
 *
 * Time is kept as two safe integers (Unix seconds, nanoseconds within the second) so that
 * heap comparisons stay on plain numbers: bigint arithmetic is exact but several times slower,
 * and a single float64 count of nanoseconds would lose exactness after 104 days. `nowNs`
 * offers the exact bigint view. Events run in (time, insertion order); the clock never goes
 * back, and scheduling before `now` is an error.
 *
 * Pending events live in an `EventHeap` (flat typed arrays, invisible to the garbage
 * collector); each has a slot, under which `fns` / `args` hold its callback. Cancel is O(1): it
 * clears the callback, and the heap drops the event when it reaches the top. A slot is reused
 * only after its event has left the heap, and a handle matches its slot only while the slot
 * still holds that handle's `seq`, so a stale handle can never cancel a later event. Events for
 * the current instant skip the heap: they go to a FIFO beside it (`NowQueue`, which says why
 * the order is the same), and run after the heap's events of that instant.
 */
export class SimClock extends ClockTime {
  private readonly heap: EventHeap;
  /** Pending events at the current time, pushed while the clock was at it. */
  private readonly atNow = new NowQueue();
  /**
   * Callback of the pending event in each heap slot; null when free or canceled. Made with room
   * for the slots a simulation uses, filled with null and undefined: an empty `[]` starts with
   * small-integer elements, and the first callbacks pushed into each new clock's arrays threw
   * away the compiled `pushSlot` (and every caller it was inlined into) once per clock: every
   * run of a process that runs several (bench passes, sweeps). The slots grow past it as before.
   */
  private readonly fns: (ClockCallback<any> | null)[] = new Array<ClockCallback<any> | null>(256).fill(null);
  private readonly args: unknown[] = new Array<unknown>(256).fill(undefined);
  /** Scratch result of `delayInto` and of the bigint times' split. */
  private readonly at = new Instant();

  constructor(startNs: TimeNs = 0n) {
    super();
    if (startNs < 0n) throw new RangeError('clock start must not be before the Unix epoch');
    const start = new Instant().setNs(startNs);
    this.sec = start.sec;
    this.nanos = start.nanos;
    this.heap = new EventHeap(this.sec);
  }

  /** Time of the next live event, or undefined when idle. */
  nextEventNs(): TimeNs | undefined {
    const slot = this.dropCanceledTop();
    if (this.atNow.size > 0) return this.nowNs;
    if (slot < 0) return undefined;
    return nsOf(this.heap.secOf(slot), this.heap.nanosOf(slot));
  }

  /** Schedules `fn(arg)` at an absolute time; throws if that time is in the past. */
  scheduleAt<T>(atNs: TimeNs, fn: ClockCallback<T>, arg?: T): ScheduledEvent {
    const at = this.at.setNs(atNs);
    if (atNs < 0n || at.isBefore(this.sec, this.nanos)) throw new RangeError(`cannot schedule at ${atNs} ns: the clock is already at ${this.nowNs} ns`);
    return this.push(at.sec, at.nanos, fn, arg);
  }

  /** Schedules `fn(arg)` after `delayNs` (a non-negative safe integer) from now. */
  scheduleIn<T>(delayNs: number, fn: ClockCallback<T>, arg?: T): ScheduledEvent {
    delayInto(this.at, this.sec, this.nanos, delayNs);
    return this.push(this.at.sec, this.at.nanos, fn, arg);
  }

  /**
   * `scheduleIn` without a handle, for events nobody cancels (messages in flight): no object
   * per event. Same order as `scheduleIn`: it takes the next insertion number. Returns where the
   * event waits, for `isLastAt` while it is pending (a number: no object).
   */
  postIn<T>(delayNs: number, fn: ClockCallback<T>, arg?: T): number {
    // A message's usual delay (an integer below 1 s: `(d | 0) === d` checks it, NaN fails) directly.
    if (delayNs >= 0 && delayNs < 1_000_000_000 && (delayNs | 0) === delayNs) {
      let sec = this.sec;
      let nanos = this.nanos + delayNs;
      if (nanos >= 1_000_000_000) {
        sec += 1;
        nanos -= 1_000_000_000;
      }
      return this.pushSlot(sec, nanos, fn, arg);
    }
    delayInto(this.at, this.sec, this.nanos, delayNs);
    return this.pushSlot(this.at.sec, this.at.nanos, fn, arg);
  }

  /**
   * Whether the pending event `postIn` placed at `where`, at (sec, nanos), is the last event
   * pushed at that instant so far: no event pushed after it would run between it and an event
   * pushed now at that instant (`SameInstantGroups` then carries the new message in it). Only
   * while that event is pending.
   */
  isLastAt(where: number, sec: number, nanos: number): boolean {
    // In the now-queue: every later push at the current instant is there, behind it.
    if (where < 0) return this.atNow.tail === -where;
    // In the heap: the instant's later events are behind it in its bucket (event-heap.ts); and
    // if the clock is at that instant, everything in the now-queue was pushed after it.
    return this.heap.noneLaterAt(where, sec, nanos) && (this.atNow.size === 0 || nanos !== this.nanos || sec !== this.sec);
  }

  /** Cancels a scheduled event. Returns false when it already ran or was canceled. */
  cancel(event: ScheduledEvent): boolean {
    const slot = (event as ClockEvent).slot;
    if (slot < 0) {
      if (!this.atNow.cancel(-1 - slot, event.seq)) return false;
      this.live--;
      return true;
    }
    if (!this.heap.holds(slot, event.seq) || this.fns[slot] === null) return false;
    this.fns[slot] = null;
    this.args[slot] = undefined;
    this.live--;
    return true;
  }

  /** Runs the next event, moving time to it. Returns false when there was none. */
  step(): boolean {
    const slot = this.dropCanceledTop();
    if (this.atNow.size > 0) {
      this.runNext();
      return true;
    }
    if (slot < 0) return false;
    this.runTop(slot);
    return true;
  }

  /**
   * Runs every event scheduled at or before `untilNs` (including ones those events schedule),
   * then sets the clock to `untilNs`. Returns the number of events run.
   */
  runUntil(untilNs: TimeNs): number {
    const until = this.at.setNs(untilNs);
    if (until.isBefore(this.sec, this.nanos)) throw new RangeError(`cannot run until ${untilNs} ns: the clock is already at ${this.nowNs} ns`);
    const untilSec = until.sec;
    const untilNanos = until.nanos;
    let ran = 0;
    const heap = this.heap;
    const atNow = this.atNow;
    for (;;) {
      if (atNow.size > 0) {
        if (this.runNext()) ran++;
        continue;
      }
      const slot = heap.peek();
      if (slot < 0) break;
      const topSec = heap.secOf(slot);
      if (topSec > untilSec || (topSec === untilSec && heap.nanosOf(slot) > untilNanos)) break;
      if (this.runTop(slot)) ran++;
    }
    this.sec = untilSec;
    this.nanos = untilNanos;
    return ran;
  }

  /** Runs events until none is left. Returns the number run. */
  runUntilIdle(): number {
    let ran = 0;
    const heap = this.heap;
    const atNow = this.atNow;
    while (atNow.size > 0 || heap.size > 0) if (atNow.size > 0 ? this.runNext() : this.runTop(heap.peek())) ran++;
    return ran;
  }

  /**
   * Takes the earliest event (`slot`, as the heap's `peek` gave it) off the heap and, unless it
   * was canceled, moves time to it and runs it. Returns whether it ran. Its slot is freed before
   * the callback runs, so the callback's own handle already reads as run, as it did when
   * entries were objects.
   */
  private runTop(slot: number): boolean {
    const heap = this.heap;
    const fn = this.fns[slot] as ClockCallback<any> | null;
    if (fn === null) {
      heap.pop();
      return false;
    }
    const arg = this.args[slot];
    this.fns[slot] = null;
    this.args[slot] = undefined;
    this.live--;
    this.sec = heap.secOf(slot);
    this.nanos = heap.nanosOf(slot);
    this.ranSeq = heap.seqOf(slot);
    heap.pop();
    fn(arg);
    return true;
  }

  /**
   * With events in the now-queue: runs the heap's top if it is at the current time (pushed
   * before the clock got here, so earlier in order), else the queue's oldest. Returns whether it ran.
   */
  private runNext(): boolean {
    const slot = this.heapTopNow();
    return slot >= 0 ? this.runTop(slot) : this.runAtNow();
  }

  /** Takes the now-queue's oldest event and runs it unless it was canceled (time stays). */
  private runAtNow(): boolean {
    const atNow = this.atNow;
    const fn = atNow.headFn();
    const arg = atNow.headArg();
    const seq = atNow.headSeq();
    atNow.shift();
    if (fn === null) return false;
    this.ranSeq = seq;
    this.live--;
    fn(arg);
    return true;
  }

  /**
   * The heap's earliest event's slot when it is at the current time, else -1. Such an event is at
   * the heap's front without a `peek`: the clock got to this time by taking an event of it from
   * the heap (which brought the instant's others to the front), or by `runUntil`'s end, which
   * leaves none at it; pushes at the current time go to the now-queue.
   */
  private heapTopNow(): number {
    const heap = this.heap;
    const slot = heap.front();
    return slot >= 0 && heap.nanosOf(slot) === this.nanos && heap.secOf(slot) === this.sec ? slot : -1;
  }

  /**
   * Drops canceled events from the front of the now-queue and of the heap, and returns the heap's
   * front slot (-1: none). While the now-queue holds events, only the heap's `front` (see
   * `heapTopNow`): a `peek` would move the front later, and the now-queue's pushes before it
   * would each re-bucket the heap.
   */
  private dropCanceledTop(): number {
    const atNow = this.atNow;
    while (atNow.size > 0 && atNow.headFn() === null) atNow.shift();
    const heap = this.heap;
    let slot: number;
    if (atNow.size > 0) {
      for (slot = heap.front(); slot >= 0 && this.fns[slot] === null; slot = heap.front()) heap.pop();
    } else {
      for (slot = heap.peek(); slot >= 0 && this.fns[slot] === null; slot = heap.peek()) heap.pop();
    }
    return slot;
  }

  private push(sec: number, nanos: number, fn: ClockCallback<any>, arg: unknown): ScheduledEvent {
    const slot = this.pushSlot(sec, nanos, fn, arg);
    return new ClockEvent(sec, nanos, this.nextSeq - 1, slot);
  }

  private pushSlot(sec: number, nanos: number, fn: ClockCallback<any>, arg: unknown): number {
    const seq = this.nextSeq++;
    if (nanos === this.nanos && sec === this.sec) {
      this.live++;
      return -1 - this.atNow.push(seq, fn, arg);
    }
    const slot = this.heap.push(sec, nanos, seq);
    if (slot === this.fns.length) {
      this.fns.push(fn);
      this.args.push(arg);
    } else {
      this.fns[slot] = fn;
      this.args[slot] = arg;
    }
    this.live++;
    return slot;
  }
}
