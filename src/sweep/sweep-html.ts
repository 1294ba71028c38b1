import { Decimal } from 'decimal.js';
import { escapeHtml } from '../backtest/report-html/escape.ts';
import { pageHead } from '../backtest/report-html/page-head.ts';
import { REPORT_CSS } from '../backtest/report-html/style.ts';
import { canonicalJson } from './canonical-json.ts';
import { metricStats, numericMetrics, rankGroups, variedParams, type RankedGroup } from './ranking.ts';
import type { ResultRow } from './results.ts';

/** What sweep.html shows. */
export interface SweepHtmlInput {
  strategy: string;
  market: string;
  rows: readonly ResultRow[];
  /** The metric ranked by (mean over seeds) and shown in the heatmap. */
  rankBy: string;
  /** Two params for the heatmap (default: the first two the sweep varied). */
  heatmap?: readonly [string, string];
  /** Runs of the plan that failed or are missing (listed, never silently dropped). */
  missing?: readonly { id: string; message: string }[];
}

const SWEEP_CSS = `
table.rank{border-collapse:collapse;width:100%;font-size:12.5px}
table.rank th,table.rank td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:right;white-space:nowrap}
table.rank th:nth-child(2),table.rank td:nth-child(2){text-align:left;white-space:normal;overflow-wrap:anywhere}
table.heat td{padding:6px 10px;text-align:center;font-variant-numeric:tabular-nums;border:1px solid #fff}
table.heat th{padding:4px 8px;color:var(--muted);font-weight:600}
.scroll{overflow-x:auto}
.dist{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:10px 18px}
`;

/**
 * sweep.html: one self-contained page (inline CSS and SVG, no script, no requests; a CSP
 * forbids them): the ranking of params sets by the mean of a metric over seeds (with spread,
 * min and max, so a lucky seed cannot win), a heatmap of that mean over two params, and each
 * metric's distribution across seeds per params set. Pure: same input, same bytes.
 */
export function renderSweepHtml(input: SweepHtmlInput): string {
  const ranked = rankGroups(input.rows, input.rankBy);
  const varied = variedParams(ranked);
  const title = `Sweep: ${input.strategy} on ${input.market}`;
  const seeds = new Set(input.rows.map((r) => r.seed)).size;
  const body = [
    `<header><h1>${escapeHtml(title)}</h1><p class="sub"><b>${input.rows.length}</b> runs · <b>${ranked.length}</b> params sets · <b>${seeds}</b> seeds · ranked by the mean of <b>${escapeHtml(input.rankBy)}</b> over seeds</p></header>`,
    missingSection(input.missing ?? []),
    rankingSection(ranked, varied, input.rankBy),
    heatmapSection(ranked, input.heatmap ?? (varied.length >= 2 ? [varied[0]!, varied[1]!] : undefined), input.rankBy),
    distributionSection(input.rows, ranked, varied),
  ];
  return [
    ...pageHead(title, REPORT_CSS + SWEEP_CSS, { inlineScripts: false }),
    ...body.filter((s) => s !== ''),
    '<footer>perpsim sweep report</footer>',
    '</main></body></html>',
    '',
  ].join('\n');
}

/** A decimal shown with 6 significant digits ("–" when undefined). */
export function fmt(d: Decimal | null): string {
  return d === null ? '–' : d.toSignificantDigits(6).toString();
}

/** A params set as text: the varied params only (all of them when nothing varied). */
export function paramsLabel(params: Record<string, unknown>, varied: readonly string[]): string {
  const keys = varied.length > 0 ? varied : Object.keys(params).sort();
  return keys.map((k) => `${k}=${canonicalJson(params[k] ?? null)}`).join(' ');
}

function missingSection(missing: readonly { id: string; message: string }[]): string {
  if (missing.length === 0) return '';
  const items = missing.map((m) => `<li><code>${escapeHtml(m.id)}</code> ${escapeHtml(m.message)}</li>`).join('');
  return `<section><h2>Runs without a result (${missing.length})</h2><ul>${items}</ul></section>`;
}

function rankingSection(ranked: readonly RankedGroup[], varied: readonly string[], metric: string): string {
  const head = `<tr><th>#</th><th>params</th><th>seeds</th><th>mean</th><th>sd</th><th>min</th><th>max</th></tr>`;
  const rows = ranked.map((g) => {
    const s = g.stats;
    return `<tr><td>${g.rank}</td><td class="mono">${escapeHtml(paramsLabel(g.params, varied))}</td><td>${s.n}</td><td class="num">${fmt(s.mean)}</td><td class="num">${fmt(s.sd)}</td><td class="num">${fmt(s.min)}</td><td class="num">${fmt(s.max)}</td></tr>`;
  });
  return `<section><h2>Ranking by mean ${escapeHtml(metric)}</h2><p class="note">Mean and sample standard deviation over seeds; a params set that wins on one seed only shows a wide spread.</p><div class="scroll"><table class="rank">${head}${rows.join('')}</table></div></section>`;
}

function heatmapSection(ranked: readonly RankedGroup[], pair: readonly [string, string] | undefined, metric: string): string {
  if (pair === undefined) return `<section><h2>Heatmap</h2><p class="empty">The sweep varied fewer than two params.</p></section>`;
  const [a, b] = pair;
  const valuesOf = (k: string) => [...new Map(ranked.map((g) => [canonicalJson(g.params[k] ?? null), g.params[k]])).entries()].sort((x, y) => compareValues(x[1], y[1]));
  const rowsA = valuesOf(a);
  const colsB = valuesOf(b);
  // Mean of the per-set means where other params vary too (each cell says how many sets it averages).
  const cells = new Map<string, Decimal[]>();
  for (const g of ranked) {
    if (g.stats.mean === null) continue;
    const key = `${canonicalJson(g.params[a] ?? null)}|${canonicalJson(g.params[b] ?? null)}`;
    cells.set(key, [...(cells.get(key) ?? []), g.stats.mean]);
  }
  const means = new Map([...cells].map(([k, v]) => [k, v.reduce((s, x) => s.plus(x), new Decimal(0)).div(v.length)]));
  const all = [...means.values()];
  const lo = all.length === 0 ? new Decimal(0) : Decimal.min(...all);
  const hi = all.length === 0 ? new Decimal(0) : Decimal.max(...all);
  const head = `<tr><th>${escapeHtml(a)} \\ ${escapeHtml(b)}</th>${colsB.map(([k]) => `<th>${escapeHtml(k)}</th>`).join('')}</tr>`;
  const body = rowsA.map(([ka]) => {
    const tds = colsB.map(([kb]) => {
      const m = means.get(`${ka}|${kb}`);
      if (m === undefined) return '<td>–</td>';
      const t = hi.eq(lo) ? 0.5 : m.minus(lo).div(hi.minus(lo)).toNumber();
      return `<td style="background:${heatColor(t)}" title="${escapeHtml(`${a}=${ka} ${b}=${kb}`)}">${fmt(m)}</td>`;
    });
    return `<tr><th>${escapeHtml(ka)}</th>${tds.join('')}</tr>`;
  });
  return `<section><h2>Mean ${escapeHtml(metric)} over ${escapeHtml(a)} × ${escapeHtml(b)}</h2><p class="note">Each cell: the mean over seeds (averaged over any other varied params); red low, green high.</p><div class="scroll"><table class="heat">${head}${body.join('')}</table></div></section>`;
}

/** Red (0) → pale yellow (0.5) → green (1). */
function heatColor(t: number): string {
  const lerp = (x: number, y: number, u: number) => Math.round(x + (y - x) * u);
  const [r, g, b] = t < 0.5 ? [lerp(239, 254, t * 2), lerp(68, 249, t * 2), lerp(68, 195, t * 2)] : [lerp(254, 16, (t - 0.5) * 2), lerp(249, 185, (t - 0.5) * 2), lerp(195, 129, (t - 0.5) * 2)];
  return `rgb(${r},${g},${b})`;
}

function compareValues(x: unknown, y: unknown): number {
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const a = canonicalJson(x ?? null);
  const b = canonicalJson(y ?? null);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** At most this many params sets (the best ranked) per distribution chart. */
const DIST_GROUPS = 12;

function distributionSection(rows: readonly ResultRow[], ranked: readonly RankedGroup[], varied: readonly string[]): string {
  const groups = ranked.slice(0, DIST_GROUPS);
  const charts = numericMetrics(rows).map((m) => stripChart(m, groups, varied));
  const more = ranked.length > DIST_GROUPS ? ` (the ${DIST_GROUPS} best ranked of ${ranked.length} params sets)` : '';
  return `<section><h2>Each metric across seeds</h2><p class="note">One row per params set${more}, one dot per seed; the bar marks the mean.</p><div class="dist">${charts.join('')}</div></section>`;
}

function stripChart(metric: string, groups: readonly RankedGroup[], varied: readonly string[]): string {
  const stats = groups.map((g) => metricStats(g.rows, metric));
  const values = stats.flatMap((s) => s.values.map((v) => v.value));
  if (values.length === 0) return '';
  const lo = Decimal.min(...values);
  const hi = Decimal.max(...values);
  const W = 320;
  const rowH = 16;
  const left = 8;
  const right = 8;
  const top = 20;
  const H = top + groups.length * rowH + 16;
  const x = (v: Decimal) => (hi.eq(lo) ? (left + W - right) / 2 : left + v.minus(lo).div(hi.minus(lo)).toNumber() * (W - left - right)).toFixed(1);
  const parts: string[] = [`<text x="${left}" y="13" style="fill:var(--ink);font-weight:600">${escapeHtml(metric)}</text>`];
  stats.forEach((s, i) => {
    const y = top + i * rowH + rowH / 2;
    parts.push(`<line x1="${left}" x2="${W - right}" y1="${y}" y2="${y}" stroke="#eef0f3"/>`);
    for (const v of s.values) parts.push(`<circle cx="${x(v.value)}" cy="${y}" r="3" fill="#2563eb" fill-opacity="0.6"><title>${escapeHtml(`${paramsLabel(groups[i]!.params, varied)} seed ${v.seed}: ${fmt(v.value)}`)}</title></circle>`);
    if (s.mean !== null) parts.push(`<line x1="${x(s.mean)}" x2="${x(s.mean)}" y1="${y - 6}" y2="${y + 6}" stroke="#dc2626" stroke-width="2"/>`);
  });
  parts.push(`<text x="${left}" y="${H - 3}">${fmt(lo)}</text><text x="${W - right}" y="${H - 3}" text-anchor="end">${fmt(hi)}</text>`);
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(metric)} across seeds">${parts.join('')}</svg>`;
}
