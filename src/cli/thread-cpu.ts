import { readFileSync } from 'node:fs';

/**
 * CPU seconds the main thread (the simulation's) has used, from `/proc/self/task/<pid>/stat`
 * (utime + stime, in USER_HZ = 100 ticks); NaN where there is no /proc. `process.cpuUsage`
 * counts every thread, the event log writer's included. On an idle machine with a core for
 * each thread, the simulation thread's CPU is a run's wall time.
 */
export function mainThreadCpuS(): number {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}
