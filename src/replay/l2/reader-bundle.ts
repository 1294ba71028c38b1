import { threadBundle, type BundleKind, type ThreadBundleOptions } from '../../sim-io/thread-bundle.ts';

/** The replay's reader-thread bundles: their names and header, as before the cache was shared. */
export const READER: BundleKind = { prefix: 'perpsim-replay-reader-', mark: 'perpsim replay reader sources: ' };

/**
 * The replay's reader thread bundled to one JavaScript file (in a checkout, where the thread
 * is TypeScript), cached under the temp directory while its sources are unchanged: see
 * `threadBundle` (src/sim-io/thread-bundle.ts), which the event log's writer thread uses too.
 * Throws when esbuild cannot bundle it (the caller falls back to the TypeScript thread).
 */
export function readerBundle(thread: string, options: ThreadBundleOptions = {}): string {
  return threadBundle(READER, thread, options);
}
