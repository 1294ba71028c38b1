import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareReports, formatCompareTable } from '../../src/backtest/compare.ts';
import type { BacktestMetrics } from '../../src/backtest/all-metrics.ts';
import type { BacktestReport } from '../../src/backtest/report.ts';
import { loadReport } from '../../src/cli/compare-command.ts';
import { UsageError } from '../../src/cli/usage-error.ts';

function report(params: unknown, metrics: Partial<BacktestMetrics>): BacktestReport {
  return {
    version: 1, strategy: 'mm.ts', params, scenario: 'default', seed: 7, sim_start: '2026-01-01T00:00:00.000000000Z', sim_end: '2026-01-01T00:10:00.000000000Z',
    duration: '10m', sample_interval: '1s', user: 'strategy', symbols: ['X'], state_hash: 'h', events: 1, funding: [],
    metrics: metrics as BacktestMetrics,
  };
}

describe('perpsim report --compare', () => {
  const a = report({ spread: 4, size: 1 }, { net_pnl: '-1020.5', return_on_equity: -0.001, fills: 299, sharpe_annualized: null, max_position_lots: { X: 6 } });
  const b = report({ spread: 8, size: 1 }, { net_pnl: '-886', return_on_equity: -0.000886, fills: 118, sharpe_annualized: 1.5, max_position_lots: { X: 3 } });

  it('shows each metric of both runs and B − A, money rounded to cents and percentages in points', () => {
    const rows = Object.fromEntries(compareReports(a, b).map((r) => [r.key, [r.a, r.b, r.diff]]));
    expect(rows['net_pnl']).toEqual(['-1,020.50', '-886.00', '+134.50']);
    expect(rows['return_on_equity']).toEqual(['-0.1 %', '-0.0886 %', '+0.0114 %']);
    expect(rows['fills']).toEqual(['299', '118', '-181']);
    expect(rows['sharpe_annualized']).toEqual(['n/a', '1.5', '']);
    expect(rows['max_position_lots']).toEqual(['X 6', 'X 3', '']);
  });

  it('lists only the parameters that differ', () => {
    const rows = compareReports(a, b).filter((r) => r.key.startsWith('params'));
    expect(rows).toEqual([{ key: 'params.spread', label: 'Param spread', a: '4', b: '8', diff: '' }]);
    expect(compareReports(a, a).filter((r) => r.key.startsWith('params')).map((r) => r.a)).toEqual(['same']);
  });

  it('prints an aligned table headed by the two runs', () => {
    const text = formatCompareTable(compareReports(a, b), 'out/a', 'out/b');
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^metric\s+A: out\/a\s+B: out\/b\s+B − A$/);
    expect(lines.find((l) => l.startsWith('Net PnL'))).toMatch(/-1,020\.50\s+-886\.00\s+\+134\.50$/);
  });

  const dir = mkdtempSync(join(tmpdir(), 'perpsim-compare-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names a missing or foreign report in one line', () => {
    writeFileSync(join(dir, 'bad.json'), '{"x":');
    writeFileSync(join(dir, 'other.json'), '{"x":1}');
    expect(() => loadReport(join(dir, 'nope'))).toThrow(UsageError);
    expect(() => loadReport(dir)).toThrow(/no report\.json in this directory/);
    expect(() => loadReport(join(dir, 'bad.json'))).toThrow(/not valid JSON/);
    expect(() => loadReport(join(dir, 'other.json'))).toThrow(/not a backtest report\.json/);
    writeFileSync(join(dir, 'report.json'), JSON.stringify(a));
    expect(loadReport(dir).metrics.fills).toBe(299);
  });
});
