import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MessageReader, type Message, type RecordBatch } from 'apache-arrow';
import { decompress as lz4jsDecompress } from 'lz4js';
import { afterAll, describe, expect, it } from 'vitest';
import { EventLogFileWriter } from '../../src/sim-io/event-log-file.ts';
import { defaultLog, scriptedLog, tempDirs, type Sink } from './log-fixtures.ts';

const { newDir, removeAll } = tempDirs('perpsim-prefix-');
afterAll(removeAll);

const MAGIC_BYTES = 8; // "ARROW1" and two bytes of padding

function writeLz4(log: (sink: Sink) => void): Buffer {
  const path = join(newDir(), 'events.arrow');
  const writer = new EventLogFileWriter(path, { compression: 'lz4' });
  log({ onBatch: (b: RecordBatch) => writer.write(b) });
  writer.close();
  return readFileSync(path);
}

interface BodyBuffer {
  /** The 8-byte little-endian prefix, as written. */
  prefix: bigint;
  /** What the rest of the buffer holds: its LZ4 frame decoded by lz4js, or itself when stored uncompressed. */
  contentBytes: number;
}

/**
 * Every body buffer of every record and dictionary batch of an event log, read by the format
 * (not by apache-arrow's reader, which looks only for -1): the file's messages from the schema
 * message our writer puts right after the magic, up to the end-of-stream marker.
 */
function bodyBuffers(file: Buffer): BodyBuffer[] {
  const reader = new MessageReader(file.subarray(MAGIC_BYTES));
  const out: BodyBuffer[] = [];
  for (let message: Message | null; (message = reader.readMessage()) !== null; ) {
    const body = reader.readMessageBody(message.bodyLength);
    const batch = message.isRecordBatch() ? message.header() : message.isDictionaryBatch() ? message.header().data : undefined;
    if (batch === undefined) continue;
    expect(batch.compression).not.toBeNull();
    for (const region of batch.buffers) {
      if (region.length === 0) continue;
      const bytes = body.subarray(region.offset, region.offset + region.length);
      const prefix = Buffer.from(bytes).readBigInt64LE(0);
      const rest = bytes.subarray(8);
      out.push({ prefix, contentBytes: prefix === -1n ? rest.byteLength : lz4jsDecompress(rest).byteLength });
    }
  }
  return out;
}

describe('the event log’s compressed buffers', () => {
  it('carry their uncompressed length in the 8-byte prefix, as the Arrow format says (pyarrow sizes its output by it)', { timeout: 60_000 }, () => {
    for (const log of [scriptedLog, defaultLog]) {
      const buffers = bodyBuffers(writeLz4(log));
      const compressed = buffers.filter((b) => b.prefix !== -1n);
      expect(compressed.length).toBeGreaterThan(5);
      expect(buffers.length).toBeGreaterThan(compressed.length); // some buffers do not shrink: stored with -1
      for (const b of compressed) expect(b.prefix).toBe(BigInt(b.contentBytes));
    }
  });
});
