// BullMQ sandboxed processor of `perpsim worker`: runs in a worker thread BullMQ starts, so the
// CPU-bound backtest never blocks the worker's lock renewal. The thread does not inherit the
// tsx loader, so it registers its own before importing the TypeScript task (and the strategy).
import { register } from 'tsx/esm/api';
import { register as registerCjs } from 'tsx/cjs/api';

register();
registerCjs();
const { processRunJob } = await import('./queue-task.ts');
export default processRunJob;
