import { formatMoney } from '../core/money.ts';
import { formatDuration, formatTimestampNs } from '../core/time.ts';
import { computeMetrics, type BacktestMetrics } from './all-metrics.ts';
import type { BacktestResult } from './runner.ts';

/** Version of report.json's layout. */
export const BACKTEST_REPORT_VERSION = 1;

/** report.json: everything in it is deterministic for a strategy, params, scenario, seed and duration. */
export interface BacktestReport {
  version: number;
  strategy: string;
  params: unknown;
  scenario: string;
  seed: number;
  sim_start: string;
  sim_end: string;
  duration: string;
  sample_interval: string;
  user: string;
  symbols: string[];
  state_hash: string;
  events: number;
  metrics: BacktestMetrics;
  funding: { time: string; symbol: string; rate: string; position_lots: number; amount: string }[];
}

/** The report of a run; `strategy` names the strategy (its file as given on the command line). */
export function buildReport(r: BacktestResult, strategy: string, params: unknown): BacktestReport {
  return {
    version: BACKTEST_REPORT_VERSION,
    strategy,
    params: params ?? null,
    scenario: r.scenario,
    seed: r.seed,
    sim_start: formatTimestampNs(r.startNs),
    sim_end: formatTimestampNs(r.endNs),
    duration: formatDuration(r.endNs - r.startNs),
    sample_interval: formatDuration(r.sampleIntervalNs),
    user: r.username,
    symbols: r.symbols,
    state_hash: r.stateHash,
    events: r.events,
    metrics: computeMetrics(r),
    funding: r.funding.map((f) => ({ time: formatTimestampNs(f.tNs), symbol: f.symbol, rate: f.rate, position_lots: f.positionLots, amount: formatMoney(f.amount) })),
  };
}

/** report.json's text: two-space JSON, trailing newline. */
export function reportJson(report: BacktestReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** fills.csv: one row per fill, in order. Money as exact decimal text. */
export function fillsCsv(r: BacktestResult): string {
  const lines = ['time,symbol,order_id,trade_id,side,price,qty,notional,fee,realized_pnl,maker,liquidation,position_after'];
  for (const f of r.fills) {
    lines.push(
      [formatTimestampNs(f.tNs), f.symbol, f.orderId, f.tradeId, f.side, f.price, f.qty, formatMoney(f.notional), formatMoney(f.fee), formatMoney(f.realized), f.maker, f.liquidation, f.positionAfter].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** equity.csv: the sampled account (equity, cash, unrealized, gross notional, position and mark per symbol). */
export function equityCsv(r: BacktestResult): string {
  const header = ['time', 'equity', 'cash', 'unrealized', 'gross_notional', ...r.symbols.map((s) => `position_${s}`), ...r.symbols.map((s) => `mark_${s}`)];
  const lines = [header.join(',')];
  for (const s of r.samples) {
    lines.push([formatTimestampNs(s.tNs), formatMoney(s.equity), formatMoney(s.cash), formatMoney(s.unrealized), formatMoney(s.grossNotional), ...s.positions, ...s.marks].join(','));
  }
  return `${lines.join('\n')}\n`;
}
