import { readFileSync } from 'node:fs';

/**
 * CPU seconds one thread has used, from its `/proc` stat file (utime + stime, in USER_HZ = 100
 * ticks): by default the calling thread's (`/proc/thread-self/stat`: in a worker, the worker's
 * own); NaN where there is no /proc. `process.cpuUsage` counts every thread of the process.
 */
export function threadCpuS(statPath = '/proc/thread-self/stat'): number {
  try {
    const fields = readFileSync(statPath, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}
