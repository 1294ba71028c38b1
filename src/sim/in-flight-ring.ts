/**
 * The messages of one FIFO channel in flight (`PortChannel`: none overtakes another), kept as
 * reused mutable records instead of an object per message: the sender fills `push()`'s record,
 * the delivery reads `peek()` and then `drop()`s it. Records are made once and live as long as
 * the ring (a long run sends millions of messages through a few dozen records), so a receiver
 * must not keep one past its call.
 */
export class InFlightRing<T> {
  private items: T[];
  private head = 0;
  private count = 0;

  constructor(private readonly make: () => T) {
    this.items = [make(), make(), make(), make(), make(), make(), make(), make()];
  }

  /** Messages sent and not yet dropped. */
  get length(): number {
    return this.count;
  }

  /** The record of the next message sent: the sender sets every field. */
  push(): T {
    if (this.count === this.items.length) this.grow();
    const at = (this.head + this.count) & (this.items.length - 1);
    this.count++;
    return this.items[at]!;
  }

  /** The oldest message in flight (only when `length > 0`). */
  peek(): T {
    return this.items[this.head]!;
  }

  /** Done with the oldest message: its record is free for a later one. */
  drop(): void {
    this.head = (this.head + 1) & (this.items.length - 1);
    this.count--;
  }

  /** Twice the records, the ones in flight first, in order (the capacity stays a power of two). */
  private grow(): void {
    const old = this.items;
    const next: T[] = [];
    for (let i = 0; i < old.length; i++) next.push(old[(this.head + i) & (old.length - 1)]!);
    for (let i = 0; i < old.length; i++) next.push(this.make());
    this.items = next;
    this.head = 0;
  }
}
