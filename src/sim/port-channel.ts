import type { LatencyModel } from './latency.ts';
import type { NewOrder } from '../wire/order.ts';

// 10^9 written as a literal below: a module-level number is loaded and unboxed on every use (see sim-clock.ts).

/**
 * One direction of an in-process port's connection (requests, responses and feeds, market
 * data): the arrival time of its latest message, so a message never overtakes an earlier one,
 * as on a socket.
 */
export class PortChannel {
  private sec = 0;
  private nanos = 0;

  constructor(readonly latency: LatencyModel) {}

  /** Arrival time of the channel's latest message, seconds part (0 before any). */
  get lastSec(): number {
    return this.sec;
  }

  /** Arrival time of the channel's latest message, nanoseconds part. */
  get lastNanos(): number {
    return this.nanos;
  }

  /**
   * The delay in ns from now until a message sent now arrives: a latency sample (told the time
   * and the new order the message carries, if any), or right after the channel's last message
   * if that is later. Arrival as (sec, nanos) on plain numbers: this runs for every message.
   */
  delayNs(nowSec: number, nowNanos: number, order?: NewOrder): number {
    let sec = nowSec;
    let nanos = nowNanos + this.latency.sampleNs(nowSec, nowNanos, order);
    if (nanos >= 1_000_000_000) {
      const carry = Math.floor(nanos / 1_000_000_000);
      sec += carry;
      nanos -= carry * 1_000_000_000;
    }
    if (sec < this.sec || (sec === this.sec && nanos < this.nanos)) {
      sec = this.sec;
      nanos = this.nanos;
    }
    this.sec = sec;
    this.nanos = nanos;
    return (sec - nowSec) * 1_000_000_000 + (nanos - nowNanos);
  }
}
