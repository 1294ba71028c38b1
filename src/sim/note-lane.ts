import type { SimClock } from '../clock/sim-clock.ts';
import type { OwnOrderNote } from '../strategy/tick-feeds.ts';
import type { OrderEvent } from '../venue/order-events.ts';
import type { Venue } from '../venue/venue.ts';
import { InFlightRing } from './in-flight-ring.ts';
import { NoteRecord, writeNote } from './order-notes.ts';
import type { PortChannel } from './port-channel.ts';

/** How many notes one clock event of a `NoteLane` delivers (a reused record). */
class NoteGroup {
  notes = 0;
}

/**
 * An in-process port's order events on their way to its note handlers (`TickFeeds.onOwnOrder`):
 * each note is written from the venue's records when the event happens, draws its latency
 * sample down the port's response channel, and is delivered at its arrival — in one clock event
 * with the note before it when that is provably the same order of everything:
 *
 * the note before it is still pending in a clock event of this lane, arrives at the same instant
 * (the channel queued this one behind it: a sample that would overtake arrives right after), and
 * the clock took no event since that one was posted (its `upcomingSeq` is one past that event's
 * seq). The clock runs events in (time, insertion) order, so the note's own event would have had
 * the very next place after that event: nothing could run between the two, and whatever the
 * first note's handlers post runs after both, as it would have. So the handlers see the same
 * notes at the same times in the same order, and every later event keeps its place; only the
 * clock's count of events differs (one event per group of notes instead of one per note).
 *
 * Notes and groups are reused records (`InFlightRing`): no object per note.
 */
export class NoteLane {
  /** Notes in flight, in sending order (the channel is FIFO). */
  private readonly notes: InFlightRing<NoteRecord>;
  /** Clock events in flight, in posting order (the order they run in: times never decrease along the channel). */
  private readonly groups = new InFlightRing(() => new NoteGroup());
  /** The group posted last (pending while `groups.length > 0`), its event's seq and arrival. */
  private last: NoteGroup | undefined = undefined;
  private lastSeq = -1;
  private lastSec = Number.NaN;
  private lastNanos = Number.NaN;

  constructor(
    private readonly clock: SimClock,
    private readonly channel: PortChannel,
    private readonly venue: Venue,
    /** The port's note handlers (a live list: the port adds and removes them). */
    private readonly handlers: readonly ((note: OwnOrderNote) => void)[],
    /** Makes a note's wire id from its numbers (the port). */
    ids: ConstructorParameters<typeof NoteRecord>[0],
    /** Whether notes may share a clock event (false: one event per note, as before). */
    private readonly group: boolean,
  ) {
    this.notes = new InFlightRing(() => new NoteRecord(ids));
  }

  /** Sends the note of `e` down the channel. */
  send(e: OrderEvent): void {
    writeNote(this.notes.push(), e, this.venue);
    const { clock, channel } = this;
    const seq = clock.upcomingSeq;
    const delayNs = channel.delayNs(clock.nowSec, clock.nowNanos);
    if (this.group && this.groups.length > 0 && seq === this.lastSeq + 1 && channel.lastSec === this.lastSec && channel.lastNanos === this.lastNanos) {
      this.last!.notes++;
      return;
    }
    const group = this.groups.push();
    group.notes = 1;
    this.last = group;
    this.lastSeq = seq;
    this.lastSec = channel.lastSec;
    this.lastNanos = channel.lastNanos;
    clock.postIn(delayNs, this.deliver);
  }

  /** The oldest group's notes, each to every handler, in sending order. */
  private readonly deliver = (): void => {
    const group = this.groups.peek();
    const n = group.notes;
    this.groups.drop(); // before the handlers: a note sent from one of them starts a group of its own
    for (let i = 0; i < n; i++) {
      const note = this.notes.peek();
      for (const h of this.handlers) h(note);
      this.notes.drop();
    }
  };
}
