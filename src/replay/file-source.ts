import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { CHUNK_BYTES, openRecording, streamBytes, type ByteSource } from './byte-source.ts';
import { ReplayError } from './replay-error.ts';
import { listZipEntries, zipEntrySource } from './zip.ts';

/**
 * A file on disk as a `ByteSource`, by its first bytes (whatever its name): gzip is inflated on
 * the fly, a zip archive with a single file in it is read as that file (as the Binance and
 * Bybit public dumps come), anything else is read as is.
 */
export function fileSource(path: string): ByteSource {
  return { name: path, open: () => readFileBytes(path) };
}

async function* readFileBytes(path: string): AsyncGenerator<Buffer> {
  const magic = await firstBytes(path);
  if (magic === 'zip') {
    const files = (await listZipEntries(path)).filter((e) => !e.name.endsWith('/'));
    if (files.length !== 1) {
      throw new ReplayError(path, undefined, undefined, `a zip of ${files.length} files: name the one to read (zipMemberSource)`);
    }
    yield* zipEntrySource(path, files[0]!).open();
    return;
  }
  const raw = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  yield* streamBytes(path, raw, magic === 'gzip' ? createGunzip({ chunkSize: CHUNK_BYTES }) : undefined);
}

/** One named member of a zip archive as a `ByteSource`. */
export async function zipMemberSource(path: string, member: string): Promise<ByteSource> {
  const entry = (await listZipEntries(path)).find((e) => e.name === member);
  if (entry === undefined) throw new ReplayError(path, undefined, undefined, `no member ${JSON.stringify(member)} in the archive`);
  return zipEntrySource(path, entry);
}

async function firstBytes(path: string): Promise<'gzip' | 'zip' | 'plain'> {
  const head = await fileHead(path, 4);
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head.length === 4 && head.readUInt32LE(0) === 0x04034b50) return 'zip';
  return 'plain';
}

/** The first `length` bytes of a file (fewer when it is shorter), to tell its format. */
export async function fileHead(path: string, length: number): Promise<Buffer> {
  const handle = await openRecording(path);
  try {
    const head = Buffer.alloc(length);
    const { bytesRead } = await handle.read(head, 0, length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
