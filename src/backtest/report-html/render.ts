import { readFileSync } from 'node:fs';
import { formatTimestampNs } from '../../core/time.ts';
import { lightweightChartsSource } from '../../web-assets/lightweight-charts.ts';
import { activeSymbols, chartData, parseTime, scriptJson } from './chart-data.ts';
import { escapeHtml } from './escape.ts';
import { pageHead } from './page-head.ts';
import type { ReportHtmlInput } from './input.ts';
import { REPORT_CSS } from './style.ts';
import { cards, fundingSection, metricsSection, money, pnlSection, rejectsSection, section, signClass } from './tables.ts';

let clientScript: string | undefined;
/** The page's own script (client/report.js), read once. */
function reportScript(): string {
  clientScript ??= readFileSync(new URL('./client/report.js', import.meta.url), 'utf8');
  return clientScript;
}

/**
 * report.html: one self-contained page that opens offline. Its charts are TradingView's
 * lightweight-charts, inlined (no CDN; a CSP forbids every network request), drawn from the
 * run's data embedded as JSON: price (the touch at fill resolution) with the strategy's fills as
 * markers, position, equity, drawdown, cumulative fees and funding, in panes of one chart that
 * share a zoomable time axis, with hover details. Tables: metrics (money rounded, exact on
 * hover), PnL parts, funding per settlement, rejects by reason; symbols without activity are
 * folded into one line.
 *
 * Pure and deterministic: the same input gives byte-identical HTML (no clock, no locale).
 * Every piece of input text is escaped; the data block escapes `<`.
 *
 * @throws RangeError naming the field if a time or number in the input is malformed.
 */
export function renderReportHtml(input: ReportHtmlInput): string {
  const t0 = parseTime(input.startTime, 'startTime');
  const end = parseTime(input.endTime, 'endTime');
  const t1 = end > t0 ? end : t0 + 1_000_000_000n;
  const data = chartData(input, t0, t1);
  const { idle } = activeSymbols(input);
  const hasCharts = data.equity.length > 0 || data.symbols.length > 0;
  const body: string[] = [
    header(input, t0, end),
    cards(input),
    hasCharts ? chartsSection(input, data.symbols.reduce((n, s) => n + s.fills.length, 0)) : section('Charts', '', empty('equity', 'No equity samples and no fills in this run.')),
    idle.length === 0 ? '' : `<p class="idle" data-idle-symbols="${idle.length}">No activity (no fills, no position) in ${idle.map(escapeHtml).join(', ')}.</p>`,
    pnlSection(input),
    metricsSection(input.metrics),
    fundingSection(input),
    rejectsSection(input),
    runSection(input, t0, end),
  ];
  return [
    ...pageHead(input.title, REPORT_CSS, { inlineScripts: true }),
    ...body.filter((b) => b !== ''),
    '<footer>perpsim backtest report · all times UTC · charts: TradingView Lightweight Charts™ (Apache-2.0)</footer>',
    '</main>',
    hasCharts ? `<script type="application/json" id="report-data">${scriptJson(data)}</script>` : '',
    hasCharts ? `<script>${lightweightChartsSource()}</script>` : '',
    hasCharts ? `<script>${reportScript()}</script>` : '',
    '</body></html>',
    '',
  ].join('\n');
}

/** "2025-09-24 05:20:25 UTC", with the fraction only when there is one. */
export function utc(tNs: bigint): string {
  const text = formatTimestampNs(tNs);
  const frac = text.slice(20, 29).replace(/0+$/, '');
  return text.slice(0, 10) + ' ' + text.slice(11, 19) + (frac === '' ? '' : '.' + frac) + ' UTC';
}

/** "1d 2h 3m 4s" (zero parts left out; sub-second runs in ms). */
function duration(ns: bigint): string {
  if (ns < 1_000_000_000n) return `${Number(ns) / 1e6}ms`;
  let s = ns / 1_000_000_000n;
  const parts: string[] = [];
  for (const [unit, size] of [['d', 86_400n], ['h', 3600n], ['m', 60n], ['s', 1n]] as const) {
    if (s >= size) {
      parts.push(`${s / size}${unit}`);
      s %= size;
    }
  }
  return parts.join(' ');
}

function header(input: ReportHtmlInput, t0: bigint, end: bigint): string {
  return (
    `<header><h1>${escapeHtml(input.title)}</h1>` +
    `<p class="sub">strategy <b>${escapeHtml(input.strategy)}</b> · scenario <b>${escapeHtml(input.scenario)}</b>` +
    ` · seed <b class="mono">${escapeHtml(String(input.seed))}</b></p>` +
    `<p class="sub period">${utc(t0)} → ${utc(end)} (${end > t0 ? duration(end - t0) : '0s'})` +
    (input.sampleInterval === undefined ? '' : ` · equity sampled every ${escapeHtml(input.sampleInterval)}`) +
    '</p></header>'
  );
}

function empty(chart: string, message: string): string {
  return `<p class="empty" data-chart-empty="${chart}">${escapeHtml(message)}</p>`;
}

function chartsSection(input: ReportHtmlInput, fills: number): string {
  const net = input.pnl.net;
  const note =
    `${fills} fills as markers (▲ buy, ▼ sell; small: maker, large: taker) · scroll or drag to zoom and pan, every pane follows · ` +
    `hover for values and fills · net PnL <span class="mono${signClass(net)}" title="${escapeHtml(net)}">${escapeHtml(money(net))}</span>`;
  return section(
    'Charts',
    note,
    '<div class="chart-wrap"><div id="charts" class="charts"></div><pre id="chart-tip" class="tip" hidden></pre></div>',
  );
}

function runSection(input: ReportHtmlInput, t0: bigint, end: bigint): string {
  const dl =
    `<dl><dt>strategy</dt><dd>${escapeHtml(input.strategy)}</dd>` +
    `<dt>scenario</dt><dd>${escapeHtml(input.scenario)}</dd>` +
    `<dt>seed</dt><dd class="mono">${escapeHtml(String(input.seed))}</dd>` +
    `<dt>state hash</dt><dd class="mono">${escapeHtml(input.stateHash)}</dd>` +
    `<dt>start</dt><dd class="mono">${formatTimestampNs(t0)}</dd>` +
    `<dt>end</dt><dd class="mono">${formatTimestampNs(end)}</dd></dl>`;
  const params = `<h3>parameters</h3><pre class="params">${escapeHtml(JSON.stringify(input.params, null, 2))}</pre>`;
  return section('Run', '', dl + params);
}
