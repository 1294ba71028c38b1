import { compressionRegistry, CompressionType } from 'apache-arrow';
import { compress as compressJs, decompress as decompressJs } from 'lz4js';
import { loadNativeLz4, processNativeLz4, type NativeLz4, type NativeLz4Load } from './lz4-native.ts';

/**
 * LZ4 (frame format) for Arrow IPC body compression, the codec event logs are written with.
 *
 * apache-arrow writes and reads compressed record batches but ships no codec: the application
 * registers one per compression type in `compressionRegistry` (process-wide). This module does
 * that for LZ4_FRAME on import. It compresses with lz4-napi (lz4_flex, a Rust LZ4, with prebuilt
 * binaries for every common platform): it compresses a day of `default` in half the CPU of lz4js
 * (pure JavaScript: ~5 s of the writer thread's), into 9 % fewer bytes. Both write standard LZ4
 * frames that every LZ4 frame decoder reads (lz4js, the `lz4` tool, pyarrow and the Arrow
 * C++/Rust readers); the same input gives the same bytes on every machine.
 *
 * When the native binding cannot load (a platform without a prebuilt binary), the codec falls
 * back to lz4js: the log decodes to the same columns, but its compressed bytes differ from the
 * native frames' (`lz4Codec.fallbackReason` says why; `perpsim run` prints it as a warning).
 * Decoding either codec's frames works with either codec.
 */

/** An LZ4 frame codec. */
export interface Lz4Codec {
  /** `lz4-napi` (native) or `lz4js` (the fallback). */
  readonly name: 'lz4-napi' | 'lz4js';
  /** `data` as one LZ4 frame. */
  encode(data: Uint8Array): Uint8Array;
  /** The bytes of the LZ4 frame `data`. */
  decode(data: Uint8Array): Uint8Array;
  /** Why the native codec did not load: set only on the fallback. */
  readonly fallbackReason?: string;
}

/** lz4js: pure JavaScript, slower; the fallback. */
export const LZ4JS_CODEC: Lz4Codec = { name: 'lz4js', encode: (data) => compressJs(data), decode: (data) => decompressJs(data) };

/**
 * The native codec from `load` (lz4-napi's module), or lz4js with the reason when loading or a
 * first round trip fails.
 */
export function chooseLz4Codec(load: () => NativeLz4): Lz4Codec {
  return codecOf(loadNativeLz4(load));
}

function codecOf(load: NativeLz4Load): Lz4Codec {
  const native = load.native;
  if (native === undefined) return { ...LZ4JS_CODEC, fallbackReason: load.fallbackReason };
  return {
    name: 'lz4-napi',
    encode: (data) => native.compressFrameSync(data),
    decode: (data) => aligned(native.decompressFrameSync(data)),
  };
}

/**
 * Arrow makes typed arrays over a decoded buffer, which needs its offset aligned to 8 bytes; a
 * native Buffer may be a slice of a shared pool at any offset.
 */
function aligned(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes);
}

/** The codec of this process (`processNativeLz4`'s binding, or lz4js). */
export const lz4Codec: Lz4Codec = codecOf(processNativeLz4());

compressionRegistry.set(CompressionType.LZ4_FRAME, { encode: lz4Codec.encode, decode: lz4Codec.decode });

export const LZ4_FRAME = CompressionType.LZ4_FRAME;
