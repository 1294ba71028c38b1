import type { RecordBatch } from 'apache-arrow';
import type { IdHoles } from './id-holes.ts';
import type { RowBuilderSetup } from './row-builder.ts';
import type { RowTapeData, SpareTape } from './row-tape.ts';

/** Rows per record batch unless told otherwise. */
export const DEFAULT_BATCH_ROWS = 65_536;

/** How an `EventLogRecorder` hands over its batches. */
export interface EventLogRecorderOptions {
  /**
   * Called with each full batch (and the last, partial one on `flush`), in order. With
   * `deferIds`, also with the batch's `order_id` holes, valid until it returns.
   */
  onBatch?(batch: RecordBatch, orderIdHoles?: IdHoles): void;
  /**
   * Instead of `onBatch`: called with each full batch's rows as numbers (and the last, partial
   * one on `flush`), in order, for a `RowBuilder` made with `setup` to build the batches (the
   * writer thread's). The tape is the callee's (its arrays may be transferred); it may return
   * the arrays of a tape it is done with, for the recorder to fill next.
   */
  onRows?(tape: RowTapeData, setup: RowBuilderSetup): SpareTape | undefined | void;
  /**
   * Leave the bytes of the order ids read from order events as holes (zeros) in the batch and
   * hand their numbers to `onBatch`, whose reader writes them (`fillIdHoles`): the writer
   * thread does, so the simulation's thread does not (default false: batches come complete).
   */
  deferIds?: boolean;
  /** Rows per batch (default 65,536): bounds the memory the log holds. */
  batchRows?: number;
  /**
   * Reuse the column arrays for the next batch (default false). Much lighter on the garbage
   * collector, but a batch is only valid until `onBatch` returns: set it when `onBatch`
   * consumes the batch at once, as `EventLogFileWriter.write` does.
   */
  reuseBuffers?: boolean;
  /** Extra schema metadata (`perpsim.*` keys are added); keep it deterministic. */
  metadata?: Record<string, string>;
}
