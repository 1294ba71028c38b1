import { createRequire } from 'node:module';

/** The part of lz4-napi used here. */
export interface NativeLz4 {
  compressFrameSync(data: Uint8Array): Uint8Array;
  decompressFrameSync(data: Uint8Array): Uint8Array;
}

/** The native LZ4 binding, or why it cannot be used (the event log then falls back to lz4js: arrow-lz4.ts). */
export type NativeLz4Load = { native: NativeLz4; fallbackReason?: undefined } | { native?: undefined; fallbackReason: string };

/**
 * The binding from `load` (lz4-napi's module) once a first round trip gives the bytes back;
 * else the reason. Apart from arrow-lz4.ts so that `perpsim run`'s simulation thread can say
 * whether its log falls back (the warning it prints) without loading Apache Arrow and lz4js,
 * which only the writer thread uses.
 */
export function loadNativeLz4(load: () => NativeLz4): NativeLz4Load {
  try {
    const native = load();
    const probe = Uint8Array.of(1, 2, 3, 1, 2, 3, 1, 2, 3);
    const back = native.decompressFrameSync(native.compressFrameSync(probe));
    if (back.length !== probe.length || !back.every((b, i) => b === probe[i])) throw new Error('a round trip changed the bytes');
    return { native };
  } catch (e) {
    const reason = (e instanceof Error ? e.message : String(e)).split('\n', 1)[0]!;
    return { fallbackReason: `lz4-napi did not load (${reason})` };
  }
}

let processLoad: NativeLz4Load | undefined;

/**
 * This process's binding, loaded on first use. The thread bundles (thread-bundle.ts) keep
 * `import.meta.url` the source's, so the binding resolves from the checkout there too.
 */
export function processNativeLz4(): NativeLz4Load {
  return (processLoad ??= loadNativeLz4(() => createRequire(import.meta.url)('lz4-napi') as NativeLz4));
}

/** The line `perpsim run` prints when the fallback writes its event log. */
export function lz4FallbackWarning(reason: string): string {
  return `perpsim: warning: ${reason}: compressing the event log with lz4js, slower; the same columns, other compressed bytes`;
}
