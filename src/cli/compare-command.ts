import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { compareReports, formatCompareTable } from '../backtest/compare.ts';
import type { BacktestReport } from '../backtest/report.ts';
import { UsageError } from './usage-error.ts';

/**
 * `perpsim report --compare A B`: two backtests side by side (A and B are output directories
 * of `perpsim backtest` or their report.json files): every metric of each and B − A.
 */
export function compareCommand(paths: string[]): number {
  if (paths.length !== 2) throw new UsageError('usage: perpsim report --compare A B (two backtest output directories or report.json files)');
  const [a, b] = paths.map(loadReport) as [BacktestReport, BacktestReport];
  process.stdout.write(formatCompareTable(compareReports(a, b), paths[0]!, paths[1]!));
  return 0;
}

/** A backtest's report.json, from its directory or the file itself; a one-line UsageError otherwise. */
export function loadReport(path: string): BacktestReport {
  if (!existsSync(path)) throw new UsageError(`${path}: no such file or directory`);
  const file = statSync(path).isDirectory() ? join(path, 'report.json') : path;
  if (!existsSync(file)) throw new UsageError(`${path}: no report.json in this directory (run perpsim backtest first)`);
  let report: unknown;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`${file}: not valid JSON (${(e as Error).message.split('\n')[0]})`);
  }
  const r = report as Partial<BacktestReport> | null;
  if (r === null || typeof r !== 'object' || typeof r.metrics !== 'object' || r.metrics === null || typeof r.strategy !== 'string') {
    throw new UsageError(`${file}: not a backtest report.json (no strategy and metrics)`);
  }
  return r as BacktestReport;
}
