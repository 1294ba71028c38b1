import type { LatencyModel } from '../../sim/latency.ts';
import type { L2Event } from './l2-event.ts';

/**
 * Market-data latency taken from the recording: the delay between the exchange time and the
 * recorder's receipt time of the event being replayed now. Recorder and exchange clocks are
 * not always in step (the Binance captures' recorder runs about 1.2 s behind): when any delay
 * of the recording is negative, every delay is shifted by the most negative one, which keeps
 * the recorded jitter and assumes the fastest message arrived instantly.
 */
export class RecordedFeedDelay implements LatencyModel {
  private currentNs = 0;
  private readonly offsetNs: bigint;

  constructor(events: readonly L2Event[]) {
    let min = 0n;
    for (const e of events) if (e.feedDelayNs < min) min = e.feedDelayNs;
    this.offsetNs = min;
  }

  /** The replayer is about to apply `e`: market data it causes is delayed by e's feed delay. */
  observe(e: L2Event): void {
    const d = e.feedDelayNs - this.offsetNs;
    this.currentNs = d > 0n ? Number(d) : 0;
  }

  sampleNs(): number {
    return this.currentNs;
  }
}
