// The reader thread of a streamed replay (l2-stream.ts). Threads do not inherit the tsx loader
// the main thread registered (src/cli/bin.js), so it registers its own before importing the
// TypeScript reader, as the sweep's pool worker does.
import { register } from 'tsx/esm/api';

register();
await import('./l2-stream-thread.ts');
