import { compressionRegistry, CompressionType } from 'apache-arrow';
import { compress, decompress } from 'lz4js';

/**
 * LZ4 (frame format) for Arrow IPC body compression, the codec event logs are written with.
 *
 * apache-arrow writes and reads compressed record batches but ships no codec: the application
 * registers one per compression type in `compressionRegistry` (process-wide). This module does
 * that for LZ4_FRAME on import, with lz4js (pure JavaScript, so nothing to build, and the same
 * input gives the same bytes on every machine). Every module that writes or reads event logs
 * imports it; pyarrow and the Arrow C++/Rust readers decode LZ4_FRAME natively. ZSTD, the other
 * type Arrow allows, has no pure-JavaScript compressor on the registry and Node 20's zlib has
 * none; LZ4 is the faster of the two anyway.
 */
compressionRegistry.set(CompressionType.LZ4_FRAME, {
  encode: (data: Uint8Array): Uint8Array => compress(data),
  decode: (data: Uint8Array): Uint8Array => decompress(data),
});

export const LZ4_FRAME = CompressionType.LZ4_FRAME;
