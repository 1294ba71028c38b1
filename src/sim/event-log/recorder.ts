import type { Venue } from '../../venue/venue.ts';
import { RowBuilder } from './row-builder.ts';
import type { RowTape } from './row-tape.ts';
import { TapeRecorder } from './tape-recorder.ts';
import type { EventLogRecorderOptions } from './recorder-options.ts';

export { DEFAULT_BATCH_ROWS, type EventLogRecorderOptions } from './recorder-options.ts';

/**
 * Records everything a venue announces as rows of the event log (see `schema.ts`), handing over
 * a record batch every `batchRows` rows (`onBatch`), or the batch's rows as numbers for a writer
 * thread to build it (`onRows`: see `row-tape.ts`). Either way the columns are built by a
 * `RowBuilder` from the same tape, so the bytes are the same.
 *
 * A `book` row is written only when what it shows (touch and top-five depth) changed, an
 * `index` row only when the index moved, and a `mark` row once per mark record. Use
 * `attachEventLog` (subscribe + `snapshot`) before running the clock, and call `flush()` at
 * the end. Nothing in the log depends on wall time. The rows are `TapeRecorder`'s; this adds
 * the in-process builder (and with it Apache Arrow).
 */
export class EventLogRecorder extends TapeRecorder {
  private readonly onBatch: EventLogRecorderOptions['onBatch'];
  private readonly deferIds: boolean;
  /** Builds the batches in-process (`onBatch`); made on first use. */
  private builder: RowBuilder | undefined;

  constructor(venue: Venue, options: EventLogRecorderOptions) {
    super(venue, options);
    this.onBatch = options.onBatch;
    this.deferIds = options.deferIds === true;
  }

  /** The Arrow schema every batch carries. */
  get schema() {
    return this.builderOf().cols.schema;
  }

  protected override buildBatch(tape: RowTape): void {
    const builder = this.builderOf();
    this.onBatch!(builder.build(tape, !this.deferIds), this.deferIds ? builder.cols.orderIdHoles : undefined);
    builder.done();
  }

  private builderOf(): RowBuilder {
    return (this.builder ??= new RowBuilder(this.setup));
  }
}

/** Creates a recorder for `venue`, subscribes it and writes the opening snapshot. */
export function attachEventLog(venue: Venue, options: EventLogRecorderOptions): EventLogRecorder {
  const recorder = new EventLogRecorder(venue, options);
  venue.subscribe(recorder);
  recorder.snapshot();
  return recorder;
}
