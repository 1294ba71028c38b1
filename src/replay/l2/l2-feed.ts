import { batchesOf, type L2Batch } from './l2-batch.ts';
import type { L2Event } from './l2-event.ts';

/**
 * Where a replay pulls its recorded events from, synchronously (the sim clock is), a batch at
 * a time: a recording already in memory (`arrayFeed`) or one streamed from its files by a
 * reader thread (`l2-stream.ts`).
 */
export interface L2Feed {
  /** The next batch in replay order, or undefined at the end. */
  next(): L2Batch | undefined;
  /** Stops reading (idempotent); `next()` then returns undefined. */
  close(): void;
}

/** Events already in memory as a feed. */
export function arrayFeed(events: readonly L2Event[]): L2Feed {
  let batches: Generator<L2Batch> | undefined = batchesOf(events);
  return {
    next: () => {
      const r = batches?.next();
      return r === undefined || r.done === true ? undefined : r.value;
    },
    close: () => {
      batches = undefined;
    },
  };
}
