import type { LatencyModel } from '../../sim/latency.ts';
import type { L2Event } from './l2-event.ts';

/**
 * Market-data latency taken from the recording: the delay between the exchange time and the
 * recorder's receipt time of the event being replayed now. Recorder and exchange clocks are
 * not always in step (the Binance captures' recorder runs about 1.2 s behind): when any delay
 * of the recording is negative, every delay is shifted by the most negative one, which keeps
 * the recorded jitter and assumes the fastest message arrived instantly.
 *
 * That shift needs the whole recording, which a streamed replay does not hold: it is asked of
 * `offsetNs` the first time a delay is sampled (a replay nobody listens to never asks), and
 * each replayed event only records its raw delay (`observe`, no arithmetic per event).
 */
export class RecordedFeedDelay implements LatencyModel {
  /** Undefined until the first event: market data sent before the replay starts is not delayed. */
  private currentNs: bigint | undefined;
  private offset: bigint | undefined;

  /** @param offsetNs the most negative delay of the recording (0 when none is negative), when first needed. */
  constructor(private readonly offsetNs: () => bigint) {}

  /** The delay of events already in memory. */
  static of(events: readonly L2Event[]): RecordedFeedDelay {
    return new RecordedFeedDelay(() => minFeedDelayNs(events));
  }

  /** The replayer is about to apply an event with this recorded delay: market data it causes is delayed by it. */
  observe(feedDelayNs: bigint): void {
    this.currentNs = feedDelayNs;
  }

  sampleNs(): number {
    if (this.currentNs === undefined) return 0;
    const d = this.currentNs - (this.offset ??= this.offsetNs());
    return d > 0n ? Number(d) : 0;
  }
}

/** The most negative feed delay of `events`, or 0. */
export function minFeedDelayNs(events: Iterable<L2Event>): bigint {
  let min = 0n;
  for (const e of events) if (e.feedDelayNs < min) min = e.feedDelayNs;
  return min;
}
