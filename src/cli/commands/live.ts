import type { PerpsimCommand } from '../program.ts';
import type { LiveRequest } from '../live-command.ts';
import { durationOption, integerOption, textOption } from '../option-parsers.ts';

export function register(program: PerpsimCommand): void {
  program
    .command('live')
    .summary('run a strategy file against any server speaking the interface (perpsim serve or a live venue)')
    .description(
      'Runs a strategy file over the wire client against {base_url} (REST + websockets), renewing the token before it expires and reconnecting dropped sockets (resubscribing, reconciling open orders), until --duration or Ctrl-C; then cancels all its orders, calls onStop and writes the backtest report files to DIR.',
    )
    .argument('<strategy>', 'the strategy file (.ts or .js)')
    .requiredOption('--url <url>', "the exchange's {base_url}, e.g. http://127.0.0.1:8080 (required)", textOption('url'))
    .requiredOption('--user <u>', 'username (required)', textOption('user'))
    .option('--password <p>', 'password (or --api-key with --secret)', textOption('password'))
    .option('--api-key <k>', 'API key (with --secret)', textOption('api-key'))
    .option('--secret <s>', 'API secret (with --api-key)', textOption('secret'))
    .option('--params <json>', "the strategy's parameters as JSON (default: {})", textOption('params'))
    .option('--duration <d>', 'wall time to run, e.g. 1h (default: until Ctrl-C)', durationOption('duration'))
    .option('--sample-ms <ms>', 'wall ms between equity samples (default: 60000)', integerOption('sample-ms'))
    .option('--out <dir>', 'output directory (default: out/live-<strategy>)', textOption('out'))
    .action(async (strategyFile: string, opts: { url: string; user: string; password?: string; apiKey?: string; secret?: string; params?: string; duration?: bigint; sampleMs?: number; out?: string }) => {
      const { liveCommand } = await import('../live-command.ts');
      const request: LiveRequest = { strategyFile, url: opts.url, user: opts.user };
      if (opts.password !== undefined) request.password = opts.password;
      if (opts.apiKey !== undefined) request.apiKey = opts.apiKey;
      if (opts.secret !== undefined) request.secret = opts.secret;
      if (opts.params !== undefined) request.paramsJson = opts.params;
      if (opts.duration !== undefined) request.durationNs = opts.duration;
      if (opts.sampleMs !== undefined) request.sampleIntervalMs = opts.sampleMs;
      if (opts.out !== undefined) request.outDir = opts.out;
      return liveCommand(request);
    });
}
