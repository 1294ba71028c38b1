import type { PerpsimCommand } from '../program.ts';
import type { SweepRequest } from '../sweep-command.ts';
import { durationOption, integerOption, textOption } from '../option-parsers.ts';
import { UsageError } from '../usage-error.ts';
import { addReplayOptions, DEFAULT_SCENARIO, replayRequest, type ReplayOptionValues } from './scenario-options.ts';

/** The request's fields that flags fill as they are parsed (`durationNs` from --duration), in the order they are set. */
const FLAG_FIELDS = ['grid', 'paramsFile', 'seeds', 'durationNs', 'cash', 'workers', 'shard', 'queue', 'queueName', 'retries', 'rankBy', 'heatmap'] as const;

/** The options as commander hands them over: the request's own fields, and --scenario, --duration and --out. */
type SweepOptions = ReplayOptionValues & Pick<SweepRequest, Exclude<(typeof FLAG_FIELDS)[number], 'durationNs'>> & { scenario?: string; duration?: bigint; out?: string };

interface MergeOptions {
  out?: string;
  rankBy?: string;
  heatmap?: string;
}

export function register(program: PerpsimCommand): void {
  const sweep = program
    .command('sweep')
    .summary('backtest a strategy over params sets × seeds: local pool, shards or a BullMQ queue')
    .description(
      'Backtests a strategy file over every params set (--grid or --params-file) and seed, resumably: runs already in DIR/runs are skipped. Writes DIR/runs/<id>/report.json and fills.arrow, DIR/results.arrow and results.csv (one row per run, sorted by id, identical whatever the executor), DIR/sweep.html, and prints the params sets ranked by the mean over seeds. "perpsim sweep merge" joins shard outputs.',
    )
    .argument('<strategy>', 'the strategy file (.ts or .js)')
    .option('--grid <json>', 'params as a JSON object of value lists such as {"a":[1,2],"b":[3,4]}, every combination; this or --params-file (default: none)', textOption('grid'))
    .option('--params-file <file>', 'params sets, one JSON object per line; this or --grid (default: none)', textOption('params-file'))
    .option('--seeds <s>', 'seeds: 7, 1..10 or 1,5,9 (default: 1)', textOption('seeds'))
    .option('--scenario <name|file>', 'built-in scenario name or a scenario JSON file (default: default)', textOption('scenario'))
    .option('--duration <d>', "simulated time of each run such as 30m, 1h (default: the scenario's duration)", durationOption('duration'))
    .option('--cash <c>', "starting cash of the strategy's account (default: 1000000)", textOption('cash'))
    .option('--out <dir>', 'the sweep directory; rerun with the same one to resume (required)', textOption('out'))
    .option('--workers <n>', 'local pool: worker threads (default: the number of cores)', integerOption('workers'))
    .option('--shard <i/N>', 'run only shard i of N (0-based, by hash of the run id); auto/N reads JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX (default: all runs)', textOption('shard'))
    .option('--queue <url>', 'enqueue the runs on BullMQ at redis://HOST:PORT for perpsim worker processes (default: local pool)', textOption('queue'))
    .option('--queue-name <name>', 'BullMQ queue name (default: perpsim-sweep)', textOption('queue-name'))
    .option('--retries <n>', 'with --queue: attempts after the first before a run is listed as failed (default: 2)', integerOption('retries'))
    .option('--rank-by <metric>', 'metric of report.json to rank by, mean over seeds (default: net_pnl)', textOption('rank-by'))
    .option('--heatmap <a,b>', "two params for sweep.html's heatmap (default: the first two varied)", textOption('heatmap'));
  addReplayOptions(sweep).action(async (strategyFile: string, opts: SweepOptions) => {
    // Not a requiredOption: commander would then demand it of "sweep merge" too.
    if (opts.out === undefined) throw new UsageError('--out DIR is required (the sweep directory)');
    const { sweepCommand } = await import('../sweep-command.ts');
    const request: SweepRequest = { strategyFile, scenario: opts.scenario ?? DEFAULT_SCENARIO, outDir: opts.out };
    const replay = replayRequest(opts);
    if (replay !== undefined) request.replay = replay;
    for (const key of FLAG_FIELDS) {
      const value = key === 'durationNs' ? opts.duration : opts[key];
      if (value !== undefined) (request as unknown as Record<string, unknown>)[key] = value;
    }
    return sweepCommand(request);
  });

  sweep
    .command('merge')
    .summary("join the output directories of a sweep's shards")
    .description("Copies every finished run of the given sweep directories (each sweep.json must list the same runs) into --out (default: the first DIR) and writes results.arrow, results.csv and sweep.html over all of them; lists runs no directory has (exit code 1).")
    .argument('<dirs...>', 'sweep directories (shard outputs)')
    .option('--out <dir>', 'where the merged sweep goes (default: the first DIR)', textOption('out'))
    .option('--rank-by <metric>', 'metric to rank by, mean over seeds (default: net_pnl)', textOption('rank-by'))
    .option('--heatmap <a,b>', "two params for sweep.html's heatmap (default: the first two varied)", textOption('heatmap'))
    .action(async (dirs: string[], own: MergeOptions, cmd: PerpsimCommand) => {
      // Commander hands options the parent also declares (--out, --rank-by, --heatmap) to the
      // parent, wherever they stand on the line: read them there too.
      const opts: MergeOptions = { ...(cmd.parent?.opts() as MergeOptions), ...own };
      const { mergeCommand } = await import('../sweep-merge-command.ts');
      return mergeCommand(dirs, opts);
    });
}
