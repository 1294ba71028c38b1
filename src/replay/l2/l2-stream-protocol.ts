import type { L2Batch } from './l2-batch.ts';
import type { L2FileSpec } from './l2-sources.ts';
import type { L2TickerEvent } from './l2-event.ts';
import type { RecordingSpan } from './l2-span.ts';

/** What the reader thread is asked (`workerData`, plus the port it posts to). */
export interface StreamRequest {
  files: L2FileSpec[];
  skipBadRows: boolean;
  mode: 'events' | 'min-delay' | 'span';
  /** Int32 counters shared with the replay: `POSTED`, `TAKEN`. */
  ctl: SharedArrayBuffer;
}

/** What the reader thread posts. */
export type StreamMessage =
  | { kind: 'batch'; batch: L2Batch }
  | { kind: 'end' }
  | { kind: 'min-delay'; ns: bigint }
  | { kind: 'span'; span: RecordingSpan; indexTickers: L2TickerEvent[] | undefined }
  | { kind: 'error'; file: string | undefined; line: number | undefined; column: string | undefined; reason: string; code: string | undefined };

/** Messages posted so far (the replay waits on it). */
export const POSTED = 0;
/** Messages the replay has taken (the reader waits on it). */
export const TAKEN = 1;
/** Batches the reader may be ahead of the replay. */
export const AHEAD = 4;
