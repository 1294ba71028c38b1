import { QueueUrlError } from '../sweep/redis-connection.ts';
import { startQueueWorker } from '../sweep/queue-worker.ts';
import { durationFlag, integerFlag, parseFlags, UsageError } from './flags.ts';
import { DEFAULT_QUEUE_NAME } from './sweep-command.ts';

const USAGE = 'usage: perpsim worker --queue redis://HOST:PORT [--queue-name NAME] [--concurrency N] [--lock-duration D]';

/**
 * `perpsim worker --queue URL [--queue-name NAME] [--concurrency N] [--lock-duration D]`:
 * takes sweep runs from the BullMQ queue until Ctrl-C / SIGTERM (then finishes the runs in
 * hand and exits 0). One line per run started, done or failed on stdout.
 */
export async function workerCommand(args: string[]): Promise<number> {
  const flags = parseFlags(args, ['queue', 'queue-name', 'concurrency', 'lock-duration']);
  const url = flags.get('queue');
  if (url === undefined) throw new UsageError(`--queue is required (${USAGE})`);
  const concurrency = integerFlag(flags, 'concurrency', 1);
  if (concurrency < 1) throw new UsageError('--concurrency must be at least 1');
  const lockNs = durationFlag(flags, 'lock-duration') ?? 30_000_000_000n;
  if (lockNs < 1_000_000_000n) throw new UsageError('--lock-duration must be at least 1s');
  const queueName = flags.get('queue-name') ?? DEFAULT_QUEUE_NAME;
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
