import type { RecordBatch } from 'apache-arrow';
import type { IdHoles } from '../sim/event-log/id-holes.ts';
import { BatchPacker, packSchema } from './batch-transfer.ts';
import { ThreadedEventLogWriter } from './threaded-writer.ts';
import type { ToWriter } from './writer-protocol.ts';

/**
 * A `ThreadedEventLogWriter` that also takes record batches built in-process (`write`): it
 * copies the batch's buffers and hands the copies over, so the caller may reuse its arrays at
 * once (the recorder's `reuseBuffers`). Use either `write` or `writeRows` on one writer.
 */
export class ThreadedBatchWriter extends ThreadedEventLogWriter {
  private readonly packer = new BatchPacker();

  /**
   * Hands one batch to the thread (after its schema, the first time). `orderIdHoles`: the
   * `order_id` bytes a recorder with `deferIds` left for the thread to write.
   */
  write(batch: RecordBatch, orderIdHoles?: IdHoles): void {
    this.waitForRoom();
    const transfer: ArrayBuffer[] = [];
    const message: ToWriter = { kind: 'batch', schema: this.schemaSent ? undefined : packSchema(batch.schema), batch: this.packer.pack(batch, transfer, orderIdHoles && { column: 'order_id', holes: orderIdHoles }) };
    this.schemaSent = true;
    this.post(message, transfer);
  }
}
