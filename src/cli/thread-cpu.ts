import { threadCpuS } from '../sim-io/thread-cpu.ts';

/**
 * CPU seconds the main thread (the simulation's) has used, from `/proc/self/task/<pid>/stat`;
 * NaN where there is no /proc. `process.cpuUsage` counts every thread, the event log writer's
 * included. On an idle machine with a core for each thread, the simulation thread's CPU is a
 * run's wall time.
 */
export function mainThreadCpuS(): number {
  return threadCpuS(`/proc/self/task/${process.pid}/stat`);
}
