import { closeSync, openSync, writevSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { AsyncByteQueue, Message, RecordBatchFileWriter, RecordBatchReader, type RecordBatch, type Schema } from 'apache-arrow';
import { readEventRecordsAsync, type EventRecord } from '../sim/event-log/reader.ts';
import { LZ4_FRAME } from './arrow-lz4.ts';

/**
 * The event log on disk: an Arrow IPC **file** (the random-access format, `ARROW1` magic and a
 * footer; what `.arrow` conventionally means), written batch by batch as the recorder hands
 * batches over, and read back batch by batch. Symbol, user and other dictionaries grow as
 * delta dictionary batches. Record batch bodies may be LZ4-compressed (Arrow's own body
 * compression, see `arrow-lz4.ts`; `perpsim run` writes its logs so). Bytes depend only on the
 * batches: no wall time.
 */

/** A file that is not a readable event log: the message names the file and the problem. */
export class EventLogError extends Error {}

/** Collects the writer's chunks and writes them to a file descriptor synchronously. */
class FileSink extends AsyncByteQueue {
  private pending: Uint8Array[] = [];
  bytesWritten = 0;

  constructor(private readonly fd: number) {
    super();
  }

  override write(value: ArrayBufferView | Uint8Array): void {
    const bytes = value instanceof Uint8Array ? value : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    if (bytes.byteLength > 0) this.pending.push(bytes);
  }

  /** Writes what the writer produced so far. */
  flush(): void {
    let chunks = this.pending;
    this.pending = [];
    while (chunks.length > 0) {
      const batch = chunks.slice(0, 1024); // writev takes a bounded number of buffers
      let written = writevSync(this.fd, batch);
      this.bytesWritten += written;
      // A short write leaves the rest of the chunks (and maybe part of one) to go.
      let i = 0;
      while (i < batch.length && written >= batch[i]!.byteLength) written -= batch[i++]!.byteLength;
      chunks = i < batch.length ? [batch[i]!.subarray(written), ...batch.slice(i + 1), ...chunks.slice(1024)] : chunks.slice(1024);
    }
  }

  override close(): void {
    this.flush();
    closeSync(this.fd);
    super.close();
  }
}

/**
 * Arrow's file writer, plus the schema message right after the leading magic, as the format
 * spec lays a file out (and pyarrow writes it; apache-arrow's JS writer leaves it to the
 * footer). Readers of the file format ignore it; but a file cut short before its footer is then
 * a readable Arrow stream after its first 8 bytes, up to its last complete batch.
 */
class StreamableFileWriter extends RecordBatchFileWriter {
  protected override _writeSchema(schema: Schema): this {
    return super._writeSchema(schema)._writeMessage(Message.from(schema));
  }

  /**
   * Arrow's body compression puts each compressed buffer behind an 8-byte little-endian prefix:
   * the buffer's **uncompressed** length (-1: stored uncompressed). apache-arrow 21's writer puts
   * the compressed length there (apache/arrow-js#470). Its own reader and ours look only for -1,
   * but pyarrow and the C++ readers size their output by the prefix and fail ("Lz4 decompression
   * buffer too small"). So every prefix the writer set is written again with the length of the
   * buffer it was given; a writer that already does so is left as it was.
   */
  protected override _compressBodyBuffers(buffers: ArrayBufferView[]): ReturnType<RecordBatchFileWriter['_compressBodyBuffers']> {
    const out = super._compressBodyBuffers(buffers);
    if (out.buffers.length !== 2 * buffers.length) throw new Error(`apache-arrow's compressed body has ${out.buffers.length} parts for ${buffers.length} buffers: not (prefix, data) pairs`);
    for (let i = 0; i < buffers.length; i++) {
      const prefix = out.buffers[2 * i]!;
      if (prefix.byteLength !== COMPRESS_LENGTH_PREFIX) continue; // an empty buffer: no prefix
      const view = new DataView(prefix.buffer, prefix.byteOffset, COMPRESS_LENGTH_PREFIX);
      if (view.getBigInt64(0, true) !== STORED_UNCOMPRESSED) view.setBigInt64(0, BigInt(buffers[i]!.byteLength), true);
    }
    return out;
  }
}

/** Bytes of the length prefix of a compressed body buffer (Arrow IPC format). */
const COMPRESS_LENGTH_PREFIX = 8;
/** The prefix of a buffer stored uncompressed (compressing did not make it smaller). */
const STORED_UNCOMPRESSED = -1n;

/**
 * Writes record batches of one schema to `path` as an Arrow IPC file, incrementally: each batch
 * goes to disk as it arrives. The first batch fixes the schema; write at least one.
 */
export class EventLogFileWriter {
  private readonly sink: FileSink;
  private readonly writer: StreamableFileWriter;
  private closed = false;

  /**
   * Creates (or truncates) `path`. `compression: 'lz4'` compresses every buffer of every record
   * batch (LZ4 frames): an event log's sparse columns are mostly zeros, so it shrinks ~4-5×.
   */
  constructor(
    readonly path: string,
    options: { compression?: 'lz4' | 'none' } = {},
  ) {
    this.writer = new StreamableFileWriter({ compressionType: options.compression === 'lz4' ? LZ4_FRAME : null });
    this.sink = new FileSink(openSync(path, 'w'));
    this.writer.reset(this.sink);
  }

  /** Appends one batch (and any new dictionary entries) to the file. */
  write(batch: RecordBatch): void {
    if (this.closed) throw new Error(`${this.path}: event log already closed`);
    this.writer.write(batch);
    this.sink.flush();
  }

  /** Writes the footer and closes the file. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.writer.close();
  }

  /** Bytes written so far. */
  get bytesWritten(): number {
    return this.sink.bytesWritten;
  }
}

/** An event log opened for reading: its schema metadata and its batches, read one at a time. */
export interface EventLogFile {
  readonly schema: Schema;
  /** `perpsim.*` schema metadata (scenario, seed, tick sizes, ...). */
  readonly metadata: ReadonlyMap<string, string>;
  batches(): AsyncIterable<RecordBatch>;
  records(): AsyncIterable<EventRecord>;
  close(): Promise<void>;
}

/** Opens an event log written by `EventLogFileWriter` (or any Arrow IPC file of that schema). */
export async function openEventLog(path: string): Promise<EventLogFile> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    throw new EventLogError(`${path}: cannot open (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    const reader = await RecordBatchReader.from(handle);
    await reader.open();
    if (!reader.isFile()) throw new EventLogError(`${path}: an Arrow stream, not an Arrow IPC file`);
    const schema = reader.schema;
    if (schema.metadata.get('perpsim.event_log') === undefined || schema.fields.every((f) => f.name !== 'ts_ns')) {
      throw new EventLogError(`${path}: an Arrow file, but not a perpsim event log`);
    }
    return {
      schema,
      metadata: schema.metadata,
      batches: () => reader,
      records: () => readEventRecordsAsync(reader),
      close: async () => {
        await reader.cancel();
        await handle.close().catch(() => undefined);
      },
    };
  } catch (e) {
    await handle.close().catch(() => undefined);
    if (e instanceof EventLogError) throw e;
    throw new EventLogError(`${path}: not an Arrow IPC file (${(e as Error).message.split('\n')[0]})`);
  }
}
