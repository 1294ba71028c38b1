import { basename, extname, join } from 'node:path';
import { metricLines } from '../backtest/metric-table.ts';
import { buildReport, type BacktestReport } from '../backtest/report.ts';
import { writeReportFiles } from '../backtest/report-files.ts';
import { BacktestError, runBacktest, type BacktestConfig, type BacktestResult } from '../backtest/runner.ts';
import { importStrategyModule, instantiateStrategy, oneLine, StrategyLoadError, type StrategyModule } from '../backtest/strategy-module.ts';
import { parseMoney } from '../core/money.ts';
import { parseDuration } from '../core/time.ts';
import type { L2Event } from '../replay/l2/l2-event.ts';
import { ReplayError } from '../replay/replay-error.ts';
import type { LatencyModelSpec, Scenario } from '../scenario/schema.ts';
import { costWarning } from './cost-warning.ts';
import { prepareOutDir } from './out-path.ts';
import { requestedScenario, type ReplayRequest } from './replay-flags.ts';
import { NO_PROGRESS, Progress, type ProgressStream } from './progress.ts';
import { UsageError } from './usage-error.ts';

/** What `perpsim backtest` was asked to do, after flag parsing. */
export interface BacktestRequest {
  /** Path of the strategy file (.ts or .js). */
  strategyFile: string;
  /** Params as JSON text (default `{}`). */
  paramsJson?: string;
  /** Built-in scenario name or path of a scenario file. */
  scenario: string;
  /** `--replay`: recordings to replay (into `--scenario` when given). */
  replay?: ReplayRequest;
  seed?: number;
  durationNs?: bigint;
  /** Starting cash of the strategy's account, decimal text. */
  cash?: string;
  /** Output directory (default `out/backtest-<strategy>-<scenario>-<seed>`). */
  outDir?: string;
  /** `--sample-interval`: equity sampling on the sim clock (default adapts to the run length). */
  sampleIntervalNs?: bigint;
  /** `--quiet`: no progress on stderr. */
  quiet?: boolean;
  /** `--latency-file` / `--latency-activity`: the strategy's order latency (default: the scenario's). */
  orderLatency?: LatencyModelSpec;
}

/** What a backtest wrote. */
export interface BacktestOutcome {
  report: BacktestReport;
  result: BacktestResult;
  outDir: string;
  files: string[];
}

/** `perpsim backtest`: runs the request (flags parsed by `commands/backtest.ts`) and prints the metrics. */
export async function backtestCommand(request: BacktestRequest): Promise<number> {
  const wallStart = performance.now();
  const { report, result, outDir } = await executeBacktest(request, request.quiet === true ? NO_PROGRESS : process.stderr);
  const wallSeconds = (performance.now() - wallStart) / 1000;
  const w = (line: string) => process.stdout.write(`${line}\n`);
  w(`perpsim backtest: ${report.strategy} on ${report.scenario}, seed ${report.seed}, ${report.duration} of sim time → ${outDir}`);
  for (const line of metricLines(report.metrics)) w(`  ${line}`);
  w(`wall ${wallSeconds.toFixed(2)} s: ${Math.round(result.events / wallSeconds)} events/s`);
  w(`state_hash: ${report.state_hash}`);
  return 0;
}

/**
 * Loads the strategy and scenario (any problem is a one-line UsageError), runs the backtest
 * with progress on `progressOut`, and writes report.json, report.html, fills.csv, fills.arrow
 * and equity.csv to the output directory.
 */
export async function executeBacktest(request: BacktestRequest, progressOut: ProgressStream): Promise<BacktestOutcome> {
  const params = parseParamsJson(request.paramsJson);
  const { scenario, replayEvents } = await scenarioOf(request);
  if (request.cash !== undefined) checkCash(request.cash);
  const name = basename(request.strategyFile);
  const mod = await importStrategy(request.strategyFile);
  const { strategy, params: parsedParams } = await usage(() => instantiateStrategy(mod, params, name));

  const config: BacktestConfig = { scenario };
  if (replayEvents !== undefined) config.replayEvents = replayEvents;
  if (request.seed !== undefined) config.seed = request.seed;
  if (request.durationNs !== undefined) config.durationNs = request.durationNs;
  if (request.cash !== undefined) config.startingCash = request.cash;
  if (request.outDir !== undefined) prepareOutDir('--out', request.outDir); // before the run: a bad path fails fast
  const warning = costWarning('backtest', request.durationNs ?? parseDuration(scenario.duration) ?? 0n);
  if (warning !== undefined) progressOut.write(`${warning}\n`);
  if (request.sampleIntervalNs !== undefined) config.sampleIntervalNs = request.sampleIntervalNs;
  if (request.orderLatency !== undefined) config.orderLatency = request.orderLatency;
  let progress: Progress | undefined;
  config.onProgress = (tNs, startNs, endNs, records) => {
    progress ??= new Progress(progressOut, startNs, endNs, `perpsim backtest ${name}`);
    progress.update(tNs, records);
  };
  const result = await usage(() => runBacktest(strategy, config));
  progress?.done();

  const report = buildReport(result, name, parsedParams);
  const outDir = request.outDir ?? join('out', `backtest-${slug(basename(name, extname(name)))}-${slug(scenario.name)}-${result.seed}`);
  prepareOutDir(request.outDir === undefined ? 'output directory' : '--out', outDir);
  const files = writeReportFiles(outDir, report, result);
  return { report, result, outDir, files };
}

/** The scenario to run: `--scenario`, or `--replay` files (into `--scenario` when given). */
async function scenarioOf(request: BacktestRequest): Promise<{ scenario: Scenario; replayEvents?: readonly L2Event[] }> {
  const { scenario, events } = await requestedScenario(request);
  return events === undefined ? { scenario } : { scenario, replayEvents: events };
}

/** Params JSON text → value (`{}` when absent). */
export function parseParamsJson(text: string | undefined): unknown {
  if (text === undefined) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new UsageError(`--params is not valid JSON: ${oneLine(e)}`);
  }
}

function checkCash(text: string): void {
  try {
    if (parseMoney(text) <= 0n) throw new RangeError('not positive');
  } catch {
    throw new UsageError(`--cash must be a positive decimal amount such as 1000000, got "${text}"`);
  }
}

/** Imports a strategy file (a TypeScript one registers tsx first; see importStrategyModule). */
export async function importStrategy(file: string): Promise<StrategyModule> {
  try {
    return await importStrategyModule(file);
  } catch (e) {
    throw e instanceof StrategyLoadError ? new UsageError(e.message) : e;
  }
}

/** Runs `fn`, turning a strategy's load or run failure into a one-line UsageError. */
async function usage<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof StrategyLoadError || e instanceof BacktestError || e instanceof ReplayError) throw new UsageError(oneLine(e));
    throw e;
  }
}

function slug(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-');
}
