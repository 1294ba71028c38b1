import { formatMoney } from '../core/money.ts';
import type { JsonValue, ReportHtmlInput } from './report-html/index.ts';
import { METRIC_ROWS, formatMetric } from './metric-table.ts';
import type { BacktestReport } from './report.ts';
import type { BacktestResult } from './runner.ts';

/** Maps a run and its report to what the HTML renderer draws (prices: the mark, per sample). */
export function reportHtmlInput(r: BacktestResult, report: BacktestReport): ReportHtmlInput {
  const m = report.metrics;
  const params = report.params !== null && typeof report.params === 'object' && !Array.isArray(report.params) ? (report.params as { [key: string]: JsonValue }) : { value: (report.params ?? null) as JsonValue };
  return {
    title: `${report.strategy} on ${report.scenario}`,
    strategy: report.strategy,
    params,
    scenario: report.scenario,
    seed: report.seed,
    stateHash: report.state_hash,
    startTime: r.startNs.toString(),
    endTime: r.endNs.toString(),
    metrics: METRIC_ROWS.map((row) => {
      const metric = { key: row.key, label: row.label, value: formatMetric(m, row) };
      return { ...metric, ...(row.unit !== undefined ? { unit: row.unit } : {}), ...(row.headline === true ? { headline: true } : {}) };
    }),
    pnl: {
      realized: m.realized_trading_pnl,
      fees: formatMoney(-r.final.fees),
      funding: formatMoney(r.final.funding),
      unrealized: m.unrealized_pnl,
      net: m.net_pnl,
    },
    series: {
      equity: r.samples.map((s) => ({ tNs: s.tNs.toString(), equity: formatMoney(s.equity) })),
      positions: r.symbols.map((symbol) => ({ symbol, points: positionSteps(r, symbol) })),
      prices: r.symbols.map((symbol, i) => ({ symbol, label: 'mark price', points: r.samples.map((s) => ({ tNs: s.tNs.toString(), price: s.marks[i]! })) })),
      fills: r.fills.map((f) => ({ tNs: f.tNs.toString(), symbol: f.symbol, side: f.side, price: f.price, qty: String(f.qty), liquidity: f.maker ? ('maker' as const) : ('taker' as const) })),
    },
  };
}

/** Net position of `symbol` after every fill, from 0 at the start to the end of the run. */
function positionSteps(r: BacktestResult, symbol: string): { tNs: string; qty: string }[] {
  const points = [{ tNs: r.startNs.toString(), qty: '0' }];
  let last = 0;
  for (const f of r.fills) {
    if (f.symbol !== symbol) continue;
    points.push({ tNs: f.tNs.toString(), qty: String(f.positionAfter) });
    last = f.positionAfter;
  }
  points.push({ tNs: r.endNs.toString(), qty: String(last) });
  return points;
}
