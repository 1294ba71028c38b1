import type { SymbolFactsReport } from './market-facts.ts';
import type { TargetCheck } from './targets.ts';

/** A report column: a heading (the input and symbol) and its facts. */
export interface FactsColumn {
  heading: string;
  facts: SymbolFactsReport;
}

type Row = [label: string, value: (f: SymbolFactsReport) => string];

const num = (x: number, digits: number): string => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
const pct = (x: number, digits = 1): string => (Number.isFinite(x) ? `${(x * 100).toFixed(digits)}%` : 'n/a');

const ROWS: Row[] = [
  ['duration (s)', (f) => num(f.duration_sec, 0)],
  ['tick / lot', (f) => `${f.tick_size ?? '?'} / ${f.lot_size ?? '?'}`],
  ['spread from', (f) => f.spread.source],
  ['spread = 1 tick (time)', (f) => pct(f.spread.share_1_tick)],
  ['spread mean / p95 (ticks)', (f) => `${num(f.spread.mean_ticks, 2)} / ${num(f.spread.p95_ticks, 0)}`],
  ['touch depth (lots)', (f) => num(f.depth.touch_lots, 1)],
  ['depth ≤1/2/5/10 ticks (lots)', (f) => ['1', '2', '5', '10'].map((d) => num(f.depth.within_ticks[d]!, 0)).join(' / ')],
  ['depth 10 / 1 ticks', (f) => num(f.depth.ratio_10_to_1_ticks, 2)],
  ['depth ≤1/2/5/10 bps (lots)', (f) => ['1', '2', '5', '10'].map((d) => num(f.depth.within_bps[d]!, 0)).join(' / ')],
  ['depth 10 / 1 bps', (f) => num(f.depth.ratio_10_to_1_bps, 2)],
  ['trades', (f) => String(f.trades.count)],
  ['trade size median / p95 (lots)', (f) => `${num(f.trades.size_median_lots, 1)} / ${num(f.trades.size_p95_lots, 1)}`],
  ['trade size tail index', (f) => num(f.trades.size_tail_index, 2)],
  ['inter-arrival median / p95 (ms)', (f) => `${num(f.trades.interarrival_median_ms, 1)} / ${num(f.trades.interarrival_p95_ms, 1)}`],
  ['returns (horizon s)', (f) => `${f.returns.count} (${f.returns.horizon_sec})`],
  ['Hill tail index |r|', (f) => num(f.returns.hill_tail_index, 2)],
  ['kurtosis r', (f) => num(f.returns.kurtosis, 1)],
  ['ACF(r, 1)', (f) => num(f.returns.acf[0]!, 3)],
  ['max |ACF(r, 1..10)|', (f) => num(f.returns.max_abs_acf, 3)],
  ['ACF(|r|) lag 1 / 10 / 30 / 60', (f) => [0, 9, 29, 59].map((i) => num(f.returns.abs_acf[i]!, 2)).join(' / ')],
  ['ACF(|r|) > 0 through lag', (f) => String(f.returns.abs_acf_positive_through_lag)],
  ['volume-|r| correlation', (f) => num(f.returns.volume_abs_return_corr, 3)],
  ['basis mark / mid (bps)', (f) => `${num(f.basis.mean_bps, 2)} / ${num(f.basis.mid_mean_bps, 2)}`],
  ['funding settlements', (f) => String(f.funding.settlements)],
  ['funding mean |rate| per 8 h', (f) => pct(f.funding.mean_abs_rate_per_8h, 4)],
  ['funding sign = basis sign', (f) => pct(f.funding.sign_follows_basis, 0)],
];

/** The facts side by side, one column per input symbol, for people. */
export function formatFactsTable(columns: readonly FactsColumn[]): string {
  const cells = ROWS.map(([label, value]) => [label, ...columns.map((c) => value(c.facts))]);
  const header = ['measure', ...columns.map((c) => c.heading)];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(header), ...cells.map(line)].join('\n') + '\n';
}

/** Target checks as lines: `met` / `MISSED`, target, value. */
export function formatTargets(heading: string, checks: readonly TargetCheck[]): string {
  const width = Math.max(...checks.map((c) => c.target.length));
  return `targets for ${heading}:\n` + checks.map((c) => `  ${c.met ? 'met   ' : 'MISSED'}  ${c.target.padEnd(width)}  ${c.value}`).join('\n') + '\n';
}

/** JSON text of reports, NaN and infinities as null. */
export function factsJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v));
}
