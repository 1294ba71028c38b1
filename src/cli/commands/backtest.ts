import type { PerpsimCommand } from '../program.ts';
import type { BacktestRequest } from '../backtest-command.ts';
import { durationOption, textOption } from '../option-parsers.ts';
import { addLatencyOptions, orderLatencyOf, type LatencyOptionValues } from '../latency-flags.ts';
import { addReplayOptions, addScenarioOptions, DEFAULT_SCENARIO, replayRequest, type ReplayOptionValues, type ScenarioOptions } from './scenario-options.ts';

export function register(program: PerpsimCommand): void {
  const cmd = program
    .command('backtest')
    .summary('run a strategy file in-process on a scenario or on replayed recordings')
    .description(
      'Runs a strategy file (TypeScript or JavaScript, default export a factory or class) in-process on a scenario or on replayed recordings, prints the metrics and state_hash, and writes report.json, report.html, fills.csv, fills.arrow and equity.csv to DIR.',
    )
    .argument('<strategy>', 'the strategy file (.ts or .js)')
    .option('--params <json>', "the strategy's parameters as JSON, checked by its paramsSchema (default: {})", textOption('params'));
  addScenarioOptions(cmd);
  cmd
    .option('--cash <c>', "starting cash of the strategy's account (default: 1000000)", textOption('cash'))
    .option('--sample-interval <d>', 'equity sampling interval on the sim clock, such as 1s or 1m (default: the finest of 1s … 1h giving at most 2000 samples)', durationOption('sample-interval'))
    .option('--out <dir>', 'output directory (default: out/backtest-<strategy>-<scenario>-<seed>)', textOption('out'))
    .option('--quiet', 'no progress lines on stderr (default: progress every 10 s of wall time, with recorded events and events/s on a replay)');
  addLatencyOptions(addReplayOptions(cmd)).action(async (strategyFile: string, opts: ScenarioOptions & ReplayOptionValues & LatencyOptionValues & { quiet?: boolean; params?: string; cash?: string; out?: string; sampleInterval?: bigint }) => {
    const { backtestCommand } = await import('../backtest-command.ts');
    const request: BacktestRequest = { strategyFile, scenario: opts.scenario ?? DEFAULT_SCENARIO };
    const replay = replayRequest(opts);
    if (replay !== undefined) request.replay = replay;
    if (opts.params !== undefined) request.paramsJson = opts.params;
    if (opts.seed !== undefined) request.seed = opts.seed;
    if (opts.duration !== undefined) request.durationNs = opts.duration;
    if (opts.cash !== undefined) request.cash = opts.cash;
    if (opts.out !== undefined) request.outDir = opts.out;
    if (opts.quiet === true) request.quiet = true;
    if (opts.sampleInterval !== undefined) request.sampleIntervalNs = opts.sampleInterval;
    const orderLatency = orderLatencyOf(opts);
    if (orderLatency !== undefined) request.orderLatency = orderLatency;
    return backtestCommand(request);
  });
}
