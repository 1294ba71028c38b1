import { NANOS_PER_SECOND, type TimeNs } from '../core/types.ts';

/** A callback run by the clock at its scheduled time, with the argument given to schedule. */
export type ClockCallback<T> = (arg: T) => void;

/** Handle of a scheduled event; pass it to `cancel`. */
export interface ScheduledEvent {
  /** Scheduled time, Unix seconds part. */
  readonly sec: number;
  /** Scheduled time, nanoseconds within the second. */
  readonly nanos: number;
  /** Insertion order: breaks ties between events at the same instant. */
  readonly seq: number;
}

interface Entry extends ScheduledEvent {
  fn: ClockCallback<any> | null; // null once run or canceled
  arg: unknown;
}

const NS_PER_S = 1_000_000_000;

/**
 * Discrete-event clock with exact nanosecond time.
 *
 * Time is kept as two safe integers (Unix seconds, nanoseconds within the second) so that
 * heap comparisons stay on plain numbers: bigint arithmetic is exact but several times slower,
 * and a single float64 count of nanoseconds would lose exactness after 104 days. `nowNs`
 * offers the exact bigint view. Events run in (time, insertion order); the clock never goes
 * back, and scheduling before `now` is an error.
 */
export class SimClock {
  private heap: Entry[] = [];
  private sec: number;
  private nanos: number;
  private nextSeq = 0;
  private live = 0;

  constructor(startNs: TimeNs = 0n) {
    if (startNs < 0n) throw new RangeError('clock start must not be before the Unix epoch');
    this.sec = Number(startNs / NANOS_PER_SECOND);
    this.nanos = Number(startNs % NANOS_PER_SECOND);
  }

  /** Current time in exact nanoseconds since the epoch. */
  get nowNs(): TimeNs {
    return BigInt(this.sec) * NANOS_PER_SECOND + BigInt(this.nanos);
  }

  /** Unix seconds part of now (the feeds' `ts`). */
  get nowSec(): number {
    return this.sec;
  }

  /** Nanoseconds within the current second (the feeds' `tn`). */
  get nowNanos(): number {
    return this.nanos;
  }

  /** Number of scheduled events not yet run or canceled. */
  get pending(): number {
    return this.live;
  }

  /** Time of the next live event, or undefined when idle. */
  nextEventNs(): TimeNs | undefined {
    this.dropCanceledTop();
    const top = this.heap[0];
    return top === undefined ? undefined : BigInt(top.sec) * NANOS_PER_SECOND + BigInt(top.nanos);
  }

  /** Schedules `fn(arg)` at an absolute time; throws if that time is in the past. */
  scheduleAt<T>(atNs: TimeNs, fn: ClockCallback<T>, arg?: T): ScheduledEvent {
    const sec = Number(atNs / NANOS_PER_SECOND);
    const nanos = Number(atNs % NANOS_PER_SECOND);
    if (atNs < 0n || sec < this.sec || (sec === this.sec && nanos < this.nanos)) {
      throw new RangeError(`cannot schedule at ${atNs} ns: the clock is already at ${this.nowNs} ns`);
    }
    return this.push(sec, nanos, fn, arg);
  }

  /** Schedules `fn(arg)` after `delayNs` (a non-negative safe integer) from now. */
  scheduleIn<T>(delayNs: number, fn: ClockCallback<T>, arg?: T): ScheduledEvent {
    if (!(delayNs >= 0) || !Number.isSafeInteger(delayNs)) {
      throw new RangeError(`delay must be a non-negative integer number of nanoseconds, got ${delayNs}`);
    }
    let nanos = this.nanos + delayNs;
    let sec = this.sec;
    if (nanos >= NS_PER_S) {
      const carry = Math.floor(nanos / NS_PER_S);
      sec += carry;
      nanos -= carry * NS_PER_S;
    }
    return this.push(sec, nanos, fn, arg);
  }

  /** Cancels a scheduled event. Returns false when it already ran or was canceled. */
  cancel(event: ScheduledEvent): boolean {
    const entry = event as Entry;
    if (entry.fn === null) return false;
    entry.fn = null;
    entry.arg = undefined;
    this.live--;
    return true;
  }

  /** Runs the next event, moving time to it. Returns false when there was none. */
  step(): boolean {
    this.dropCanceledTop();
    const entry = this.pop();
    if (entry === undefined) return false;
    this.run(entry);
    return true;
  }

  /**
   * Runs every event scheduled at or before `untilNs` (including ones those events schedule),
   * then sets the clock to `untilNs`. Returns the number of events run.
   */
  runUntil(untilNs: TimeNs): number {
    const untilSec = Number(untilNs / NANOS_PER_SECOND);
    const untilNanos = Number(untilNs % NANOS_PER_SECOND);
    if (untilSec < this.sec || (untilSec === this.sec && untilNanos < this.nanos)) {
      throw new RangeError(`cannot run until ${untilNs} ns: the clock is already at ${this.nowNs} ns`);
    }
    let ran = 0;
    const heap = this.heap;
    while (heap.length > 0) {
      const top = heap[0]!;
      if (top.sec > untilSec || (top.sec === untilSec && top.nanos > untilNanos)) break;
      this.pop();
      if (top.fn === null) continue;
      this.run(top);
      ran++;
    }
    this.sec = untilSec;
    this.nanos = untilNanos;
    return ran;
  }

  /** Runs events until none is left. Returns the number run. */
  runUntilIdle(): number {
    let ran = 0;
    const heap = this.heap;
    while (heap.length > 0) {
      const entry = this.pop()!;
      if (entry.fn === null) continue;
      this.run(entry);
      ran++;
    }
    return ran;
  }

  private run(entry: Entry): void {
    const fn = entry.fn!;
    const arg = entry.arg;
    entry.fn = null;
    entry.arg = undefined;
    this.live--;
    this.sec = entry.sec;
    this.nanos = entry.nanos;
    fn(arg);
  }

  private dropCanceledTop(): void {
    const heap = this.heap;
    while (heap.length > 0 && heap[0]!.fn === null) this.pop();
  }

  private push(sec: number, nanos: number, fn: ClockCallback<any>, arg: unknown): ScheduledEvent {
    const entry: Entry = { sec, nanos, seq: this.nextSeq++, fn, arg };
    this.live++;
    const heap = this.heap;
    // Sift up, moving parents down into the hole.
    let i = heap.length;
    heap.push(entry);
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const parent = heap[parentIndex]!;
      if (!isBefore(entry, parent)) break;
      heap[i] = parent;
      i = parentIndex;
    }
    heap[i] = entry;
    return entry;
  }

  private pop(): Entry | undefined {
    const heap = this.heap;
    const top = heap[0];
    if (top === undefined) return undefined;
    const last = heap.pop()!;
    const n = heap.length;
    if (n > 0) {
      // Sift the last entry down from the root.
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= n) break;
        const right = child + 1;
        if (right < n && isBefore(heap[right]!, heap[child]!)) child = right;
        if (!isBefore(heap[child]!, last)) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = last;
    }
    return top;
  }
}

function isBefore(a: ScheduledEvent, b: ScheduledEvent): boolean {
  if (a.sec !== b.sec) return a.sec < b.sec;
  if (a.nanos !== b.nanos) return a.nanos < b.nanos;
  return a.seq < b.seq;
}
