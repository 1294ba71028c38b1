import type { SimClock } from '../clock/sim-clock.ts';
import type { OwnOrderNote } from '../strategy/tick-feeds.ts';
import type { OrderEvent } from '../venue/order-events.ts';
import type { Venue } from '../venue/venue.ts';
import { InFlightRing } from './in-flight-ring.ts';
import { NoteRecord, writeNote } from './order-notes.ts';
import type { PortChannel } from './port-channel.ts';
import { SameInstantGroups } from './same-instant-groups.ts';

/**
 * An in-process port's order events on their way to its note handlers (`TickFeeds.onOwnOrder`):
 * each note is written from the venue's records when the event happens, draws its latency
 * sample down the port's response channel, and is delivered at its arrival — in one clock event
 * with the note before it when that is provably the same order of everything (`SameInstantGroups`):
 * the handlers see the same notes at the same times in the same order.
 *
 * Notes and groups are reused records (`InFlightRing`): no object per note.
 */
export class NoteLane {
  /** Notes in flight, in sending order (the channel is FIFO). */
  private readonly notes: InFlightRing<NoteRecord>;
  /** The clock events that deliver them. */
  private readonly groups: SameInstantGroups;

  constructor(
    clock: SimClock,
    channel: PortChannel,
    private readonly venue: Venue,
    /** The port's note handlers (a live list: the port adds and removes them). */
    private readonly handlers: readonly ((note: OwnOrderNote) => void)[],
    /** Makes a note's wire id from its numbers (the port). */
    ids: ConstructorParameters<typeof NoteRecord>[0],
    /** Whether notes may share a clock event (false: one event per note, as before). */
    group: boolean,
  ) {
    this.notes = new InFlightRing(() => new NoteRecord(ids));
    this.groups = new SameInstantGroups(clock, channel, group, this.deliver);
  }

  /** Sends the note of `e` down the channel. */
  send(e: OrderEvent): void {
    writeNote(this.notes.push(), e, this.venue);
    this.groups.add();
  }

  /** The oldest group's notes, each to every handler, in sending order. */
  private readonly deliver = (): void => {
    const n = this.groups.take();
    for (let i = 0; i < n; i++) {
      const note = this.notes.peek();
      for (const h of this.handlers) h(note);
      this.notes.drop();
    }
  };
}
