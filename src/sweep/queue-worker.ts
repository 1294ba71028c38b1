import { Worker } from 'bullmq';
import { fileURLToPath } from 'node:url';
import type { RunOutcome } from './execute-run.ts';
import type { RunJobData } from './queue-task.ts';
import { checkReachable, redisConnection } from './redis-connection.ts';

export interface QueueWorkerOptions {
  url: string;
  queueName: string;
  /** Runs at once (each in its own worker thread). */
  concurrency: number;
  /** How long a job's lock lives without renewal: a dead worker's run is retried after about this long. */
  lockDurationMs: number;
  /** One line per event (started / done / failed). */
  log: (line: string) => void;
}

/**
 * A BullMQ worker for sweep runs with sandboxed processors (`queue-processor.js` in worker
 * threads): backtests are CPU-bound, and in the worker's own thread they would starve the
 * lock renewal, so jobs would stall and run twice. Threads rather than child processes, so
 * that a worker killed with SIGKILL takes its runs with it: a forked child outlived its
 * parent and went on computing an orphaned run for minutes (seen in the fault test).
 */
export async function startQueueWorker(options: QueueWorkerOptions): Promise<Worker<RunJobData, RunOutcome>> {
  const processor = fileURLToPath(new URL('./queue-processor.js', import.meta.url));
  const worker = new Worker<RunJobData, RunOutcome>(options.queueName, processor, {
    connection: redisConnection(options.url),
    concurrency: options.concurrency,
    lockDuration: options.lockDurationMs,
    stalledInterval: options.lockDurationMs,
    useWorkerThreads: true,
    autorun: false,
  });
  worker.on('active', (job) => options.log(`started ${job.data.run.id} (attempt ${job.attemptsMade + 1})`));
  worker.on('completed', (job) => options.log(`done ${job.data.run.id}`));
  worker.on('failed', (job, e) => options.log(`failed ${job?.data.run.id ?? '?'} (attempt ${job?.attemptsMade ?? '?'}): ${e.message.replace(/\s*\n\s*/g, ' ')}`));
  worker.on('error', (e) => options.log(`error: ${e.message.replace(/\s*\n\s*/g, ' ')}`));
  try {
    await checkReachable(() => worker.waitUntilReady(), options.url);
  } catch (e) {
    await worker.close(true);
    throw e;
  }
  void worker.run();
  return worker;
}
