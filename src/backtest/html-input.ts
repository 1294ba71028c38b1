import { formatMoney } from '../core/money.ts';
import { formatDuration } from '../core/time.ts';
import type { JsonValue, ReportHtmlInput } from './report-html/index.ts';
import type { ReportPricePoint } from './report-html/input.ts';
import { METRIC_ROWS, formatMetric } from './metric-table.ts';
import type { BacktestReport } from './report.ts';
import type { BacktestResult } from './runner.ts';

/**
 * Maps a run and its report to what the HTML renderer draws. Prices are the touch (best bid and
 * ask) at every equity sample and right after every fill, so fills sit on the drawn lines;
 * fees and funding are cumulative step series from the fills and settlements.
 */
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
    sampleInterval: formatDuration(r.sampleIntervalNs),
    metrics: METRIC_ROWS.map((row) => {
      const value = formatMetric(m, row);
      const raw = m[row.key];
      const metric = { key: row.key, label: row.label, value, ...(row.money === true && typeof raw === 'string' && raw !== value ? { exact: raw } : {}) };
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
      prices: r.symbols.map((symbol, i) => ({ symbol, label: 'touch', points: touchPoints(r, symbol, i) })),
      fills: r.fills.map((f) => ({
        tNs: f.tNs.toString(), symbol: f.symbol, side: f.side, price: f.price, qty: String(f.qty),
        liquidity: f.maker ? ('maker' as const) : ('taker' as const), fee: formatMoney(f.fee), realized: formatMoney(f.realized),
      })),
      fees: cumulative(r, r.fills.map((f) => ({ tNs: f.tNs, amount: f.fee }))),
      fundingPnl: cumulative(r, r.funding.map((f) => ({ tNs: f.tNs, amount: f.amount }))),
    },
    funding: r.funding.map((f) => ({ tNs: f.tNs.toString(), symbol: f.symbol, rate: f.rate, positionLots: f.positionLots, amount: formatMoney(f.amount) })),
    rejects: m.rejects_by_reason,
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

/** The touch of symbol `i` at the samples and after its fills, merged in time order. */
function touchPoints(r: BacktestResult, symbol: string, i: number): ReportPricePoint[] {
  const fills = r.fills.filter((f) => f.symbol === symbol);
  const out: ReportPricePoint[] = [];
  let k = 0;
  for (const s of r.samples) {
    for (; k < fills.length && fills[k]!.tNs <= s.tNs; k++) out.push({ tNs: fills[k]!.tNs.toString(), bid: fills[k]!.bid, ask: fills[k]!.ask });
    out.push({ tNs: s.tNs.toString(), bid: s.bids[i] ?? null, ask: s.asks[i] ?? null });
  }
  for (; k < fills.length; k++) out.push({ tNs: fills[k]!.tNs.toString(), bid: fills[k]!.bid, ask: fills[k]!.ask });
  return out;
}

/** Running sums of amounts (time order), starting at 0 at the start and carried to the end. */
function cumulative(r: BacktestResult, items: { tNs: bigint; amount: bigint }[]): { tNs: string; value: string }[] {
  if (items.every((it) => it.amount === 0n)) return [];
  let sum = 0n;
  const out = [{ tNs: r.startNs.toString(), value: '0' }];
  for (const it of items) {
    sum += it.amount;
    out.push({ tNs: it.tNs.toString(), value: formatMoney(sum) });
  }
  out.push({ tNs: r.endNs.toString(), value: formatMoney(sum) });
  return out;
}
