import type { SimClock } from '../clock/sim-clock.ts';
import { InFlightRing } from './in-flight-ring.ts';
import type { PortChannel } from './port-channel.ts';

/** How many messages one clock event delivers (a reused record). */
class Group {
  messages = 0;
}

/**
 * The clock events of one FIFO channel's messages, a message joining the event of the one
 * before it when that is provably the same order of everything (`NoteLane`, `RequestLane`):
 *
 * the message before it is still pending in a clock event of this channel, arrives at the same
 * instant (the channel queued this one behind it: a sample that would overtake arrives right
 * after), and no event pushed since that one was posted is at that instant (the clock took no
 * event since — its `upcomingSeq` is one past that event's seq —, or those it took are at other
 * instants: `SimClock.isLastAt`), and no observer held a place in the clock's order since (a
 * markout read, `holdPlace`: at that instant it would run between the two). The clock runs
 * events in (time, insertion) order, so the message's own event would have had the very next
 * place after that event at that instant:
 * nothing could run between the two, and whatever the first message's receiver posts runs after
 * both, as it would have. Only the clock's count of events differs (one event per group instead
 * of one per message), and with it the insertion numbers after it, in the same order.
 */
export class SameInstantGroups {
  /** Clock events in flight, in posting order (the order they run in: times never decrease along the channel). */
  private readonly groups = new InFlightRing(() => new Group());
  /** The group posted last (pending while `groups.length > 0`), its event's seq, place in the clock (`postIn`'s) and arrival. */
  private last: Group | undefined = undefined;
  private lastSeq = -1;
  private lastWhere = 0;
  private lastSec = Number.NaN;
  private lastNanos = Number.NaN;

  constructor(
    private readonly clock: SimClock,
    private readonly channel: PortChannel,
    /** Whether messages may share a clock event (false: one event per message). */
    private readonly group: boolean,
    /** The clock event's callback: it takes its group (`take`) and delivers that many messages. */
    private readonly deliver: () => void,
  ) {}

  /** A message was queued: draws its latency sample and joins the pending group or posts an event of its own. */
  add(): void {
    const { clock, channel } = this;
    const seq = clock.upcomingSeq;
    const delayNs = channel.delayNs(clock.nowSec, clock.nowNanos);
    if (this.group && this.groups.length > 0 && channel.lastSec === this.lastSec && channel.lastNanos === this.lastNanos && clock.lastHeldSeq <= this.lastSeq && (seq === this.lastSeq + 1 || clock.isLastAt(this.lastWhere, this.lastSec, this.lastNanos))) {
      this.last!.messages++;
      return;
    }
    const group = this.groups.push();
    group.messages = 1;
    this.last = group;
    this.lastSeq = seq;
    this.lastSec = channel.lastSec;
    this.lastNanos = channel.lastNanos;
    this.lastWhere = clock.postIn(delayNs, this.deliver);
  }

  /**
   * In the clock event: how many messages it delivers, oldest first. The group is gone before
   * they are delivered, so a message sent while they are starts a group of its own.
   */
  take(): number {
    const n = this.groups.peek().messages;
    this.groups.drop();
    return n;
  }
}
