import { fillsArrow } from '../backtest/fills-arrow.ts';
import { buildReport, reportJson, type BacktestReport } from '../backtest/report.ts';
import { runBacktest, type BacktestConfig } from '../backtest/runner.ts';
import { instantiateStrategy } from '../backtest/strategy-module.ts';
import type { PlannedRun, SweepContext } from './plan.ts';
import { RunStore } from './run-store.ts';

/** What a finished run reports back to the sweep (the same whoever ran it). */
export interface RunOutcome {
  id: string;
  /** false when the run's files were already there (someone else finished it first). */
  wrote: boolean;
  state_hash: string;
  metrics: BacktestReport['metrics'];
}

/**
 * Runs one run of a sweep in this process and writes `runs/<id>/report.json` and
 * `fills.arrow` under `outDir`. Deterministic: the same run gives the same bytes anywhere.
 */
export async function executeRun(ctx: SweepContext, run: PlannedRun, outDir: string): Promise<RunOutcome> {
  const { strategy, params } = await instantiateStrategy(ctx.module, run.params, ctx.strategyName);
  const config: BacktestConfig = { scenario: ctx.scenario, seed: run.seed };
  if (ctx.replayEvents !== undefined) config.replayEvents = ctx.replayEvents;
  if (ctx.spec.durationNs !== undefined) config.durationNs = BigInt(ctx.spec.durationNs);
  if (ctx.spec.cash !== undefined) config.startingCash = ctx.spec.cash;
  const result = await runBacktest(strategy, config);
  const report = buildReport(result, ctx.strategyName, params);
  const wrote = new RunStore(outDir).write(run.id, [
    ['report.json', reportJson(report)],
    ['fills.arrow', fillsArrow(result.fills)],
  ]);
  return { id: run.id, wrote, state_hash: report.state_hash, metrics: report.metrics };
}
