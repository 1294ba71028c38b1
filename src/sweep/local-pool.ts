import Tinypool from 'tinypool';
import { oneLine } from '../backtest/strategy-module.ts';
import type { RunOutcome } from './execute-run.ts';
import type { Executor } from './executor.ts';
import type { PoolTask } from './pool-task.ts';

/**
 * The local executor: `workers` worker threads (tinypool), each loading the strategy and the
 * market data once and then running one run at a time. The sweep hands out runs itself (at
 * most `workers` in flight), so it knows which are running.
 */
export function localPool(workers: number, signal?: AbortSignal): Executor {
  return async (plan, runs, outDir, events) => {
    const pool = new Tinypool({
      filename: new URL('./pool-worker.js', import.meta.url).href,
      minThreads: workers,
      maxThreads: workers,
      idleTimeout: 60_000,
    });
    let next = 0;
    const aborted = (): boolean => signal?.aborted === true;
    const lane = async (): Promise<void> => {
      while (next < runs.length && !aborted()) {
        const run = runs[next++]!;
        events.started(run.id);
        const task: PoolTask = { spec: plan.spec, run, outDir };
        try {
          const runOptions = signal === undefined ? {} : { signal };
          events.finished((await pool.run(task, runOptions)) as RunOutcome);
        } catch (e) {
          if (aborted()) return;
          events.failed(run.id, oneLine(e));
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(workers, runs.length) }, lane));
    } finally {
      await pool.destroy();
    }
  };
}
