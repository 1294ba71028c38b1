import { UnrecoverableError } from 'bullmq';
import { readFileSync } from 'node:fs';
import { executeRun, type RunOutcome } from './execute-run.ts';
import { sha256, sweepContext, type PlannedRun, type SweepSpec } from './plan.ts';

/** A BullMQ job of a sweep: one run, where to write it, and the strategy file's hash at planning. */
export interface RunJobData {
  spec: SweepSpec;
  strategySha256: string;
  run: PlannedRun;
  /** Absolute; shared by the sweep and every worker. */
  outDir: string;
}

/**
 * The sandboxed processor's work (in a worker thread of `perpsim worker`): runs the job's run
 * and returns its metrics. The context is cached per child, so data is read once per child.
 * A strategy file that changed since the sweep was planned fails the job without retries (its
 * results would not match the run id).
 */
export async function processRunJob(job: { data: RunJobData }): Promise<RunOutcome> {
  const { spec, strategySha256, run, outDir } = job.data;
  let bytes: Buffer;
  try {
    bytes = readFileSync(spec.strategyFile);
  } catch {
    throw new UnrecoverableError(`strategy file ${spec.strategyFile} is not readable on this worker (the sweep's paths must be shared)`);
  }
  if (sha256(bytes) !== strategySha256) throw new UnrecoverableError(`strategy file ${spec.strategyFile} changed since the sweep was planned`);
  return executeRun(await sweepContext(spec), run, outDir);
}
