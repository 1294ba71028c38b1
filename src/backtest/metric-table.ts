import { Decimal } from 'decimal.js';
import type { BacktestMetrics } from './metrics.ts';

/** How a metric is shown: label, unit, and whether it is a headline figure. */
interface MetricRow {
  key: keyof BacktestMetrics;
  label: string;
  unit?: string;
  headline?: boolean;
  /** Multiply a number by 100 (fractions shown as %). */
  percent?: boolean;
  /** Show money text rounded to this many decimals (for averages, whose exact text is long). */
  decimals?: number;
}

/** Display order of the metrics in the printed summary and report.html. */
export const METRIC_ROWS: readonly MetricRow[] = [
  { key: 'net_pnl', label: 'Net PnL', headline: true },
  { key: 'return_on_equity', label: 'Return on starting equity', unit: '%', percent: true, headline: true },
  { key: 'sharpe_annualized', label: 'Sharpe ratio (annualized)', headline: true },
  { key: 'max_drawdown_pct', label: 'Max drawdown', unit: '%', headline: true },
  { key: 'realized_trading_pnl', label: 'Realized trading PnL' },
  { key: 'fees', label: 'Fees paid' },
  { key: 'funding_received', label: 'Funding received' },
  { key: 'funding_paid', label: 'Funding paid' },
  { key: 'unrealized_pnl', label: 'Unrealized PnL at end' },
  { key: 'starting_equity', label: 'Starting equity' },
  { key: 'ending_equity', label: 'Ending equity' },
  { key: 'annualized_return', label: 'Annualized return (linear)', unit: '%', percent: true },
  { key: 'sortino_annualized', label: 'Sortino ratio (annualized)' },
  { key: 'max_drawdown', label: 'Max drawdown (value)' },
  { key: 'max_drawdown_duration_s', label: 'Max drawdown duration', unit: 's' },
  { key: 'calmar', label: 'Calmar ratio' },
  { key: 'orders', label: 'Orders sent' },
  { key: 'orders_rejected', label: 'Orders rejected' },
  { key: 'orders_canceled', label: 'Orders canceled' },
  { key: 'fills', label: 'Fills' },
  { key: 'fill_ratio', label: 'Fill ratio (lots filled / lots ordered)', unit: '%', percent: true },
  { key: 'volume_lots', label: 'Volume (lots)' },
  { key: 'volume_notional', label: 'Volume (notional)' },
  { key: 'maker_share', label: 'Maker share of volume', unit: '%', percent: true },
  { key: 'turnover', label: 'Turnover (volume / starting equity)', unit: '×' },
  { key: 'avg_position_notional', label: 'Average gross position (notional)', decimals: 2 },
  { key: 'max_position_notional', label: 'Max gross position (notional)' },
  { key: 'max_position_lots', label: 'Max |position| (lots)' },
  { key: 'time_in_market', label: 'Time in market', unit: '%', percent: true },
  { key: 'liquidations', label: 'Liquidations' },
];

/** A metric's value as display text (numbers to 4 significant digits, money as exact text). */
export function formatMetric(metrics: BacktestMetrics, row: MetricRow): string {
  const v = metrics[row.key];
  if (v === null) return 'n/a';
  if (typeof v === 'number') {
    const x = row.percent === true ? v * 100 : v;
    return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(4)));
  }
  if (typeof v === 'string') return row.decimals === undefined ? v : new Decimal(v).toFixed(row.decimals);
  return Object.entries(v).map(([k, n]) => `${k} ${n}`).join(', ');
}

/** Metrics as aligned `label  value unit` lines (the printed summary). */
export function metricLines(metrics: BacktestMetrics): string[] {
  const width = Math.max(...METRIC_ROWS.map((r) => r.label.length));
  return METRIC_ROWS.map((r) => `${r.label.padEnd(width)}  ${formatMetric(metrics, r)}${r.unit !== undefined ? ` ${r.unit}` : ''}`);
}
