/**
 * The clock's priority queue of pending events, ordered by time and then by `seq`, the
 * insertion order. Each pending event has a slot (a small integer, reused after the event
 * leaves) under which the clock keeps its callback.
 *
 * A radix heap (a bucket queue by the highest bit in which an instant differs from the last
 * one taken). The clock's times only move forward, so every pending instant is at or after
 * `last`, the instant of the events now at the front. An instant is written as one unsigned
 * integer, `secHi | secLo | nanos` (the Unix second in 21 + 32 bits, the nanos in 30:
 * nanos < 10^9 < 2^30, so the integer's order is the time order), and an event
 * waits in bucket `b` = 1 + the index of that integer's highest bit that differs from
 * `last`'s, or in bucket 0 when it is `last` itself. Every event of bucket `b` is earlier than
 * every event of a higher bucket (they agree with `last` above bit b − 1 and have it set, the
 * higher ones differ from `last` higher up, where they are above it). So:
 * - a push computes its bucket (an xor and a leading-zero count) and appends to that bucket's
 *   list: no sift;
 * - the front is bucket 0's list, and taking it is unlinking its head;
 * - when bucket 0 is empty, the lowest non-empty bucket holds the earliest instant: `last`
 *   moves to it and that bucket's events move down to lower buckets (all to lower ones: they
 *   share its bits down to b − 1 with the new `last` too). An event moves down a few times
 *   between its push and its turn, each a handful of integer operations.
 *
 * Ties by seq, with no comparison of seqs: events at one instant are always in one bucket (the
 * bucket is a function of the instant and `last`, and every pending event is in its bucket for
 * the current `last`), and in seq order in its list: a push appends, and has the highest seq yet;
 * moving a bucket down walks its list in order and appends. So bucket 0, filled from one bucket
 * when `last` moves, holds its instant's events in seq order.
 *
 * The clock may look at the front (`peek`, moving `last` forward) without taking it, then go
 * back to an earlier time's push (`runUntil` ends before the front; `nextEventNs` drops
 * canceled events at the front). A push before `last` re-buckets everything pending around its
 * own instant: the radix property holds again, at a cost of one pass over the pending events
 * (the clock's pending set is ~100 events) on that rare path.
 *
 * Storage: per slot, two typed arrays (no objects, invisible to the collector): `times`
 * (Unix second, seq) and `links` (nanos, next slot in its bucket, or in the free
 * list once the slot is free; -1 at a list's end).
 */

// Offsets into the per-slot cells, the bucket count and 2^32 are written as literals where they
// are used: V8 loads a module-level constant from the module's context on every use.
//   times[2 * slot] = Unix second (read back as is: the clock sets its time from it), times[2 * slot + 1] = seq (-1 while the slot is free)
//   links[2 * slot] = nanos, links[2 * slot + 1] = next slot in the bucket or the free list (-1: none)
// Buckets: 0 (the front); 1..30 nanos bits; 31..62 the low 32 bits of the second; 63..83 the
// high ones (seconds < 2^53; none before the year 2106).

/** A min-heap of scheduled times, each with a slot. */
export class EventHeap {
  /** Number of pending events. */
  size = 0;
  private times = new Float64Array(2048).fill(-1);
  private links = new Int32Array(2048).fill(-1);
  /** First and last slot of each bucket's list (-1: empty). */
  private readonly heads = new Int32Array(96).fill(-1);
  private readonly tails = new Int32Array(96).fill(-1);
  /** Non-empty buckets, as bits: 1..31 (bit 0 unused), 32..63, 64..95. */
  private mask0 = 0;
  private mask1 = 0;
  private mask2 = 0;
  /** The instant of bucket 0: the front's, or (while it is empty) a bound below every pending one. */
  private lastSec = 0; // a value here keeps the field a double (see SimClock's `sec`)
  private lastNanos = 0;
  /** Free slots, linked through their `links` next cell (-1: none; then a new slot). */
  private freeSlot = -1;
  private slotCount = 0;

  /** @param startSec Unix seconds of the clock's start; no event is earlier. */
  constructor(startSec: number) {
    this.lastSec = startSec;
  }

  /** Slot of the earliest event, or -1 when none is pending; it stays the earliest until popped or an earlier push. */
  peek(): number {
    const head = this.heads[0]!;
    if (head >= 0 || this.size === 0) return head;
    return this.advance();
  }

  /**
   * Slot of the first event at `last` (bucket 0's head), or -1, without moving `last`: the
   * clock asks whether the heap has an event at the current time while it runs the now-queue,
   * and an event there was taken to bucket 0 when the clock moved to it (see `SimClock.heapTopNow`).
   * `peek` would move `last` to a later instant, and the now-queue's events push before it.
   */
  front(): number {
    return this.heads[0]!;
  }

  /** Seconds part of the time of the event in `slot` (pending). */
  secOf(slot: number): number {
    return this.times[2 * slot]!;
  }

  /** Nanoseconds part of the time of the event in `slot` (pending). */
  nanosOf(slot: number): number {
    return this.links[2 * slot]!;
  }

  /** Insertion seq of the event in `slot` (pending). */
  seqOf(slot: number): number {
    return this.times[2 * slot + 1]!;
  }

  /** True when `slot` holds the pending event with this `seq`. */
  holds(slot: number, seq: number): boolean {
    return slot >= 0 && slot < this.slotCount && this.times[2 * slot + 1] === seq;
  }

  /**
   * Whether no event pushed after the pending one in `slot` is at (sec, nanos), its instant: the
   * events of one instant are in one bucket in seq order (see the class), so they are behind it
   * in its list. A walk to the end of that list: the events pushed since into its time range.
   */
  noneLaterAt(slot: number, sec: number, nanos: number): boolean {
    const times = this.times;
    const links = this.links;
    for (let s = links[2 * slot + 1]!; s >= 0; s = links[2 * s + 1]!) if (links[2 * s] === nanos && times[2 * s] === sec) return false;
    return true;
  }

  /**
   * Adds an event and returns its slot. `seq` must exceed every seq pushed before, so that
   * among equal times the new event goes last.
   */
  push(sec: number, nanos: number, seq: number): number {
    let slot = this.freeSlot;
    if (slot >= 0) {
      this.freeSlot = this.links[2 * slot + 1]!;
      this.links[2 * slot + 1] = -1;
    } else {
      slot = this.newSlot();
    }
    const at = sec;
    this.times[2 * slot] = at;
    this.times[2 * slot + 1] = seq;
    this.links[2 * slot] = nanos;
    this.size++;
    const lastSec = this.lastSec;
    if (at < lastSec || (at === lastSec && nanos < this.lastNanos)) this.rebase(slot, at, nanos);
    else this.append(this.bucketOf(at, nanos), slot);
    return slot;
  }

  /** Removes the earliest event and frees its slot (only when `size > 0`). */
  pop(): void {
    let slot = this.heads[0]!; // the clock peeked just before: the front is there
    if (slot < 0) slot = this.advance();
    const next = this.links[2 * slot + 1]!;
    this.heads[0] = next;
    if (next < 0) this.tails[0] = -1;
    this.links[2 * slot + 1] = this.freeSlot;
    this.freeSlot = slot;
    this.times[2 * slot + 1] = -1;
    this.size--;
  }

  /**
   * Bucket 0 is empty and events are pending: moves `last` to the earliest instant (of the
   * lowest non-empty bucket) and spreads that bucket over the lower ones. Returns the front.
   */
  private advance(): number {
    const b = this.lowestBucket();
    const first = this.heads[b]!;
    const only = first === this.tails[b];
    this.clearBucket(b);
    if (!only) return this.spread(first);
    // One event (most advances): it is the front. (Kept small, so V8 inlines it where the clock looks.)
    this.lastSec = this.times[2 * first]!;
    this.lastNanos = this.links[2 * first]!;
    this.heads[0] = first;
    this.tails[0] = first;
    return first;
  }

  /** `advance` of a bucket of several events, its list starting at `first` (already detached). */
  private spread(first: number): number {
    const times = this.times;
    const links = this.links;
    let minSec = times[2 * first]!;
    let minNanos = links[2 * first]!;
    for (let s = links[2 * first + 1]!; s >= 0; s = links[2 * s + 1]!) {
      const sec = times[2 * s]!;
      const nanos = links[2 * s]!;
      if (sec < minSec || (sec === minSec && nanos < minNanos)) {
        minSec = sec;
        minNanos = nanos;
      }
    }
    this.lastSec = minSec;
    this.lastNanos = minNanos;
    let s = first;
    while (s >= 0) {
      const next = links[2 * s + 1]!;
      links[2 * s + 1] = -1;
      this.append(this.bucketOf(times[2 * s]!, links[2 * s]!), s); // in list order: ties stay in seq order
      s = next;
    }
    return this.heads[0]!;
  }

  /** A push before `last`: every pending event is bucketed again around the new one's instant. */
  private rebase(slot: number, at: number, nanos: number): void {
    const pending: number[] = [];
    const links = this.links;
    for (let b = 0; b < 96; b++) {
      for (let s = this.heads[b]!; s >= 0; s = links[2 * s + 1]!) pending.push(s);
      this.clearBucket(b);
    }
    this.lastSec = at;
    this.lastNanos = nanos;
    this.append(0, slot);
    const times = this.times;
    for (const s of pending) {
      links[2 * s + 1] = -1;
      this.append(this.bucketOf(times[2 * s]!, links[2 * s]!), s); // all later than the new one: none in bucket 0
    }
  }

  /** Bucket of an instant at or after `last`: 1 + its highest bit that differs from `last`'s, 0 if none. */
  private bucketOf(at: number, nanos: number): number {
    const lastSec = this.lastSec;
    if (at === lastSec) {
      const d = nanos ^ this.lastNanos;
      return d === 0 ? 0 : 32 - Math.clz32(d);
    }
    if ((at >= 4294967296 || lastSec >= 4294967296) && Math.floor(at / 4294967296) !== Math.floor(lastSec / 4294967296)) {
      return 94 - Math.clz32(Math.floor(at / 4294967296) ^ Math.floor(lastSec / 4294967296)); // 62 + 1..21
    }
    return 62 - Math.clz32(at ^ lastSec); // 30 + 1..32: `^` takes the low 32 bits of each
  }

  /** The lowest non-empty bucket above 0 (only when one is). */
  private lowestBucket(): number {
    const m0 = this.mask0 & -2; // bucket 0's bit is not kept (pop does not clear it)
    if (m0 !== 0) return 31 - Math.clz32(m0 & -m0);
    const m1 = this.mask1;
    if (m1 !== 0) return 63 - Math.clz32(m1 & -m1);
    const m2 = this.mask2;
    return 95 - Math.clz32(m2 & -m2);
  }

  private append(b: number, slot: number): void {
    const tail = this.tails[b]!;
    if (tail < 0) {
      this.heads[b] = slot;
      if (b < 32) this.mask0 |= 1 << b;
      else if (b < 64) this.mask1 |= 1 << (b - 32);
      else this.mask2 |= 1 << (b - 64);
    } else {
      this.links[2 * tail + 1] = slot;
    }
    this.tails[b] = slot;
  }

  private clearBucket(b: number): void {
    this.heads[b] = -1;
    this.tails[b] = -1;
    if (b < 32) this.mask0 &= ~(1 << b);
    else if (b < 64) this.mask1 &= ~(1 << (b - 32));
    else this.mask2 &= ~(1 << (b - 64));
  }

  /** A slot never used yet (none is free), growing the arrays when they are full. */
  private newSlot(): number {
    if (2 * this.slotCount === this.times.length) {
      const times = new Float64Array(this.times.length * 2).fill(-1);
      times.set(this.times);
      this.times = times;
      const links = new Int32Array(this.links.length * 2).fill(-1);
      links.set(this.links);
      this.links = links;
    }
    return this.slotCount++;
  }
}
