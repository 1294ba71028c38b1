import { QueueUrlError } from '../sweep/redis-connection.ts';
import { startQueueWorker } from '../sweep/queue-worker.ts';
import { DEFAULT_QUEUE_NAME } from './sweep-command.ts';
import { UsageError } from './usage-error.ts';

/**
 * `perpsim worker --queue URL [--queue-name NAME] [--concurrency N] [--lock-duration D]`:
 * takes sweep runs from the BullMQ queue until Ctrl-C / SIGTERM (then finishes the runs in
 * hand and exits 0). One line per run started, done or failed on stdout.
 */
export async function workerCommand(options: { queue: string; queueName?: string; concurrency?: number; lockDurationNs?: bigint }): Promise<number> {
  const url = options.queue;
  const concurrency = options.concurrency ?? 1;
  if (concurrency < 1) throw new UsageError('--concurrency must be at least 1');
  const lockNs = options.lockDurationNs ?? 30_000_000_000n;
  if (lockNs < 1_000_000_000n) throw new UsageError('--lock-duration must be at least 1s');
  const queueName = options.queueName ?? DEFAULT_QUEUE_NAME;
  const log = (line: string) => process.stdout.write(`${line}\n`);
  let worker: Awaited<ReturnType<typeof startQueueWorker>>;
  try {
    worker = await startQueueWorker({ url, queueName, concurrency, lockDurationMs: Number(lockNs / 1_000_000n), log });
  } catch (e) {
    if (e instanceof QueueUrlError) throw new UsageError(e.message);
    throw e;
  }
  log(`perpsim worker: queue ${queueName} on ${url}, ${concurrency} at a time (pid ${process.pid})`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      log('perpsim worker: stopping after the runs in hand');
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await worker.close();
  return 0;
}
