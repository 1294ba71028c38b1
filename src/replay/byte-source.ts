import { open, type FileHandle } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import { ReplayError } from './replay-error.ts';

/** Bytes read (and inflated) per step: large enough that per-chunk costs vanish, small enough to stay flat. */
export const CHUNK_BYTES = 1 << 18;

/**
 * Where a reader's bytes come from: a plain or gzipped file, or a member of a zip archive.
 * `open()` starts a fresh pass; its chunks are the decompressed bytes in order.
 */
export interface ByteSource {
  /** For messages: the path, or `archive.zip!member.csv`. */
  readonly name: string;
  open(): AsyncIterable<Buffer>;
}

/**
 * Yields the chunks of `raw`, piped through `transform` (an inflater) when given; stream errors
 * become a `ReplayError` naming `name`. Breaking out of the loop closes both streams.
 */
export async function* streamBytes(name: string, raw: Readable, transform?: NodeJS.ReadWriteStream): AsyncGenerator<Buffer> {
  const stream: Readable = transform === undefined ? raw : (pipeline(raw, transform, () => {}) as unknown as Readable);
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (e) {
    throw asReplayError(name, e);
  } finally {
    raw.destroy();
    stream.destroy();
  }
}

/** Opens a recording for reading; one that cannot be opened is a `ReplayError` naming `path` (`asReplayError`). */
export async function openRecording(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (e) {
    throw asReplayError(path, e);
  }
}

/** An I/O or zlib failure as a `ReplayError` on `name` (a `ReplayError` passes through). */
export function asReplayError(name: string, e: unknown): ReplayError {
  if (e instanceof ReplayError) return e;
  const code = (e as { code?: unknown }).code;
  const message = e instanceof Error ? e.message : String(e);
  if (code === 'ENOENT') return new ReplayError(name, undefined, undefined, 'no such file');
  if (typeof code === 'string' && code.startsWith('Z_')) return new ReplayError(name, undefined, undefined, `corrupt compressed data (${message})`);
  return new ReplayError(name, undefined, undefined, message);
}
