import type { MessagePort } from 'node:worker_threads';
import type { PackedBatch } from './batch-transfer.ts';
import type { RowBuilderSetup } from '../sim/event-log/row-builder.ts';
import type { RowTapeData } from '../sim/event-log/row-tape.ts';

/**
 * Between `ThreadedEventLogWriter` and its thread. The shared counters (`ctl`, Int32):
 * `QUEUED` messages posted and not yet handled by the thread, `FAILED` 1 once the thread
 * failed, `ANSWERED` replies posted by the thread (the main thread waits on it).
 */
export const QUEUED = 0;
export const FAILED = 1;
export const ANSWERED = 2;

/** Batches the main thread may have in flight before it waits (bounds the memory held). */
export const MAX_QUEUED = 4;

export interface WriterThreadData {
  /** The file to write (created or truncated). */
  path: string;
  compression: 'lz4' | 'none';
  /** Also measure the stylized facts of the batches (what `perpsim run` summarizes). */
  facts: boolean;
  ctl: SharedArrayBuffer;
  port: MessagePort;
  /** Where the thread hands back a tape's arrays once its batch is written (`SpareTape`). */
  spares: MessagePort;
}

/** `batch`: a batch built on the main thread; `rows`: a batch's rows as numbers, built on the thread (`setup` with the first). */
export type ToWriter =
  | { kind: 'batch'; schema: Uint8Array | undefined; batch: PackedBatch }
  | { kind: 'rows'; setup: RowBuilderSetup | undefined; tape: RowTapeData }
  | { kind: 'close' };

export type FromWriter =
  | { kind: 'closed'; bytesWritten: number; facts: unknown; cpuMs: number }
  | { kind: 'error'; message: string };
