import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compressionRegistry, RecordBatchReader, Table, tableToIPC, type RecordBatch } from 'apache-arrow';
import fc from 'fast-check';
import { compress as lz4jsCompress, decompress as lz4jsDecompress } from 'lz4js';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseLz4Codec, LZ4_FRAME, LZ4JS_CODEC, lz4Codec, type Lz4Codec } from '../../src/sim-io/arrow-lz4.ts';
import { lz4FallbackWarning, type NativeLz4 } from '../../src/sim-io/lz4-native.ts';
import { EventLogFileWriter } from '../../src/sim-io/event-log-file.ts';
import { defaultLog, scriptedLog, tempDirs, type Sink } from './log-fixtures.ts';

const { newDir, removeAll } = tempDirs('perpsim-lz4-');
afterAll(removeAll);

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The log `log` records, written in-process with `compression`, LZ4 frames made by `codec`. */
function writeWith(codec: Lz4Codec, compression: 'lz4' | 'none', log: (sink: Sink) => void): Buffer {
  const path = join(newDir(), 'events.arrow');
  compressionRegistry.set(LZ4_FRAME, codec);
  try {
    const writer = new EventLogFileWriter(path, { compression });
    log({ onBatch: (b: RecordBatch) => writer.write(b) });
    writer.close();
  } finally {
    compressionRegistry.set(LZ4_FRAME, lz4Codec);
  }
  return readFileSync(path);
}

/** Every batch of a file, decoded (with the dictionaries known at it) and written uncompressed: each one's sha256. */
function decodedBatches(file: Uint8Array): string[] {
  return [...RecordBatchReader.from(file)].map((batch) => sha256(tableToIPC(new Table(batch), 'stream')));
}

/** Arrays with long runs (what compresses) and noise, some empty, at odd offsets in a larger buffer. */
const bytesAtAnyOffset = fc
  .tuple(fc.array(fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 300 })), { maxLength: 60 }), fc.uint8Array({ maxLength: 2000 }), fc.nat(7))
  .map(([runs, noise, offset]) => {
    const body = [...runs.flatMap(([b, n]) => Array<number>(n).fill(b)), ...noise];
    return new Uint8Array([...Array<number>(offset).fill(9), ...body]).subarray(offset);
  });

describe('LZ4 frames of the event log', () => {
  it('come from the native codec here, in standard frames lz4js reads, and it reads lz4js frames; the same input gives the same frame', () => {
    expect(lz4Codec.name).toBe('lz4-napi');
    expect(lz4Codec.fallbackReason).toBeUndefined();
    fc.assert(
      fc.property(bytesAtAnyOffset, (data) => {
        const frame = lz4Codec.encode(data);
        expect([...frame.subarray(0, 4)]).toEqual([0x04, 0x22, 0x4d, 0x18]);
        expect(Buffer.from(lz4jsDecompress(frame)).equals(Buffer.from(data))).toBe(true);
        expect(Buffer.from(lz4Codec.decode(lz4jsCompress(data))).equals(Buffer.from(data))).toBe(true);
        expect(Buffer.from(lz4Codec.decode(frame)).equals(Buffer.from(data))).toBe(true);
        expect(Buffer.from(lz4Codec.encode(data.slice())).equals(Buffer.from(frame))).toBe(true);
      }),
      { numRuns: 200, seed: 13 },
    );
  });

  it('decode to the same batches as lz4js frames and as the uncompressed log: a scripted log with every rare row, and ten minutes of default', { timeout: 60_000 }, () => {
    for (const log of [scriptedLog, defaultLog]) {
      const plain = decodedBatches(writeWith(lz4Codec, 'none', log));
      const native = writeWith(lz4Codec, 'lz4', log);
      const js = writeWith(LZ4JS_CODEC, 'lz4', log);
      expect(native.equals(js)).toBe(false); // two compressors, two byte streams...
      expect(plain.length).toBeGreaterThan(2);
      expect(decodedBatches(native)).toEqual(plain); // ...one content, batch by batch
      expect(decodedBatches(js)).toEqual(plain);
    }
  });

  it('have pinned bytes: the native files now, and the lz4js files of the round before (a change of either compressor shows here; re-pinned when the length prefixes became the uncompressed lengths, compressed-prefix.test.ts)', { timeout: 60_000 }, () => {
    const hashes = (codec: Lz4Codec) => ({ scripted: sha256(writeWith(codec, 'lz4', scriptedLog)), default: sha256(writeWith(codec, 'lz4', defaultLog)) });
    expect({ native: hashes(lz4Codec), lz4js: hashes(LZ4JS_CODEC) }).toEqual({
      native: { scripted: '4538dcc570514adc32de74aba493a63b8de9df46606b0100058ae103d6509c62', default: 'a1c824967b7a3f2eb6a31f34503ce8898248f868eab552e940ecd95b31d4fc06' },
      lz4js: { scripted: 'a2416d39cd93440c97247d332d6e27c6b2f96a276778f16651f4e6d63175128a', default: 'a9e974b43d27d039eae8100b47ef2dc43df823af473e7f9ca2fd142f91642478' },
    });
  });
});

describe('without the native binding', () => {
  const missing = () => {
    throw new Error('Cannot find native binding. npm has a bug related to optional dependencies\n  more lines');
  };

  it('falls back to lz4js, saying why in one line, and the log it writes decodes to the same batches', { timeout: 60_000 }, () => {
    const codec = chooseLz4Codec(missing);
    expect(codec.name).toBe('lz4js');
    expect(codec.fallbackReason).toBe('lz4-napi did not load (Cannot find native binding. npm has a bug related to optional dependencies)');
    const warning = lz4FallbackWarning(codec.fallbackReason!);
    expect(warning).toMatch(/^perpsim: warning: lz4-napi did not load \(.*\): compressing the event log with lz4js/);
    expect(warning).not.toContain('\n');
    expect(decodedBatches(writeWith(codec, 'lz4', scriptedLog))).toEqual(decodedBatches(writeWith(lz4Codec, 'lz4', scriptedLog)));
  });

  it('falls back too when the binding loads but its first round trip changes the bytes', () => {
    const lying: NativeLz4 = { compressFrameSync: (d) => lz4jsCompress(d), decompressFrameSync: (d) => lz4jsDecompress(d).subarray(1) };
    const codec = chooseLz4Codec(() => lying);
    expect(codec.name).toBe('lz4js');
    expect(codec.fallbackReason).toBe('lz4-napi did not load (a round trip changed the bytes)');
  });
});
