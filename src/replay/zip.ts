import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import * as zlib from 'node:zlib';
import { CHUNK_BYTES, openRecording, streamBytes, type ByteSource } from './byte-source.ts';
import { ReplayError } from './replay-error.ts';

/**
 * A minimal zip reader: the central directory, then each member streamed through
 * `zlib.createInflateRaw`, with its size and CRC-32 checked at the end. Stored (0) and
 * deflated (8) members; no zip64, no encryption — both are reported, not guessed at.
 */

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_MIN = 22;
const MAX_COMMENT = 0xffff;

/** One member of a zip archive, from its central-directory record. */
export interface ZipEntry {
  readonly name: string;
  /** 0 stored, 8 deflated. */
  readonly method: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly crc32: number;
  /** Offset of the member's local header in the archive. */
  readonly localHeaderOffset: number;
}

/** Lists the members of a zip archive (directories included, as names ending in `/`). */
export async function listZipEntries(path: string): Promise<ZipEntry[]> {
  const handle = await openRecording(path);
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, EOCD_MIN + MAX_COMMENT);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let eocd = -1;
    for (let i = tailLength - EOCD_MIN; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw new ReplayError(path, undefined, undefined, 'not a zip archive (no end-of-central-directory record)');
    const count = tail.readUInt16LE(eocd + 10);
    const directorySize = tail.readUInt32LE(eocd + 12);
    const directoryOffset = tail.readUInt32LE(eocd + 16);
    if (count === 0xffff || directoryOffset === 0xffffffff) {
      throw new ReplayError(path, undefined, undefined, 'zip64 archives are not supported');
    }
    const directory = Buffer.alloc(directorySize);
    await handle.read(directory, 0, directorySize, directoryOffset);
    return parseDirectory(path, directory, count);
  } finally {
    await handle.close();
  }
}

function parseDirectory(path: string, directory: Buffer, count: number): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL_SIGNATURE) {
      throw new ReplayError(path, undefined, undefined, `corrupt central directory at entry ${i + 1}`);
    }
    const flags = directory.readUInt16LE(at + 8);
    const nameLength = directory.readUInt16LE(at + 28);
    const name = directory.toString(flags & 0x800 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength);
    if (flags & 0x1) throw new ReplayError(path, undefined, undefined, `${name}: encrypted members are not supported`);
    entries.push({
      name,
      method: directory.readUInt16LE(at + 10),
      crc32: directory.readUInt32LE(at + 16),
      compressedSize: directory.readUInt32LE(at + 20),
      size: directory.readUInt32LE(at + 24),
      localHeaderOffset: directory.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
  }
  return entries;
}

/** A zip member as a `ByteSource` named `archive!member`. */
export function zipEntrySource(path: string, entry: ZipEntry): ByteSource {
  const name = `${path}!${entry.name}`;
  return { name, open: () => readEntry(path, entry, name) };
}

async function* readEntry(path: string, entry: ZipEntry, name: string): AsyncGenerator<Buffer> {
  if (entry.method !== 0 && entry.method !== 8) {
    throw new ReplayError(name, undefined, undefined, `compression method ${entry.method} is not supported (only stored and deflate)`);
  }
  const start = await dataOffset(path, entry, name);
  const check = new CheckedLength(name, entry);
  const bytes =
    entry.compressedSize === 0
      ? emptyBytes()
      : streamBytes(
          name,
          createReadStream(path, { start, end: start + entry.compressedSize - 1, highWaterMark: CHUNK_BYTES }),
          entry.method === 8 ? zlib.createInflateRaw({ chunkSize: CHUNK_BYTES }) : undefined,
        );
  for await (const chunk of bytes) {
    check.add(chunk);
    yield chunk;
  }
  check.finish();
}

async function* emptyBytes(): AsyncGenerator<Buffer> {}

/** Where a member's data starts: after its local header, whose name and extra lengths may differ from the central record's. */
async function dataOffset(path: string, entry: ZipEntry, name: string): Promise<number> {
  const handle = await open(path, 'r');
  try {
    const header = Buffer.alloc(30);
    await handle.read(header, 0, 30, entry.localHeaderOffset);
    if (header.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new ReplayError(name, undefined, undefined, 'corrupt local header');
    return entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  } finally {
    await handle.close();
  }
}

// zlib.crc32 arrived in Node 20.15; on older 20.x only the size is checked.
const crc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** Counts bytes and folds the CRC-32 as they pass; `finish` compares both with the directory. */
class CheckedLength {
  private length = 0;
  private crc = 0;

  constructor(
    private readonly name: string,
    private readonly entry: ZipEntry,
  ) {}

  add(chunk: Buffer): void {
    this.length += chunk.length;
    if (crc32 !== undefined) this.crc = crc32(chunk, this.crc);
  }

  finish(): void {
    if (this.length !== this.entry.size || (crc32 !== undefined && this.crc >>> 0 !== this.entry.crc32)) {
      throw new ReplayError(
        this.name,
        undefined,
        undefined,
        `corrupt member: ${this.length} bytes with CRC-32 ${(this.crc >>> 0).toString(16)}, directory says ${this.entry.size} bytes with ${this.entry.crc32.toString(16)}`,
      );
    }
  }
}
