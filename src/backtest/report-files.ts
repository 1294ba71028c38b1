import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fillsArrow } from './fills-arrow.ts';
import { reportHtmlInput } from './html-input.ts';
import { renderReportHtml } from './report-html/index.ts';
import { equityCsv, fillsCsv, reportJson, type BacktestReport } from './report.ts';
import type { BacktestResult } from './runner.ts';

/**
 * Writes a run's files into `outDir` (which must exist): report.json, fills.csv, fills.arrow,
 * equity.csv and report.html. One list, so a backtest and a live run always write the same set.
 * Returns the file names written, in that order.
 */
export function writeReportFiles(outDir: string, report: BacktestReport, result: BacktestResult): string[] {
  const files: [string, string | Uint8Array][] = [
    ['report.json', reportJson(report)],
    ['fills.csv', fillsCsv(result)],
    ['fills.arrow', fillsArrow(result.fills)],
    ['equity.csv', equityCsv(result)],
    ['report.html', renderReportHtml(reportHtmlInput(result, report))],
  ];
  for (const [file, content] of files) writeFileSync(join(outDir, file), content);
  return files.map(([file]) => file);
}
