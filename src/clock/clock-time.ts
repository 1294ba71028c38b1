import type { TimeNs } from '../core/types.ts';
import { nsOf, secondsOf } from './exact-delay.ts';

/**
 * What a `SimClock` tells about where it is: the current instant (Unix seconds and nanoseconds
 * within the second, the clock's exact form) and its counts of events (insertion seqs issued,
 * the one running, those pending). `SimClock` moves them; its readers read them here.
 */
export class ClockTime {
  // Initialized here: a field declared without a value starts undefined and V8 keeps it tagged, so
  // every store of a second past 2^30 (any date after 2004) boxed a number and ran a write barrier.
  protected sec = 0;
  protected nanos = 0;
  protected nextSeq = 0;
  /** Insertion seq of the event running now (or that ran last); -1 before the first. */
  protected ranSeq = -1;
  /** Events scheduled and not yet run or canceled. */
  protected live = 0;
  /** The latest place held by `holdPlace` (-1: none yet). */
  protected heldSeq = -1;

  /** Current time in exact nanoseconds since the epoch. */
  get nowNs(): TimeNs {
    return nsOf(this.sec, this.nanos);
  }

  /** Now in seconds as a double: exactly `Number(nowNs) / 1e9` (`secondsOf`), without a bigint. */
  get nowSeconds(): number {
    return secondsOf(this.sec, this.nanos);
  }

  /** Unix seconds part of now (the feeds' `ts`). */
  get nowSec(): number {
    return this.sec;
  }

  /** Nanoseconds within the current second (the feeds' `tn`). */
  get nowNanos(): number {
    return this.nanos;
  }

  /**
   * Insertion seq the next scheduled event will take. Read-only ordering facts for observers
   * that replace a clock event with a lookup (the backtest's markouts): an event that would be
   * scheduled now at time T runs after every event at T with a smaller seq and before those with
   * a seq at least this one.
   */
  get upcomingSeq(): number {
    return this.nextSeq;
  }

  /**
   * `upcomingSeq`, for an observer that keeps a place in the clock's order without scheduling
   * an event there (the backtest's markout reads): noted, so that what would merge two events
   * into one (`SameInstantGroups`) knows a place was taken between them.
   */
  holdPlace(): number {
    this.heldSeq = this.nextSeq;
    return this.nextSeq;
  }

  /** The latest place held by `holdPlace` (-1: none). */
  get lastHeldSeq(): number {
    return this.heldSeq;
  }

  /** Insertion seq of the event running now (the last one run between events); -1 before any. */
  get runningSeq(): number {
    return this.ranSeq;
  }

  /** Number of scheduled events not yet run or canceled. */
  get pending(): number {
    return this.live;
  }
}
