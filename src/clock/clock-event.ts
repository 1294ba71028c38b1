/** What the clock hands out and takes back: callbacks and handles of scheduled events. */

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

/** The handle `schedule*` returns: its time and seq, plus where the clock keeps its callback. */
export class ClockEvent implements ScheduledEvent {
  constructor(
    readonly sec: number,
    readonly nanos: number,
    readonly seq: number,
    /** Index into the clock's callback arrays while the event is pending; `-1 - position` in the now-queue. */
    readonly slot: number,
  ) {}
}
