import { Queue, type Job } from 'bullmq';
import { resolve } from 'node:path';
import type { RunOutcome } from './execute-run.ts';
import type { Executor } from './executor.ts';
import { sha256 } from './plan.ts';
import type { RunJobData } from './queue-task.ts';
import { checkReachable, redisConnection } from './redis-connection.ts';
import { RunStore } from './run-store.ts';

export interface QueueExecutorOptions {
  /** redis://HOST:PORT */
  url: string;
  queueName: string;
  /** Attempts after the first before a run is listed as failed. */
  retries: number;
  signal?: AbortSignal;
  /** How often job states are read (ms). */
  pollMs?: number;
  /** Told once when no worker has taken a job yet. */
  onWaiting?: () => void;
}

/**
 * The BullMQ executor: enqueues one job per run (job id = run id + a hash of the output
 * directory, so enqueuing again never duplicates a run) and follows the jobs until each has
 * completed or failed for good. `perpsim worker --queue URL` processes; they write the runs
 * to the shared output directory and return each run's metrics as the job's result.
 */
export function queueExecutor(options: QueueExecutorOptions): Executor {
  return async (plan, runs, outDir, events) => {
    const queue = new Queue<RunJobData, RunOutcome>(options.queueName, { connection: redisConnection(options.url) });
    try {
      await checkReachable(() => queue.getJobCounts('wait'), options.url);
      const absOut = resolve(outDir);
      const tag = sha256(absOut).slice(0, 10);
      const jobIds = new Map(runs.map((r) => [`${r.id}-${tag}`, r.id] as const));
      await queue.addBulk(
        runs.map((run) => ({
          name: 'run',
          data: { spec: plan.spec, strategySha256: plan.strategySha256, run, outDir: absOut },
          opts: { jobId: `${run.id}-${tag}`, attempts: options.retries + 1, backoff: { type: 'fixed', delay: 500 }, removeOnComplete: false, removeOnFail: false },
        })),
      );
      await requeueStale(queue, [...jobIds.keys()], new RunStore(outDir));
      await follow(queue, jobIds, events, options);
    } finally {
      await queue.close();
    }
  };
}

/**
 * Jobs of an earlier sweep into the same directory keep their ids: one that failed for good
 * is retried, one that completed but whose files are gone is enqueued afresh.
 */
async function requeueStale(queue: Queue<RunJobData, RunOutcome>, jobIds: string[], store: RunStore): Promise<void> {
  for (const id of jobIds) {
    const state = await queue.getJobState(id);
    if (state !== 'failed' && state !== 'completed') continue;
    const job = await queue.getJob(id);
    if (job === undefined) continue;
    if (state === 'failed') await job.retry('failed');
    else if (!store.has(job.data.run.id)) {
      await job.remove();
      await queue.add(job.name, job.data, { ...job.opts, jobId: id });
    }
  }
}

/** Polls the jobs' states until every one has completed or failed (or the signal aborts). */
async function follow(queue: Queue<RunJobData, RunOutcome>, jobIds: Map<string, string>, events: Parameters<Executor>[3], options: QueueExecutorOptions): Promise<void> {
  const pending = new Set(jobIds.keys());
  const announced = new Set<string>();
  let waitedMs = 0;
  let told = false;
  while (pending.size > 0 && options.signal?.aborted !== true) {
    const ids = [...pending];
    const states = await Promise.all(ids.map((id) => queue.getJobState(id)));
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const state = states[i]!;
      if ((state === 'active' || state === 'completed' || state === 'failed') && !announced.has(id)) {
        announced.add(id);
        events.started(jobIds.get(id)!);
      }
      if (state !== 'completed' && state !== 'failed') continue;
      const job: Job<RunJobData, RunOutcome> | undefined = await queue.getJob(id);
      pending.delete(id);
      if (state === 'completed' && job?.returnvalue != null) events.finished(job.returnvalue);
      else events.failed(jobIds.get(id)!, `${job?.failedReason ?? 'failed'} (after ${job?.attemptsMade ?? '?'} attempts)`);
    }
    if (announced.size === 0 && !told && (waitedMs += options.pollMs ?? 250) >= 3000) {
      told = true;
      options.onWaiting?.();
    }
    if (pending.size > 0) await new Promise((r) => setTimeout(r, options.pollMs ?? 250));
  }
}
