import { availableParallelism } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { oneLine, StrategyLoadError } from '../backtest/strategy-module.ts';
import { ReplayError } from '../replay/replay-error.ts';
import { ScenarioError } from '../scenario/load.ts';
import type { Executor } from '../sweep/executor.ts';
import { expandGrid, parseParamsLines, parseSeeds, SweepInputError } from '../sweep/grid.ts';
import { localPool } from '../sweep/local-pool.ts';
import { absoluteSpec, planSweep, type SweepSpec } from '../sweep/plan.ts';
import { queueExecutor } from '../sweep/queue.ts';
import { QueueUrlError, redisConnection } from '../sweep/redis-connection.ts';
import { rankGroups, variedParams } from '../sweep/ranking.ts';
import type { ResultRow } from '../sweep/results.ts';
import { runSweep } from '../sweep/run-sweep.ts';
import { parseShard, type Shard } from '../sweep/shard.ts';
import { renderSweepHtml } from '../sweep/sweep-html.ts';
import { durationFlag, integerFlag, parseFlags, UsageError } from './flags.ts';
import { REPLAY_FLAGS, replayArgs, replayRequest } from './replay-flags.ts';
import { defaultScenarioName } from './run-command.ts';
import { mergeCommand } from './sweep-merge-command.ts';
import { SweepProgress } from './sweep-progress.ts';
import { rankedTableLines } from './sweep-table.ts';

const USAGE = `usage: perpsim sweep STRATEGY.ts (--grid JSON | --params-file runs.jsonl) [--seeds 1..10] (--scenario NAME|FILE | --replay FILES…) [--duration D] [--cash C] --out DIR [--workers N | --shard i/N|auto/N | --queue redis://HOST:PORT]`;

const FLAGS = ['grid', 'params-file', 'seeds', 'scenario', 'duration', 'cash', 'out', 'workers', 'shard', 'queue', 'queue-name', 'retries', 'rank-by', 'heatmap'];

/** The default BullMQ queue of `--queue` (and `perpsim worker`). */
export const DEFAULT_QUEUE_NAME = 'perpsim-sweep';

/**
 * `perpsim sweep STRATEGY.ts (--grid JSON | --params-file FILE) [--seeds S] (--scenario S |
 * --replay FILES…) [--duration D] [--cash C] --out DIR [--workers N | --shard i/N | --queue URL]`,
 * and `perpsim sweep merge DIR… [--out DIR]`.
 */
export async function sweepCommand(args: string[]): Promise<number> {
  if (args[0] === 'merge') return mergeCommand(args.slice(1));
  const { files: replayFiles, rest } = replayArgs(args);
  const flags = parseFlags(rest, [...FLAGS, ...REPLAY_FLAGS], 1);
  const strategyFile = flags.positional[0];
  if (strategyFile === undefined) throw new UsageError(`missing the strategy file (${USAGE})`);
  const outDir = flags.get('out');
  if (outDir === undefined) throw new UsageError(`--out DIR is required (${USAGE})`);
  const executors = ['workers', 'shard', 'queue'].filter((f) => flags.has(f));
  if (executors.length > 1 && !(executors.length === 2 && executors.includes('workers') && executors.includes('shard'))) throw new UsageError(`--${executors.join(' and --')} cannot be combined`);

  const spec: SweepSpec = { strategyFile, scenario: flags.get('scenario') ?? defaultScenarioName() };
  if (replayFiles !== undefined) spec.replay = replayRequest(replayFiles, flags);
  else if (REPLAY_FLAGS.some((f) => flags.has(f))) throw new UsageError(`--${REPLAY_FLAGS.find((f) => flags.has(f))} needs --replay FILES`);
  const durationNs = durationFlag(flags, 'duration');
  if (durationNs !== undefined) spec.durationNs = durationNs.toString();
  const cash = flags.get('cash');
  if (cash !== undefined) spec.cash = cash;

  const { paramSets, seeds, shard } = input(flags);
  const plan = await usage(() => planSweep(absoluteSpec(spec), paramSets, seeds));
  const queueUrl = flags.get('queue');
  const workers = integerFlag(flags, 'workers', availableParallelism());
  if (workers < 1) throw new UsageError('--workers must be at least 1');
  const interrupt = new AbortController();
  if (queueUrl !== undefined) await usage(async () => redisConnection(queueUrl)); // a bad URL fails before anything runs
  const executor: Executor = queueUrl !== undefined ? queueExecutor({ url: queueUrl, queueName: flags.get('queue-name') ?? DEFAULT_QUEUE_NAME, retries: integerFlag(flags, 'retries', 2), signal: interrupt.signal }) : localPool(workers, interrupt.signal);

  const err = process.stderr;
  let progress: SweepProgress | undefined;
  const onSigint = (): void => {
    interrupt.abort();
    err.write('\nperpsim sweep: interrupted; finished runs are kept, run the same command to resume\n');
  };
  process.once('SIGINT', onSigint);
  const wallStart = performance.now();
  const sweepOptions: Parameters<typeof runSweep>[3] = {
    onPlanned: (pending, skipped) => {
      const where = queueUrl !== undefined ? `queue ${flags.get('queue-name') ?? DEFAULT_QUEUE_NAME}` : `${workers} worker${workers === 1 ? '' : 's'}`;
      process.stdout.write(`perpsim sweep: ${pending + skipped} runs${shard === undefined ? '' : ` (shard ${shard.index}/${shard.count} of ${plan.runs.length})`}, ${skipped} already done, ${pending} to run on ${where} → ${outDir}\n`);
      progress = new SweepProgress(err, pending);
    },
    events: { started: () => progress?.started(), finished: () => progress?.finished(true), failed: () => progress?.finished(false) },
  };
  if (shard !== undefined) sweepOptions.shard = shard;
  const outcome = await usage(() => runSweep(plan, outDir, executor, sweepOptions)).finally(() => process.off('SIGINT', onSigint));
  progress?.end();
  const wallS = (performance.now() - wallStart) / 1000;

  const rankBy = flags.get('rank-by') ?? 'net_pnl';
  const missing = plan.runs.filter((r) => !outcome.rows.some((row) => row.id === r.id)).length;
  const failedIds = new Set(outcome.failed.map((f) => f.id));
  writeFileSync(join(outDir, 'sweep.html'), renderSweepHtml(htmlInput(plan.spec, outcome.rows, rankBy, heatmapFlag(flags), outcome.failed)));
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`ran ${outcome.ran}, skipped ${outcome.skipped} (done before), failed ${outcome.failed.length}, in ${wallS.toFixed(1)} s wall`);
  printRanking(out, outcome.rows, rankBy);
  for (const f of outcome.failed) out(`failed ${f.id}: ${f.message}`);
  if (interrupt.signal.aborted) out(`interrupted: ${missing} runs not done yet`);
  out(`results: ${join(outDir, 'results.arrow')}, ${join(outDir, 'results.csv')}, ${join(outDir, 'sweep.html')} (${outcome.rows.length} rows${missing - failedIds.size > 0 && shard !== undefined ? `; ${missing} runs belong to other shards or are not done` : ''})`);
  return interrupt.signal.aborted ? 130 : outcome.failed.length > 0 ? 1 : 0;
}

/** The ranked table (mean over seeds) on stdout. */
export function printRanking(out: (line: string) => void, rows: readonly ResultRow[], rankBy: string): void {
  if (rows.length === 0) return;
  if (!rows.some((r) => rankBy in r.metrics)) throw new UsageError(`--rank-by: no metric "${rankBy}" (one of ${Object.keys(rows[0]!.metrics).join(', ')})`);
  const ranked = rankGroups(rows, rankBy);
  for (const line of rankedTableLines(ranked, variedParams(ranked), rankBy)) out(line);
}

/** What sweep.html gets. */
export function htmlInput(spec: SweepSpec, rows: readonly ResultRow[], rankBy: string, heatmap: [string, string] | undefined, missing: readonly { id: string; message: string }[]): Parameters<typeof renderSweepHtml>[0] {
  const market = spec.replay !== undefined ? spec.replay.files.map((f) => basename(f)).join(', ') : basename(spec.scenario);
  const input: Parameters<typeof renderSweepHtml>[0] = { strategy: basename(spec.strategyFile), market, rows, rankBy, missing };
  if (heatmap !== undefined) input.heatmap = heatmap;
  return input;
}

export function heatmapFlag(flags: Map<string, string>): [string, string] | undefined {
  const text = flags.get('heatmap');
  if (text === undefined) return undefined;
  const parts = text.split(',');
  if (parts.length !== 2 || parts.some((p) => p === '')) throw new UsageError(`--heatmap must name two params, such as a,b; got "${text}"`);
  return [parts[0]!, parts[1]!];
}

function input(flags: Map<string, string>): { paramSets: unknown[]; seeds: number[]; shard?: Shard } {
  try {
    const grid = flags.get('grid');
    const file = flags.get('params-file');
    if ((grid === undefined) === (file === undefined)) throw new UsageError(`give exactly one of --grid JSON and --params-file FILE (${USAGE})`);
    const paramSets = grid !== undefined ? expandGrid(grid) : parseParamsLines(readParamsFile(file!), file!);
    const seeds = parseSeeds(flags.get('seeds') ?? '1');
    const shardText = flags.get('shard');
    return shardText === undefined ? { paramSets, seeds } : { paramSets, seeds, shard: parseShard(shardText, process.env) };
  } catch (e) {
    if (e instanceof SweepInputError) throw new UsageError(e.message);
    throw e;
  }
}

function readParamsFile(file: string): string {
  try {
    return readFileSync(resolve(file), 'utf8');
  } catch (e) {
    throw new UsageError(`--params-file ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : oneLine(e)}`);
  }
}

/** Runs `fn`, turning a bad strategy, params, scenario or recording into a one-line UsageError. */
export async function usage<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof StrategyLoadError || e instanceof ScenarioError || e instanceof ReplayError || e instanceof SweepInputError || e instanceof QueueUrlError || (e as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(oneLine(e));
    throw e;
  }
}
