import type { PerpsimCommand } from '../program.ts';
import { durationOption, integerOption, textOption } from '../option-parsers.ts';

export function register(program: PerpsimCommand): void {
  program
    .command('worker')
    .summary('take sweep runs from a BullMQ queue (perpsim sweep --queue)')
    .description('Processes the runs "perpsim sweep --queue URL" enqueued, each in a sandboxed worker thread (which dies with the worker), writing them to the sweep directory (which must be shared). Runs until Ctrl-C or SIGTERM, then finishes the runs in hand. One line per run started, done or failed.')
    .requiredOption('--queue <url>', 'the Redis of the queue: redis://HOST:PORT (required)', textOption('queue'))
    .option('--queue-name <name>', 'BullMQ queue name (default: perpsim-sweep)', textOption('queue-name'))
    .option('--concurrency <n>', 'runs at once, each in its own worker thread (default: 1)', integerOption('concurrency'))
    .option('--lock-duration <d>', "how long a run's lock lives unrenewed: a dead worker's run is retried after about this long (default: 30s)", durationOption('lock-duration'))
    .action(async (opts: { queue: string; queueName?: string; concurrency?: number; lockDuration?: bigint }) => {
      const { workerCommand } = await import('../worker-command.ts');
      const options: Parameters<typeof workerCommand>[0] = { queue: opts.queue };
      if (opts.queueName !== undefined) options.queueName = opts.queueName;
      if (opts.concurrency !== undefined) options.concurrency = opts.concurrency;
      if (opts.lockDuration !== undefined) options.lockDurationNs = opts.lockDuration;
      return workerCommand(options);
    });
}
