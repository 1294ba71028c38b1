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
import type { ReplayRequest } from './replay-flags.ts';
import { UsageError } from './usage-error.ts';
import { SweepProgress } from './sweep-progress.ts';
import { rankedTableLines } from './sweep-table.ts';

/** The default BullMQ queue of `--queue` (and `perpsim worker`). */
export const DEFAULT_QUEUE_NAME = 'perpsim-sweep';

/** What `perpsim sweep` was asked to do, after option parsing. */
export interface SweepRequest {
  strategyFile: string;
  /** `--grid` JSON text, or `--params-file` path (exactly one). */
  grid?: string;
  paramsFile?: string;
  /** `--seeds` text (default `1`). */
  seeds?: string;
  scenario: string;
  replay?: ReplayRequest;
  durationNs?: bigint;
  cash?: string;
  outDir: string;
  /** Local pool size (default: the number of cores). */
  workers?: number;
  /** `--shard i/N` or `auto/N` text. */
  shard?: string;
  queue?: string;
  queueName?: string;
  retries?: number;
  rankBy?: string;
  heatmap?: string;
}

/**
 * `perpsim sweep`: plans the runs (params sets × seeds, each validated by the strategy's
 * schema), skips those already in DIR, runs the rest on the chosen executor with a progress
 * bar, then writes results.arrow / results.csv / sweep.html and prints the ranked table.
 * Exit code 0, 1 when a run failed for good, 130 when interrupted (finished runs are kept).
 */
export async function sweepCommand(request: SweepRequest): Promise<number> {
  const executors = (['workers', 'shard', 'queue'] as const).filter((f) => request[f] !== undefined);
  if (request.queue !== undefined && executors.length > 1) throw new UsageError(`--queue cannot be combined with --${executors.filter((e) => e !== 'queue').join(' or --')}`);
  const outDir = request.outDir;
  const spec: SweepSpec = { strategyFile: request.strategyFile, scenario: request.scenario };
  if (request.replay !== undefined) spec.replay = request.replay;
  if (request.durationNs !== undefined) spec.durationNs = request.durationNs.toString();
  if (request.cash !== undefined) spec.cash = request.cash;
  const heatmap = heatmapOption(request.heatmap);

  const { paramSets, seeds, shard } = input(request);
  const plan = await usage(() => planSweep(absoluteSpec(spec), paramSets, seeds));
  const queueUrl = request.queue;
  const queueName = request.queueName ?? DEFAULT_QUEUE_NAME;
  const workers = request.workers ?? availableParallelism();
  if (workers < 1) throw new UsageError('--workers must be at least 1');
  const interrupt = new AbortController();
  if (queueUrl !== undefined) await usage(async () => redisConnection(queueUrl)); // a bad URL fails before anything runs
  const executor: Executor =
    queueUrl !== undefined
      ? queueExecutor({ url: queueUrl, queueName, retries: request.retries ?? 2, signal: interrupt.signal, onWaiting: () => process.stderr.write(`perpsim sweep: no worker has taken a run yet; start some with: perpsim worker --queue ${queueUrl}\n`) })
      : localPool(workers, interrupt.signal);

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
      const where = queueUrl !== undefined ? `queue ${queueName}` : `${workers} worker${workers === 1 ? '' : 's'}`;
      process.stdout.write(`perpsim sweep: ${pending + skipped} runs${shard === undefined ? '' : ` (shard ${shard.index}/${shard.count} of ${plan.runs.length})`}, ${skipped} already done, ${pending} to run on ${where} → ${outDir}\n`);
      progress = new SweepProgress(err, pending);
    },
    events: { started: () => progress?.started(), finished: () => progress?.finished(true), failed: () => progress?.finished(false) },
  };
  if (shard !== undefined) sweepOptions.shard = shard;
  const outcome = await usage(() => runSweep(plan, outDir, executor, sweepOptions)).finally(() => process.off('SIGINT', onSigint));
  progress?.end();
  const wallS = (performance.now() - wallStart) / 1000;

  const rankBy = request.rankBy ?? 'net_pnl';
  const missing = plan.runs.length - outcome.rows.length;
  writeFileSync(join(outDir, 'sweep.html'), renderSweepHtml(htmlInput(plan.spec, outcome.rows, rankBy, heatmap, outcome.failed)));
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`ran ${outcome.ran}, skipped ${outcome.skipped} (done before), failed ${outcome.failed.length}, in ${wallS.toFixed(1)} s wall`);
  printRanking(out, outcome.rows, rankBy);
  for (const f of outcome.failed) out(`failed ${f.id}: ${f.message}`);
  if (interrupt.signal.aborted) out(`interrupted: ${missing} runs not done yet`);
  const others = shard !== undefined && missing > 0 ? `; ${missing} runs of the sweep are not here (other shards, or not done)` : '';
  out(`results: ${join(outDir, 'results.arrow')}, ${join(outDir, 'results.csv')}, ${join(outDir, 'sweep.html')} (${outcome.rows.length} rows${others})`);
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

/** `--heatmap a,b`: two param names. */
export function heatmapOption(text: string | undefined): [string, string] | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(',');
  if (parts.length !== 2 || parts.some((p) => p === '')) throw new UsageError(`--heatmap must name two params, such as a,b; got "${text}"`);
  return [parts[0]!, parts[1]!];
}

function input(request: SweepRequest): { paramSets: unknown[]; seeds: number[]; shard?: Shard } {
  try {
    if ((request.grid === undefined) === (request.paramsFile === undefined)) throw new UsageError('give exactly one of --grid JSON and --params-file FILE');
    const paramSets = request.grid !== undefined ? expandGrid(request.grid) : parseParamsLines(readParamsFile(request.paramsFile!), request.paramsFile!);
    const seeds = parseSeeds(request.seeds ?? '1');
    return request.shard === undefined ? { paramSets, seeds } : { paramSets, seeds, shard: parseShard(request.shard, process.env) };
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
