import { executeRun, type RunOutcome } from './execute-run.ts';
import { sweepContext, type PlannedRun, type SweepSpec } from './plan.ts';

/** One task of the local pool: a run of a sweep. */
export interface PoolTask {
  spec: SweepSpec;
  run: PlannedRun;
  outDir: string;
}

/** Runs a task in a pool thread; the context (strategy, scenario, recordings) is loaded once per thread. */
export async function runPoolTask(task: PoolTask): Promise<RunOutcome> {
  return executeRun(await sweepContext(task.spec), task.run, task.outDir);
}
