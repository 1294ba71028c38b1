import { Decimal } from 'decimal.js';
import type { BacktestMetrics } from './all-metrics.ts';

/** How a metric is shown: label, unit, and whether it is a headline figure. */
interface MetricRow {
  key: keyof BacktestMetrics;
  label: string;
  unit?: string;
  headline?: boolean;
  /** Multiply a number by 100 (fractions shown as %). */
  percent?: boolean;
  /** Money (exact decimal text in report.json): shown rounded to cents with thousands separators. */
  money?: boolean;
}

/** Display order of the metrics in the printed summary and report.html. */
export const METRIC_ROWS: readonly MetricRow[] = [
  { key: 'net_pnl', label: 'Net PnL', money: true, headline: true },
  { key: 'return_on_equity', label: 'Return on starting equity', unit: '%', percent: true, headline: true },
  { key: 'sharpe_annualized', label: 'Sharpe ratio (annualized)', headline: true },
  { key: 'max_drawdown_pct', label: 'Max drawdown', unit: '%', headline: true },
  { key: 'realized_trading_pnl', label: 'Realized trading PnL', money: true },
  { key: 'fees', label: 'Fees paid', money: true },
  { key: 'funding_received', label: 'Funding received', money: true },
  { key: 'funding_paid', label: 'Funding paid', money: true },
  { key: 'unrealized_pnl', label: 'Unrealized PnL at end', money: true },
  { key: 'starting_equity', label: 'Starting equity', money: true },
  { key: 'ending_equity', label: 'Ending equity', money: true },
  { key: 'annualized_return', label: 'Annualized return (linear)', unit: '%', percent: true },
  { key: 'sortino_annualized', label: 'Sortino ratio (annualized)' },
  { key: 'max_drawdown', label: 'Max drawdown (value)', money: true },
  { key: 'max_drawdown_duration_s', label: 'Max drawdown duration', unit: 's' },
  { key: 'calmar', label: 'Calmar ratio' },
  { key: 'orders', label: 'Orders sent' },
  { key: 'orders_rejected', label: 'Orders rejected' },
  { key: 'orders_canceled', label: 'Orders canceled' },
  { key: 'fills', label: 'Fills' },
  { key: 'fill_ratio', label: 'Fill ratio (lots filled / lots ordered)', unit: '%', percent: true },
  { key: 'volume_lots', label: 'Volume (lots)' },
  { key: 'volume_notional', label: 'Volume (notional)', money: true },
  { key: 'maker_share', label: 'Maker share of volume', unit: '%', percent: true },
  { key: 'turnover', label: 'Turnover (volume / starting equity)', unit: '×' },
  { key: 'avg_position_notional', label: 'Average gross position (notional)', money: true },
  { key: 'max_position_notional', label: 'Max gross position (notional)', money: true },
  { key: 'max_position_lots', label: 'Max |position| (lots)' },
  { key: 'time_in_market', label: 'Time in market', unit: '%', percent: true },
  { key: 'liquidations', label: 'Liquidations' },
  { key: 'rejects_by_reason', label: 'Rejects by reason' },
  { key: 'round_trips', label: 'Round trips (flat to flat)' },
  { key: 'win_rate', label: 'Win rate (of round trips)', unit: '%', percent: true },
  { key: 'profit_factor', label: 'Profit factor (gross win / gross loss)' },
  { key: 'avg_win', label: 'Average winning trip', money: true },
  { key: 'avg_loss', label: 'Average losing trip', money: true },
  { key: 'avg_holding_s', label: 'Average holding time', unit: 's' },
  { key: 'time_long', label: 'Time long', unit: '%', percent: true },
  { key: 'time_short', label: 'Time short', unit: '%', percent: true },
  { key: 'markout_1s_bps', label: 'Maker markout after 1 s', unit: 'bps' },
  { key: 'markout_10s_bps', label: 'Maker markout after 10 s', unit: 'bps' },
  { key: 'markout_60s_bps', label: 'Maker markout after 60 s', unit: 'bps' },
  { key: 'touch_share_bid', label: 'Time quoted at the best bid', unit: '%', percent: true },
  { key: 'touch_share_ask', label: 'Time quoted at the best ask', unit: '%', percent: true },
];

/** A metric's value as display text (numbers to 4 significant digits, money rounded to cents). */
export function formatMetric(metrics: BacktestMetrics, row: MetricRow): string {
  const v = metrics[row.key];
  if (v === null || v === undefined) return 'n/a'; // undefined: a report.json from before the metric existed
  const num = (n: number) => {
    const x = row.percent === true ? n * 100 : n;
    return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(4)));
  };
  if (typeof v === 'number') return num(v);
  if (typeof v === 'string') return row.money === true ? displayMoney(v) : v;
  const entries = Object.entries(v);
  return entries.length === 0 ? 'none' : entries.map(([k, n]) => `${k} ${num(n)}`).join(', ');
}

/**
 * Money text for people: rounded half-even to `decimals` (default 2) with thousands separators,
 * "−" kept, no locale ("-1,234.57"). Exact values stay in report.json.
 */
export function displayMoney(text: string, decimals = 2): string {
  const fixed = new Decimal(text).toDecimalPlaces(decimals, Decimal.ROUND_HALF_EVEN).toFixed(decimals);
  const negative = fixed.startsWith('-');
  const [int = '0', frac] = (negative ? fixed.slice(1) : fixed).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const out = frac === undefined ? grouped : `${grouped}.${frac}`;
  return negative && /[1-9]/.test(out) ? `-${out}` : out;
}

/** Metrics as aligned `label  value unit` lines (the printed summary). */
export function metricLines(metrics: BacktestMetrics): string[] {
  const width = Math.max(...METRIC_ROWS.map((r) => r.label.length));
  return METRIC_ROWS.map((r) => `${r.label.padEnd(width)}  ${formatMetric(metrics, r)}${r.unit !== undefined ? ` ${r.unit}` : ''}`);
}
