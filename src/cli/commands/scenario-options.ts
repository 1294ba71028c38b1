import type { Command } from 'commander';
import type { ReplayRequest } from '../replay-flags.ts';
import { UsageError } from '../usage-error.ts';
import { choiceOption, durationOption, integerOption, positiveDecimalOption, textOption } from '../option-parsers.ts';

/** The scenario used when none is given (scenarios/default.json, shipped with the package). */
export const DEFAULT_SCENARIO = 'default';

/** `--scenario --seed --duration` as parsed by `addScenarioOptions`. */
export interface ScenarioOptions {
  scenario?: string;
  seed?: number;
  duration?: bigint;
}

/** `--replay FILE… --queue-model --tick-size --lot-size` as parsed by `addReplayOptions`. */
export interface ReplayOptionValues {
  replay?: string[];
  queueModel?: 'risk-averse' | 'prob';
  replayMode?: 'l2' | 'l1';
  tickSize?: string;
  lotSize?: string;
}

/** The options that pick the market: scenario, seed and duration. */
export function addScenarioOptions<C extends Command>(cmd: C, durationDefault = "the scenario's duration, see perpsim scenarios"): C {
  return cmd
    .option('--scenario <name|file>', 'built-in scenario name (perpsim scenarios lists them) or a scenario JSON file (default: default)', textOption('scenario'))
    .option('--seed <n>', "random seed (default: the scenario's seed)", integerOption('seed'))
    .option('--duration <d>', `simulated time such as 30m, 1h, 1d (default: ${durationDefault})`, durationOption('duration'));
}

/** The options that replay recorded L2 data instead of (or into) a synthetic market. */
export function addReplayOptions<C extends Command>(cmd: C): C {
  return cmd
    .option('--replay <files...>', 'recordings to replay, any readable format told by content (several: space- or comma-separated, or --replay repeated; see the README table); with --scenario, into its market.replay (default: none)')
    .option('--replay-mode <mode>', 'l2: the recorded levels are the book; l1: L1 + trades, the recorded top of book (bookTicker, quotes) is the book and only it and the trades are read (default: l2)', choiceOption('replay-mode', ['l2', 'l1'] as const))
    .option('--queue-model <model>', 'queue position estimate for --replay: risk-averse or prob (default: risk-averse)', choiceOption('queue-model', ['risk-averse', 'prob'] as const))
    .option('--tick-size <t>', 'recorded price step for --replay (default: known for BTCUSDT, ETHUSDT, BTCUSD_PERP, XRPUSDT)', positiveDecimalOption('tick-size'))
    .option('--lot-size <l>', 'recorded quantity step for --replay (default: known for BTCUSDT, ETHUSDT, BTCUSD_PERP, XRPUSDT)', positiveDecimalOption('lot-size'));
}

/**
 * The replay part of a request, or undefined without `--replay`; a recordings' option without
 * `--replay` is a usage error (it would otherwise do nothing). `--scenario` with `--replay`
 * names the scenario whose `market.replay` takes the files.
 */
export function replayRequest(opts: ReplayOptionValues & { scenario?: string }): ReplayRequest | undefined {
  if (opts.replay === undefined) {
    const stray = (['replayMode', 'queueModel', 'tickSize', 'lotSize'] as const).find((k) => opts[k] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${stray.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} needs --replay FILES`);
    return undefined;
  }
  if (opts.replay.length === 0 || opts.replay[0]!.startsWith('-')) throw new UsageError('--replay needs at least one file');
  // `--replay a b`, `--replay a --replay b` and `--replay a,b` all name two files.
  const files = opts.replay.flatMap((f) => f.split(',')).filter((f) => f.length > 0);
  const request: ReplayRequest = { files };
  if (opts.queueModel !== undefined) request.queueModel = opts.queueModel;
  if (opts.replayMode !== undefined) request.mode = opts.replayMode;
  if (opts.tickSize !== undefined) request.tickSize = opts.tickSize;
  if (opts.lotSize !== undefined) request.lotSize = opts.lotSize;
  if (opts.scenario !== undefined) request.baseScenario = opts.scenario;
  return request;
}
