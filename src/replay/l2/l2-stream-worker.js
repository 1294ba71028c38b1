// The reader thread of a streamed replay (l2-stream.ts). Threads do not inherit the tsx loader
// the main thread registered (src/cli/bin.js): in a checkout, where the reader is TypeScript,
// it registers its own first, as the sweep's pool worker does. The built package (dist/, this
// import rewritten to .js by scripts/copy-assets.mjs) needs no loader.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// A path test, not a URL the package must ship: the .ts sibling exists only in a checkout.
if (existsSync(fileURLToPath(import.meta.url).replace(/l2-stream-worker\.js$/, 'l2-stream-thread.ts'))) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import('./l2-stream-thread.ts');
