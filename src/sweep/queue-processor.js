// BullMQ sandboxed processor of `perpsim worker`: runs in a child process BullMQ forks, so the
// CPU-bound backtest never blocks the worker's lock renewal. The child does not inherit the
// tsx loader, so it registers its own before importing the TypeScript task (and the strategy).
import { register } from 'tsx/esm/api';
import { register as registerCjs } from 'tsx/cjs/api';

register();
registerCjs();
// When the worker process dies (SIGKILL), the channel to it closes: stop, the job will be
// retried elsewhere once its lock expires.
process.on('disconnect', () => process.exit(1));
const { processRunJob } = await import('./queue-task.ts');
export default processRunJob;
