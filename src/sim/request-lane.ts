import type { SimClock } from '../clock/sim-clock.ts';
import { InFlightRing } from './in-flight-ring.ts';
import type { PortChannel } from './port-channel.ts';
import { SameInstantGroups } from './same-instant-groups.ts';

/** One request in flight: what runs at the venue, and its argument (a reused record). */
class Request {
  fn: ((arg: unknown) => void) | undefined = undefined;
  arg: unknown = undefined;
}

/**
 * An in-process port's one-way requests on their way to the venue (`OneWayPort`: the agents'
 * inserts, cancels and book glances). Each draws its latency sample down the port's request
 * channel and runs at its arrival — in one clock event with the request before it when that is
 * provably the same order of everything (`SameInstantGroups`). A market maker's requote sends its
 * cancels and inserts back to back, and most of them meet that rule.
 */
export class RequestLane {
  private readonly requests = new InFlightRing(() => new Request());
  private readonly groups: SameInstantGroups;

  constructor(
    clock: SimClock,
    channel: PortChannel,
    /** Whether requests may share a clock event (false: one event per request). */
    group: boolean,
  ) {
    this.groups = new SameInstantGroups(clock, channel, group, this.run);
  }

  /** Sends `fn(arg)` down the channel. */
  post<T>(fn: (arg: T) => void, arg: T): void {
    const r = this.requests.push();
    r.fn = fn as (arg: unknown) => void;
    r.arg = arg;
    this.groups.add();
  }

  /** The oldest group's requests, in sending order. */
  private readonly run = (): void => {
    const n = this.groups.take();
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
