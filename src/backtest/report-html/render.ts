import { formatTimestampNs, parseTimestamp } from '../../core/time.ts';
import { drawdownFromEquity } from './drawdown.ts';
import type { XY } from './downsample.ts';
import { escapeHtml } from './escape.ts';
import type { ReportFill, ReportHtmlInput, ReportMetric, ReportSymbolSeries } from './input.ts';
import { pnlBars, renderPnlChart } from './pnl-chart.ts';
import { toXY } from './series.ts';
import { REPORT_CSS } from './style.ts';
import { formatNumber } from './ticks.ts';
import { renderTimeChart, type MarkerLayer } from './time-chart.ts';

/**
 * report.html: one self-contained page (inline CSS and SVG, no script, no network; a CSP
 * forbids both) with the run's equity, drawdown, PnL parts, price with the strategy's fills and
 * position per symbol, the metrics, parameters, seed and state hash.
 *
 * Pure and deterministic: the same input gives byte-identical HTML (no clock, no locale).
 * Every piece of input text is escaped. Charts span [startTime, endTime]; samples outside it
 * are clipped. Empty series show a message instead of a chart.
 *
 * @throws RangeError naming the field if a time or number in the input is malformed.
 */
export function renderReportHtml(input: ReportHtmlInput): string {
  const t0 = parseTime(input.startTime, 'startTime');
  const end = parseTime(input.endTime, 'endTime');
  const t1 = end > t0 ? end : t0 + 1_000_000_000n;
  const money = input.currency === undefined || input.currency === '' ? 'equity' : `equity (${input.currency})`;
  const ccy = input.currency ?? '';

  const body: string[] = [
    header(input, t0, end),
    cards(input),
    equitySection(input, t0, t1, money),
    drawdownSection(input, t0, t1, ccy),
    pnlSection(input, ccy),
    ...symbolsOf(input).map((symbol, i) => symbolSection(input, symbol, i, t0, t1)),
    metricsSection(input.metrics),
    runSection(input, t0, end),
  ];
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<link rel="icon" href="data:,">',
    `<title>${escapeHtml(input.title)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head><body><main>',
    ...body,
    '<footer>perpsim backtest report · all times UTC</footer>',
    '</main></body></html>',
    '',
  ].join('\n');
}

function parseTime(text: string, what: string): bigint {
  const t = /^-?\d+$/.test(text) ? BigInt(text) : parseTimestamp(text);
  if (t === undefined) throw new RangeError(`report: ${what} must be integer nanoseconds or RFC 3339, got ${JSON.stringify(text)}`);
  return t;
}

/** "2025-09-24 05:20:25 UTC", with the fraction only when there is one. */
function utc(tNs: bigint): string {
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
    `<p class="sub">${utc(t0)} → ${utc(end)} (${end > t0 ? duration(end - t0) : '0s'})</p></header>`
  );
}

function signClass(value: string): string {
  const v = Number(value);
  return v > 0 ? ' pos-v' : v < 0 ? ' neg-v' : '';
}

function cards(input: ReportHtmlInput): string {
  const card = (label: string, value: string, unit: string | undefined, cls: string): string =>
    `<div class="card"><div class="k">${escapeHtml(label)}</div><div class="v${cls}">${escapeHtml(value)}` +
    (unit === undefined || unit === '' ? '' : `<small>${escapeHtml(unit)}</small>`) +
    '</div></div>';
  const items = [card('net PnL', input.pnl.net, input.currency, signClass(input.pnl.net))];
  // Net PnL always leads (from `pnl.net`, coloured by sign), so a `net_pnl` metric is not repeated.
  for (const m of input.metrics) if (m.headline === true && m.key !== 'net_pnl') items.push(card(m.label, m.value, m.unit, ''));
  return `<div class="cards">${items.join('')}</div>`;
}

function section(title: string, note: string, content: string, legend = ''): string {
  return `<section><h2>${escapeHtml(title)}</h2>${note === '' ? '' : `<p class="note">${note}</p>`}${legend}${content}</section>`;
}

function empty(chart: string, message: string): string {
  return `<p class="empty" data-chart-empty="${chart}">${escapeHtml(message)}</p>`;
}

function swatch(color: string, label: string): string {
  return `<span><i class="swatch" style="background:var(--${color})"></i>${escapeHtml(label)}</span>`;
}

function equitySection(input: ReportHtmlInput, t0: bigint, t1: bigint, yLabel: string): string {
  const points = input.series.equity;
  if (points.length === 0) return section('Equity', '', empty('equity', 'No equity samples in this run.'));
  const xy = toXY(points, t0, (p) => p.tNs, (p) => p.equity, 'series.equity');
  const first = points[0]!.equity;
  const chart = renderTimeChart({
    id: 'equity',
    title: 'Equity over time',
    yLabel,
    t0,
    t1,
    height: 300,
    lines: [{ xy, cls: 'equity', area: 'bottom' }],
    refLines: [{ y: xy.y[0]!, cls: 'ref', label: `start ${formatNumber(Number(first), 2)}` }],
  });
  const last = points[points.length - 1]!.equity;
  const note = `${points.length} samples · from <span class="mono">${escapeHtml(first)}</span> to <span class="mono">${escapeHtml(last)}</span>`;
  return section('Equity', note, chart, `<div class="legend">${swatch('blue', 'equity (cash + unrealized)')}</div>`);
}

function drawdownSection(input: ReportHtmlInput, t0: bigint, t1: bigint, ccy: string): string {
  const points = input.series.drawdown ?? drawdownFromEquity(input.series.equity);
  if (points.length === 0) return section('Drawdown', '', empty('drawdown', 'No equity samples, so no drawdown.'));
  const xy = toXY(points, t0, (p) => p.tNs, (p) => p.drawdown, 'series.drawdown');
  const worst = argMin(xy);
  const worstText = points[worst.index]?.drawdown ?? '0';
  const chart = renderTimeChart({
    id: 'drawdown',
    title: 'Drawdown from the running peak of equity',
    yLabel: ccy === '' ? 'drawdown' : `drawdown (${ccy})`,
    t0,
    t1,
    height: 220,
    lines: [{ xy, cls: 'drawdown', area: 'zero' }],
    includeZero: true,
    ...(worst.value < 0 ? { highlight: { x: worst.x, y: worst.value, label: `max ${formatNumber(worst.value, 2)}` } } : {}),
  });
  const note = `equity minus its running peak · deepest <span class="mono">${escapeHtml(worstText)}</span>` +
    (worst.value < 0 ? ` at ${utc(t0 + BigInt(Math.round(worst.x)))}` : '');
  return section('Drawdown', note, chart);
}

/** The first lowest point of a series (the input order decides ties). */
function argMin(xy: XY): { index: number; x: number; value: number } {
  let index = 0;
  for (let i = 1; i < xy.y.length; i++) if (xy.y[i]! < xy.y[index]!) index = i;
  return { index, x: xy.x[index] ?? 0, value: xy.y[index] ?? 0 };
}

function pnlSection(input: ReportHtmlInput, ccy: string): string {
  const bars = pnlBars(input.pnl);
  const rows = bars
    .map((b) => `<tr${b.total === true ? ' class="total"' : ''}><td>${escapeHtml(b.label)}</td><td class="num${signClass(b.value)}">${escapeHtml(b.value)}</td></tr>`)
    .join('');
  const note = 'net = realized trading PnL + fees + funding + unrealized at the end (signed: fees paid and funding paid are negative)';
  const table = `<table class="pnl"><thead><tr><th>part</th><th style="text-align:right">${escapeHtml(ccy === '' ? 'amount' : ccy)}</th></tr></thead><tbody>${rows}</tbody></table>`;
  return section('PnL decomposition', note, renderPnlChart(bars, ccy === '' ? 'PnL' : `PnL (${ccy})`) + table);
}

/** Symbols in first-appearance order: prices, then positions, then fills. */
function symbolsOf(input: ReportHtmlInput): string[] {
  const seen = new Set<string>();
  for (const s of input.series.prices) seen.add(s.symbol);
  for (const s of input.series.positions) seen.add(s.symbol);
  for (const f of input.series.fills) seen.add(f.symbol);
  return [...seen];
}

const MARKERS: readonly { side: 'B' | 'S'; liquidity: 'maker' | 'taker'; cls: string; label: string }[] = [
  { side: 'B', liquidity: 'maker', cls: 'fill-buy-maker', label: 'buy (maker)' },
  { side: 'B', liquidity: 'taker', cls: 'fill-buy-taker', label: 'buy (taker)' },
  { side: 'S', liquidity: 'maker', cls: 'fill-sell-maker', label: 'sell (maker)' },
  { side: 'S', liquidity: 'taker', cls: 'fill-sell-taker', label: 'sell (taker)' },
];

function fillsXY(fills: readonly ReportFill[], t0: bigint): XY {
  return toXY(fills, t0, (f) => f.tNs, (f) => f.price, 'series.fills');
}

function symbolSection(input: ReportHtmlInput, symbol: string, i: number, t0: bigint, t1: bigint): string {
  const fills = input.series.fills.filter((f) => f.symbol === symbol);
  const price = input.series.prices.find((s) => s.symbol === symbol);
  const pos = input.series.positions.find((s) => s.symbol === symbol);
  const markers: MarkerLayer[] = [];
  const legend: string[] = [];
  if (price !== undefined && price.points.length > 0) legend.push(swatch('slate', price.label ?? 'price'));
  for (const m of MARKERS) {
    const group = fills.filter((f) => f.side === m.side && f.liquidity === m.liquidity);
    if (group.length === 0) continue;
    markers.push({ xy: fillsXY(group, t0), cls: m.cls, shape: m.side === 'B' ? 'up' : 'down' });
    const tri = m.side === 'B' ? 'M9,1.5l5,8h-10z' : 'M9,10.5l5,-8h-10z';
    legend.push(`<span><svg viewBox="0 0 18 12" aria-hidden="true"><path class="${m.cls}" d="${tri}"/></svg>${m.label} ${group.length}</span>`);
  }
  const priceXY = price === undefined ? undefined : toXY(price.points, t0, (p) => p.tNs, (p) => p.price, `series.prices[${symbol}]`);
  const priceChart =
    (priceXY === undefined || priceXY.x.length === 0) && markers.length === 0
      ? empty(`price-${i}`, `No prices or fills for ${symbol}.`)
      : renderTimeChart({
          id: `price-${i}`,
          title: `${symbol} price with the strategy's fills`,
          yLabel: 'price',
          t0,
          t1,
          height: 320,
          lines: priceXY === undefined ? [] : [{ xy: priceXY, cls: 'price' }],
          markers,
        });
  const posXY = pos === undefined ? undefined : toXY(pos.points, t0, (p) => p.tNs, (p) => p.qty, `series.positions[${symbol}]`);
  const posChart =
    posXY === undefined || posXY.x.length === 0
      ? empty(`position-${i}`, `No position samples for ${symbol}.`)
      : renderTimeChart({
          id: `position-${i}`,
          title: `${symbol} position over time`,
          yLabel: 'position (contracts)',
          t0,
          t1,
          height: 200,
          lines: [{ xy: posXY, cls: 'position', step: true, area: 'zero' }],
          refLines: [{ y: 0, cls: 'ref-zero' }],
          includeZero: true,
          integer: posXY.y.every(Number.isInteger),
        });
  const buys = fills.filter((f) => f.side === 'B').length;
  const note =
    `${fills.length} fills (${buys} buys, ${fills.length - buys} sells)` +
    (fills.length > 0 ? ` · volume <span class="mono">${escapeHtml(volume(fills))}</span> contracts` : '');
  return section(
    symbol,
    note,
    `<h3>${escapeHtml(price?.label ?? 'price')} and fills</h3><div class="legend">${legend.join('')}</div>${priceChart}` +
      `<h3>position</h3><div class="legend"><span><i class="swatch" style="background:var(--green)"></i>long</span>` +
      `<span><i class="swatch" style="background:var(--red)"></i>short</span></div>${posChart}`,
  );
}

/** Total filled quantity, summed as text-exact decimals via integers of the finest scale. */
function volume(fills: readonly ReportFill[]): string {
  let scale = 0;
  for (const f of fills) scale = Math.max(scale, (f.qty.split('.')[1] ?? '').length);
  let total = 0n;
  fills.forEach((f, i) => {
    if (!/^\d+(\.\d+)?$/.test(f.qty)) throw new RangeError(`report: fills[${i}].qty is not a positive decimal: ${JSON.stringify(f.qty)}`);
    const [int = '0', frac = ''] = f.qty.split('.');
    total += BigInt(int + frac.padEnd(scale, '0'));
  });
  const digits = total.toString().padStart(scale + 1, '0');
  return scale === 0 ? digits : (digits.slice(0, -scale) + '.' + digits.slice(-scale)).replace(/\.?0+$/, '');
}

function metricsSection(metrics: readonly ReportMetric[]): string {
  if (metrics.length === 0) return section('Metrics', '', empty('metrics', 'No metrics.'));
  const rows = metrics
    .map(
      (m) =>
        `<tr><td>${escapeHtml(m.label)}</td><td class="num">${escapeHtml(m.value)}${m.unit === undefined || m.unit === '' ? '' : ' ' + escapeHtml(m.unit)}</td>` +
        `<td class="key mono">${escapeHtml(m.key)}</td></tr>`,
    )
    .join('');
  return section(
    'Metrics',
    '',
    `<table class="metrics"><thead><tr><th>metric</th><th style="text-align:right">value</th><th>key in report.json</th></tr></thead><tbody>${rows}</tbody></table>`,
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
