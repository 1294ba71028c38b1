/**
 * The clock's events for the current instant, in insertion order: a FIFO ring beside the heap.
 *
 * Why it keeps the clock's order: an event lands here only when it is scheduled for the time
 * the clock is at. Anything already in the heap for that same time was pushed before the clock
 * reached it (once the clock is at an instant, every push for that instant comes here), so it
 * has a smaller seq than every entry here and runs first; the entries here run in the order they
 * were pushed, which is their seq order. The clock drains this queue before it moves on (all of
 * it is at the current time, the earliest possible), so it never holds an event of another time.
 * About one push in eight in a simulation is such a zero-delay message, and these skip the heap's
 * sift up and down entirely.
 *
 * Positions count up from 0 while the queue is not empty; the ring holds the window [head, tail).
 * A handle names its position and seq (unique for the clock's life), so a stale one never
 * matches a reused cell.
 */

import type { ClockCallback } from './clock-event.ts';

export class NowQueue {
  /** Position of the oldest entry (absolute). */
  head = 0;
  /** Position after the newest entry (absolute). */
  tail = 0;
  private mask = 63;
  private fns: (ClockCallback<any> | null)[] = new Array<ClockCallback<any> | null>(64).fill(null);
  private args: unknown[] = new Array<unknown>(64).fill(undefined);
  private seqs = new Float64Array(64).fill(-1);

  /** Number of entries (canceled ones included) not yet taken. */
  get size(): number {
    return this.tail - this.head;
  }

  /** Appends an event and returns its position. */
  push(seq: number, fn: ClockCallback<any>, arg: unknown): number {
    if (this.tail - this.head > this.mask) this.grow();
    const pos = this.tail++;
    const cell = pos & this.mask;
    this.fns[cell] = fn;
    this.args[cell] = arg;
    this.seqs[cell] = seq;
    return pos;
  }

  /** Callback of the oldest entry, null when it was canceled (only when `size > 0`). */
  headFn(): ClockCallback<any> | null {
    return this.fns[this.head & this.mask]!;
  }

  /** Argument of the oldest entry (only when `size > 0`). */
  headArg(): unknown {
    return this.args[this.head & this.mask];
  }

  /** Insertion seq of the oldest entry (only when `size > 0`). */
  headSeq(): number {
    return this.seqs[this.head & this.mask]!;
  }

  /** Drops the oldest entry (only when `size > 0`). */
  shift(): void {
    const cell = this.head++ & this.mask;
    this.fns[cell] = null;
    this.args[cell] = undefined;
    this.seqs[cell] = -1;
    // Empty: start counting again (positions stay small integers). A stale handle's position
    // may then fall in the window again, but its seq matches no later entry's.
    if (this.head === this.tail) this.head = this.tail = 0;
  }

  /** Clears the callback of the live entry at `pos` with this `seq`; false when there is none. */
  cancel(pos: number, seq: number): boolean {
    if (pos < this.head || pos >= this.tail) return false;
    const cell = pos & this.mask;
    if (this.seqs[cell] !== seq || this.fns[cell] === null) return false;
    this.fns[cell] = null;
    this.args[cell] = undefined;
    return true;
  }

  /** Doubles the ring, keeping every entry at its absolute position. */
  private grow(): void {
    const capacity = (this.mask + 1) * 2;
    const fns = new Array<ClockCallback<any> | null>(capacity).fill(null);
    const args = new Array<unknown>(capacity).fill(undefined);
    const seqs = new Float64Array(capacity).fill(-1);
    const mask = capacity - 1;
    for (let pos = this.head; pos < this.tail; pos++) {
      const from = pos & this.mask;
      const to = pos & mask;
      fns[to] = this.fns[from]!;
      args[to] = this.args[from];
      seqs[to] = this.seqs[from]!;
    }
    this.fns = fns;
    this.args = args;
    this.seqs = seqs;
    this.mask = mask;
  }
}
