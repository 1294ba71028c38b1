/**
 * The clock's heap as it was until round 15 (a 4-ary heap of (key, slot) in typed arrays, runs
 * of one instant chained): kept as the oracle the radix heap (`src/clock/event-heap.ts`) is
 * tested against, tie order included. Not used by the simulation.
 */
/**
 * The clock's priority queue of pending events, ordered by time and then by `seq`, the
 * insertion order. Each pending event has a slot (a small integer, reused after the event
 * leaves) under which the clock keeps its callback.
 *
 * Why typed arrays and not a heap of objects: pending events are long-lived (each waits for
 * thousands of others to run), so as objects they are promoted and traced by the garbage
 * collector, and every comparison chases a pointer. Here the heap itself is two flat arrays,
 * a sort key and a slot per position, invisible to the collector: 12 bytes a position, so the
 * upper levels stay in cache. It is 4-ary (half the depth of a binary heap, and the four
 * children of a position are adjacent in memory), and `pop` is bottom-up.
 *
 * Ordering on one number: the key is `(sec - baseSec) * 2^30 + nanos`, rounded to a double.
 * Since nanos < 10^9 < 2^30 the exact value strictly increases with time, and rounding is
 * monotone, so a smaller key always means an earlier time; keys are exact while
 * `sec - baseSec` < 2^23 s (about 97 days). Only equal keys (the same instant, or beyond 97
 * days two instants a few ns apart) fall back to comparing nanos and then seq exactly. Equal
 * keys imply the same second (instants a second apart differ by over 7·10^7 in the key), so
 * the second is recovered exactly as `floor(key / 2^30)`.
 *
 * Runs of one instant: a push at exactly the instant of the push just before it (a message
 * sent to several receivers with one latency, timers due together: a quarter of a simulation's
 * pushes) does not enter the heap; it is chained behind that event (`nextOf`), and when the
 * event leaves the top its follower takes the top's place as it is, with no sift down. The
 * order is unchanged: the two were pushed one after the other, so no other event at that
 * instant has a seq between theirs, and nothing is earlier than the top. A heap position
 * therefore holds a chain of events at one instant with consecutive heap-push order, and its
 * (nanos, seq) are its head's, the chain's earliest.
 */

// 2^30 and the heap's arity (4) are written as literals where they are used: V8 loads a
// module-level constant from the module's context on every use (and checks it is a small
// integer), once per level of every sift, which it cannot do for a literal.

/** A min-heap of scheduled times, each with a slot. */
export class FourAryHeap {
  /** Number of pending events (chained followers included). */
  size = 0;
  /** Number of heap positions (chains). */
  private positions = 0;
  private keys = new Float64Array(1024);
  private slotAt = new Int32Array(1024);
  /** Per slot: nanoseconds within the second, and seq (-1 once the slot is free). */
  private nanosOf = new Float64Array(1024);
  private seqOf = new Float64Array(1024).fill(-1);
  /** Per slot: the event chained behind it at the same instant, or -1. */
  private nextOf = new Int32Array(1024).fill(-1);
  /** The slot pushed last while it is pending (-1 once it left), and its instant. */
  private lastSlot = -1;
  private lastSec = 0;
  private lastNanos = 0;
  private readonly freeSlots: number[] = [];
  private slotCount = 0;

  /** @param baseSec Unix seconds that keys count from (the clock's start); no event is earlier. */
  constructor(private readonly baseSec: number) {}

  /** Seconds part of the earliest event's time (only when `size > 0`). */
  topSec(): number {
    return Math.floor(this.keys[0]! / 1073741824) + this.baseSec; // key / 2^30
  }

  /** Nanoseconds part of the earliest event's time (only when `size > 0`). */
  topNanos(): number {
    return this.nanosOf[this.slotAt[0]!]!;
  }

  /** Slot of the earliest event (only when `size > 0`). */
  topSlot(): number {
    return this.slotAt[0]!;
  }

  /** Insertion seq of the earliest event (only when `size > 0`). */
  topSeq(): number {
    return this.seqOf[this.slotAt[0]!]!;
  }

  /** True when `slot` holds the pending event with this `seq`. */
  holds(slot: number, seq: number): boolean {
    return slot >= 0 && slot < this.slotCount && this.seqOf[slot] === seq;
  }

  /**
   * Adds an event and returns its slot. `seq` must exceed every seq pushed before, so that
   * among equal times the new event goes last.
   */
  push(sec: number, nanos: number, seq: number): number {
    const slot = this.takeSlot();
    this.nanosOf[slot] = nanos;
    this.seqOf[slot] = seq;
    this.size++;
    const last = this.lastSlot;
    this.lastSlot = slot;
    if (last >= 0 && nanos === this.lastNanos && sec === this.lastSec) {
      this.nextOf[last] = slot;
      return slot;
    }
    this.lastSec = sec;
    this.lastNanos = nanos;
    if (this.positions === this.keys.length) {
      this.keys = growF64(this.keys, this.positions * 2);
      this.slotAt = growI32(this.slotAt, this.positions * 2);
    }
    const keys = this.keys;
    const slotAt = this.slotAt;
    const key = (sec - this.baseSec) * 1073741824 + nanos; // × 2^30
    // Sift up. A parent with an equal key at the same nanos was pushed earlier: it stays first.
    let i = this.positions++;
    while (i > 0) {
      const parent = (i - 1) >> 2; // ((i - 1) / 4) | 0, i > 0
      const parentKey = keys[parent]!;
      if (parentKey < key || (parentKey === key && this.nanosOf[slotAt[parent]!]! <= nanos)) break;
      keys[i] = parentKey;
      slotAt[i] = slotAt[parent]!;
      i = parent;
    }
    keys[i] = key;
    slotAt[i] = slot;
    return slot;
  }

  /**
   * Removes the earliest event and frees its slot (only when `size > 0`). An event chained
   * behind it takes the top as it is. Otherwise the hole at the root sinks to a leaf along the
   * earliest child, then the last event fills it and rises the little it has to: it came from
   * the bottom, so it rarely goes far.
   */
  pop(): void {
    const keys = this.keys;
    const slotAt = this.slotAt;
    const top = slotAt[0]!;
    const follower = this.nextOf[top]!;
    this.freeSlot(top);
    this.size--;
    if (follower >= 0) {
      slotAt[0] = follower;
      return;
    }
    const n = --this.positions;
    if (n === 0) return;
    let i = 0;
    for (let first = 1; first < n; first = 4 * i + 1) {
      let best: number;
      if (first + 3 < n) {
        // Four children, picked without data-dependent branches (which of four random keys
        // is smallest is a coin toss the CPU mispredicts half the time). Equal keys need the
        // exact tie-break; those checks almost never fire, so they predict well.
        const k0 = keys[first]!;
        const k1 = keys[first + 1]!;
        const k2 = keys[first + 2]!;
        const k3 = keys[first + 3]!;
        const a = first + Number(k1 < k0);
        const b = first + 2 + Number(k3 < k2);
        const ka = keys[a]!;
        const kb = keys[b]!;
        best = k0 === k1 || k2 === k3 || ka === kb ? this.earliestOf(first, first + 4) : kb < ka ? b : a;
      } else {
        best = this.earliestOf(first, n);
      }
      keys[i] = keys[best]!;
      slotAt[i] = slotAt[best]!;
      i = best;
    }
    const key = keys[n]!;
    const slot = slotAt[n]!;
    while (i > 0) {
      const parent = (i - 1) >> 2; // ((i - 1) / 4) | 0, i > 0
      const parentKey = keys[parent]!;
      if (parentKey < key || (parentKey === key && this.isTieBefore(slotAt[parent]!, slot))) break;
      keys[i] = parentKey;
      slotAt[i] = slotAt[parent]!;
      i = parent;
    }
    keys[i] = key;
    slotAt[i] = slot;
  }

  /** Position of the earliest event among positions [from, to). */
  private earliestOf(from: number, to: number): number {
    const keys = this.keys;
    let best = from;
    for (let c = from + 1; c < to; c++) {
      const k = keys[c]!;
      const bestKey = keys[best]!;
      if (k < bestKey || (k === bestKey && this.isTieBefore(this.slotAt[c]!, this.slotAt[best]!))) best = c;
    }
    return best;
  }

  /** Order of two events with equal keys: by nanos, then by seq. */
  private isTieBefore(a: number, b: number): boolean {
    const aNanos = this.nanosOf[a]!;
    const bNanos = this.nanosOf[b]!;
    return aNanos !== bNanos ? aNanos < bNanos : this.seqOf[a]! < this.seqOf[b]!;
  }

  private takeSlot(): number {
    if (this.freeSlots.length > 0) return this.freeSlots.pop()!;
    if (this.slotCount === this.seqOf.length) {
      this.nanosOf = growF64(this.nanosOf, this.slotCount * 2);
      this.nextOf = growI32(this.nextOf, this.slotCount * 2).fill(-1, this.slotCount);
      const seqOf = growF64(this.seqOf, this.slotCount * 2).fill(-1, this.slotCount);
      this.seqOf = seqOf;
    }
    return this.slotCount++;
  }

  private freeSlot(slot: number): void {
    if (slot === this.lastSlot) this.lastSlot = -1;
    this.nextOf[slot] = -1;
    this.seqOf[slot] = -1;
    this.freeSlots.push(slot);
  }
}

function growF64(a: Float64Array, capacity: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(capacity);
  b.set(a);
  return b;
}

function growI32(a: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(capacity);
  b.set(a);
  return b;
}
