// The writer thread of an event log (threaded-writer.ts). Threads do not inherit the tsx loader
// the main thread registered (src/cli/bin.js): in a checkout, where the thread is TypeScript,
// it registers its own first, as the replay's reader thread does. The built package (dist/,
// this import rewritten to .js by scripts/copy-assets.mjs) needs no loader.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';

try {
  // A path test, not a URL the package must ship: the .ts sibling exists only in a checkout.
  if (existsSync(fileURLToPath(import.meta.url).replace(/event-log-worker\.js$/, 'event-log-thread.ts'))) {
    const { register } = await import('tsx/esm/api');
    register();
  }
  await import('./event-log-thread.ts');
} catch (e) {
  // The main thread waits on the shared counters: tell it, or it would wait for ever.
  workerData.port.postMessage({ kind: 'error', message: `event log writer thread: ${e instanceof Error ? e.message : String(e)}` });
  const ctl = new Int32Array(workerData.ctl);
  Atomics.store(ctl, 1, 1);
  Atomics.notify(ctl, 0);
  Atomics.notify(ctl, 2);
}
