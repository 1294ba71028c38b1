import type { SimClock } from '../clock/sim-clock.ts';
import { InFlightRing } from './in-flight-ring.ts';
import type { PortChannel } from './port-channel.ts';

/** One request in flight: what runs at the venue, and its argument (a reused record). */
class Request {
  fn: ((arg: unknown) => void) | undefined = undefined;
  arg: unknown = undefined;
}

/** How many requests one clock event of a `RequestLane` runs (a reused record). */
class RequestGroup {
  requests = 0;
}

/**
 * An in-process port's one-way requests on their way to the venue (`OneWayPort`: the agents'
 * inserts, cancels and book glances). Each draws its latency sample down the port's request
 * channel and runs at its arrival — in one clock event with the request before it when that is
 * provably the same order of everything, by the rule `NoteLane` states: the request before it is
 * still pending in a clock event of this lane, arrives at the same instant (the channel queued
 * this one behind it), and the clock took no insertion since that event was posted, so this
 * request's own event would have run right after that one. A market maker's requote sends its
 * cancels and inserts back to back, and most of them meet that rule.
 */
export class RequestLane {
  private readonly requests = new InFlightRing(() => new Request());
  private readonly groups = new InFlightRing(() => new RequestGroup());
  private last: RequestGroup | undefined = undefined;
  private lastSeq = -1;
  private lastSec = Number.NaN;
  private lastNanos = Number.NaN;

  constructor(
    private readonly clock: SimClock,
    private readonly channel: PortChannel,
    /** Whether requests may share a clock event (false: one event per request). */
    private readonly group: boolean,
  ) {}

  /** Sends `fn(arg)` down the channel. */
  post<T>(fn: (arg: T) => void, arg: T): void {
    const r = this.requests.push();
    r.fn = fn as (arg: unknown) => void;
    r.arg = arg;
    const { clock, channel } = this;
    const seq = clock.upcomingSeq;
    const delayNs = channel.delayNs(clock.nowSec, clock.nowNanos);
    if (this.group && this.groups.length > 0 && seq === this.lastSeq + 1 && channel.lastSec === this.lastSec && channel.lastNanos === this.lastNanos) {
      this.last!.requests++;
      return;
    }
    const group = this.groups.push();
    group.requests = 1;
    this.last = group;
    this.lastSeq = seq;
    this.lastSec = channel.lastSec;
    this.lastNanos = channel.lastNanos;
    clock.postIn(delayNs, this.run);
  }

  /** The oldest group's requests, in sending order. */
  private readonly run = (): void => {
    const group = this.groups.peek();
    const n = group.requests;
    this.groups.drop(); // before any runs: a request sent while they run starts a group of its own
    for (let i = 0; i < n; i++) {
      const r = this.requests.peek();
      const { fn, arg } = r;
      r.fn = undefined;
      r.arg = undefined; // keep nothing alive
      this.requests.drop(); // before it runs: it may send more
      fn!(arg);
    }
  };
}
