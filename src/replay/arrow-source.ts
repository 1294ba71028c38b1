import { createReadStream } from 'node:fs';
import { RecordBatchReader, type RecordBatch, type Schema } from 'apache-arrow';
import { openRecording } from './byte-source.ts';
import { ChunkedStream } from './chunked-stream.ts';
import { EventLogBatchDecoder, eventLogInstruments } from './event-log-market.ts';
import { instrumentsOf, MarketBatchDecoder } from './market-arrow.ts';
import { batchRecords, type MarketBatch, type MarketRecord, type SymbolUnits } from './market-records.ts';
import { ReplayError } from './replay-error.ts';

/**
 * Arrow IPC files as a replay source of normalized market records, read a record batch at a
 * time (memory stays at one batch whatever the file size):
 * - normalized market-records files (`perpsim convert --to arrow`, `perpsim record`);
 * - perpsim's event log (`perpsim run`'s events.arrow), mapped as `event-log-market.ts` says.
 *
 * A file without its footer (a recording cut short by a crash) is read as the Arrow stream it
 * is after the file magic, up to its last complete batch.
 */

/** What an Arrow replay file is. */
export interface ArrowReplayInfo {
  format: 'market-records' | 'event-log';
  instruments: Record<string, SymbolUnits>;
  /** Where the records came from (`perpsim.source`; `perpsim run` for an event log). */
  source: string;
  /** False when the file has no footer (cut short); it is read up to its last complete batch. */
  complete: boolean;
  schema: Schema;
}

const MAGIC = 'ARROW1';

/** An Arrow replay file; every `batches()` / `records()` pass reads it anew. */
export class ArrowReplaySource {
  private cached: ArrowReplayInfo | undefined;

  constructor(readonly path: string) {}

  /** Format, units and completeness (reads the schema). */
  async info(): Promise<ArrowReplayInfo> {
    if (this.cached !== undefined) return this.cached;
    const pass = await this.open();
    await pass.close();
    return pass.info;
  }

  /** The records a batch at a time, as columns (the fast path: no object per row). */
  async *batches(): AsyncGenerator<MarketBatch> {
    const { info, reader, close } = await this.open();
    const decoder = info.format === 'event-log' ? new EventLogBatchDecoder(this.path, info.instruments) : new MarketBatchDecoder(this.path);
    try {
      const iterator = reader[Symbol.asyncIterator]();
      for (;;) {
        let next: IteratorResult<RecordBatch>;
        try {
          next = await iterator.next();
        } catch (e) {
          if (!info.complete) return; // a footer-less file ends where its last complete batch ends
          throw new ReplayError(this.path, undefined, undefined, `corrupt Arrow data (${(e as Error).message.split('\n')[0]})`);
        }
        if (next.done === true) return;
        yield decoder.decode(next.value);
      }
    } finally {
      await close();
    }
  }

  /** The records as objects, a batch's worth at a time. */
  records(): ChunkedStream<MarketRecord> {
    const batches = () => this.batches();
    return new ChunkedStream(async function* () {
      for await (const b of batches()) yield batchRecords(b);
    });
  }

  private async open(): Promise<{ info: ArrowReplayInfo; reader: AsyncIterable<RecordBatch>; close: () => Promise<void> }> {
    const handle = await openRecording(this.path);
    let reader: RecordBatchReader | undefined;
    const close = async (): Promise<void> => {
      await Promise.resolve(reader?.cancel()).catch(() => undefined);
      await handle.close().catch(() => undefined);
    };
    try {
      const { size } = await handle.stat();
      const head = Buffer.alloc(8);
      const tail = Buffer.alloc(6);
      await handle.read(head, 0, 8, 0);
      if (size >= 14) await handle.read(tail, 0, 6, size - 6);
      if (head.toString('latin1', 0, 6) !== MAGIC) throw new ReplayError(this.path, undefined, undefined, 'not an Arrow IPC file (no ARROW1 magic)');
      const complete = size >= 14 && tail.toString('latin1') === MAGIC;
      reader = complete
        ? await RecordBatchReader.from(handle)
        : await RecordBatchReader.from(createReadStream(this.path, { start: 8, highWaterMark: 1 << 20 }) as unknown as AsyncIterable<Uint8Array>);
      await reader.open();
      const schema = reader.schema;
      if (schema === undefined) throw new ReplayError(this.path, undefined, undefined, 'an Arrow file cut short before its schema');
      const info = this.describe(schema, complete);
      this.cached = info;
      return { info, reader: reader as AsyncIterable<RecordBatch>, close };
    } catch (e) {
      await close();
      if (e instanceof ReplayError) throw e;
      throw new ReplayError(this.path, undefined, undefined, `not a readable Arrow IPC file (${(e as Error).message.split('\n')[0]})`);
    }
  }

  private describe(schema: Schema, complete: boolean): ArrowReplayInfo {
    const m = schema.metadata;
    if (m.get('perpsim.market_records') !== undefined) {
      return { format: 'market-records', instruments: instrumentsOf(this.path, m), source: m.get('perpsim.source') ?? '', complete, schema };
    }
    if (m.get('perpsim.event_log') !== undefined) {
      return { format: 'event-log', instruments: eventLogInstruments(this.path, m), source: 'perpsim run', complete, schema };
    }
    throw new ReplayError(this.path, undefined, undefined, 'an Arrow file, but neither perpsim market records nor an event log');
  }
}
