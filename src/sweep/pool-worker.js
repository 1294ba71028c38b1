// A worker thread of the local sweep pool (tinypool). Threads do not inherit the tsx loader
// the main thread registered (src/cli/bin.js), so each registers its own before importing the
// TypeScript task and, through it, the strategy file.
import { register } from 'tsx/esm/api';
import { register as registerCjs } from 'tsx/cjs/api';

register();
registerCjs();
const { runPoolTask } = await import('./pool-task.ts');
export default runPoolTask;
