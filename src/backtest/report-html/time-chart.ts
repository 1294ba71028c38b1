import { downsampleMinMax, type XY } from './downsample.ts';
import { escapeHtml } from './escape.ts';
import { c, linePath, stepPath } from './svg.ts';
import { formatTick, niceTicks, timeTicks } from './ticks.ts';

/**
 * One chart over time as static SVG: UTC time axis, value axis with nice ticks, grid, lines
 * (plain, step, or filled), fill markers, reference lines and one highlighted point. Long
 * series are downsampled to about two points per pixel column; markers to one per 3-pixel
 * cell, so the page stays small whatever the run's length.
 */

export const CHART_WIDTH = 960;
const MARGIN = { left: 76, right: 20, top: 16, bottom: 44 } as const;
const MARKER_CELL = 3;

export interface LineLayer {
  readonly xy: XY;
  /** CSS class of the line (and `<cls>-area` of its fill). */
  readonly cls: string;
  /** Hold each value until the next sample (positions). */
  readonly step?: boolean;
  /** Fill under the line down to the plot's bottom, or toward zero (split by sign). */
  readonly area?: 'bottom' | 'zero';
}

export interface MarkerLayer {
  readonly xy: XY;
  readonly cls: string;
  readonly shape: 'up' | 'down';
}

export interface TimeChartSpec {
  /** `data-chart` value and id prefix; made by the renderer, never user text. */
  readonly id: string;
  readonly title: string;
  readonly yLabel: string;
  readonly t0: bigint;
  readonly t1: bigint;
  readonly height: number;
  readonly lines: readonly LineLayer[];
  readonly markers?: readonly MarkerLayer[];
  readonly refLines?: readonly { readonly y: number; readonly cls: string; readonly label?: string }[];
  readonly highlight?: { readonly x: number; readonly y: number; readonly label: string };
  readonly includeZero?: boolean;
  /** Values are whole counts (contracts): whole tick steps. */
  readonly integer?: boolean;
}

export function renderTimeChart(spec: TimeChartSpec): string {
  const width = CHART_WIDTH;
  const { height, t0, t1, id } = spec;
  const left = MARGIN.left;
  const top = MARGIN.top;
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const span = Number(t1 > t0 ? t1 - t0 : 1n);
  const px = (x: number): number => left + (x / span) * plotW;

  const lines = spec.lines.map((l) => ({ ...l, xy: downsampleMinMax(l.xy, 0, span, plotW) }));
  const markers = spec.markers ?? [];
  const refLines = spec.refLines ?? [];

  let lo = Infinity;
  let hi = -Infinity;
  const see = (v: number): void => {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  };
  for (const l of lines) l.xy.y.forEach(see);
  for (const m of markers) m.xy.y.forEach(see);
  for (const r of refLines) see(r.y);
  if (spec.includeZero === true) see(0);
  if (lo === Infinity) lo = hi = 0;
  // A little air so lines at the extremes are not drawn on the frame.
  const pad = (hi - lo) * 0.03;
  if (pad > 0) {
    lo = lo < 0 || spec.includeZero !== true ? lo - pad : lo;
    hi = hi > 0 || spec.includeZero !== true ? hi + pad : hi;
  }
  const yt = niceTicks(lo, hi, Math.max(3, Math.round(plotH / 45)), spec.integer === true);
  const py = (y: number): number => top + ((yt.max - y) / (yt.max - yt.min)) * plotH;
  const bottom = top + plotH;

  const out: string[] = [];
  out.push(
    `<svg class="chart" data-chart="${id}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(spec.title)}">`,
    `<defs><clipPath id="${id}-clip"><rect x="${left}" y="${top}" width="${plotW}" height="${plotH}"/></clipPath>`,
  );
  const zeroY = Math.min(bottom, Math.max(top, py(0)));
  const needsSign = lines.some((l) => l.area === 'zero');
  if (needsSign) {
    out.push(
      `<clipPath id="${id}-pos"><rect x="${left}" y="${top}" width="${plotW}" height="${c(zeroY - top)}"/></clipPath>`,
      `<clipPath id="${id}-neg"><rect x="${left}" y="${c(zeroY)}" width="${plotW}" height="${c(bottom - zeroY)}"/></clipPath>`,
    );
  }
  out.push('</defs>');

  // Grid and value axis.
  out.push('<g class="grid">');
  for (const v of yt.values) out.push(`<line x1="${left}" x2="${left + plotW}" y1="${c(py(v))}" y2="${c(py(v))}"/>`);
  const tticks = timeTicks(t0, t1, Math.max(2, Math.floor(plotW / 90)));
  for (const t of tticks) {
    const x = c(px(Number(t.tNs - t0)));
    out.push(`<line x1="${x}" x2="${x}" y1="${top}" y2="${bottom}"/>`);
  }
  out.push('</g><g class="axis">');
  for (const v of yt.values) {
    out.push(`<text x="${left - 8}" y="${c(py(v) + 4)}" text-anchor="end">${escapeHtml(formatTick(v, yt.step))}</text>`);
  }
  for (const t of tticks) {
    const x = c(px(Number(t.tNs - t0)));
    out.push(`<line class="tick" x1="${x}" x2="${x}" y1="${bottom}" y2="${bottom + 5}"/>`);
    out.push(`<text x="${x}" y="${bottom + 18}" text-anchor="middle">${t.label}</text>`);
    if (t.date !== undefined) out.push(`<text class="date" x="${x}" y="${bottom + 33}" text-anchor="middle">${t.date}</text>`);
  }
  out.push(
    `<text class="axis-title" x="${left + plotW}" y="${height - 4}" text-anchor="end">time (UTC)</text>`,
    `<text class="axis-title" transform="translate(14 ${c(top + plotH / 2)}) rotate(-90)" text-anchor="middle">${escapeHtml(spec.yLabel)}</text>`,
    '</g>',
  );

  // Data, clipped to the plot area.
  out.push(`<g clip-path="url(#${id}-clip)">`);
  for (const r of refLines) {
    out.push(`<line class="${r.cls}" x1="${left}" x2="${left + plotW}" y1="${c(py(r.y))}" y2="${c(py(r.y))}"/>`);
  }
  lines.forEach((l, li) => {
    if (l.xy.x.length === 0) return;
    const d = l.step === true ? stepPath(l.xy, px, py, span) : linePath(l.xy, px, py);
    if (l.area !== undefined) {
      const base = c(l.area === 'bottom' ? bottom : zeroY);
      const last = l.step === true ? span : l.xy.x[l.xy.x.length - 1]!;
      const area = `${d}L${c(px(last))},${base}L${c(px(l.xy.x[0]!))},${base}Z`;
      if (l.area === 'zero') {
        // One area, drawn twice through <use>: clipped above zero (long) and below (short).
        out.push(`<defs><path id="${id}-area${li}" d="${area}"/></defs>`);
        out.push(`<use href="#${id}-area${li}" class="${l.cls}-area pos" clip-path="url(#${id}-pos)"/>`);
        out.push(`<use href="#${id}-area${li}" class="${l.cls}-area neg" clip-path="url(#${id}-neg)"/>`);
      } else {
        out.push(`<path class="${l.cls}-area" d="${area}"/>`);
      }
    }
    out.push(
      l.xy.x.length === 1 && l.step !== true
        ? `<circle class="${l.cls}-dot" cx="${c(px(l.xy.x[0]!))}" cy="${c(py(l.xy.y[0]!))}" r="3"/>`
        : `<path class="${l.cls}" d="${d}"/>`,
    );
  });
  for (const m of markers) {
    const d = markerPath(m, px, py);
    if (d !== '') out.push(`<path class="${m.cls}" d="${d}"/>`);
  }
  out.push('</g>');
  for (const r of refLines) {
    if (r.label !== undefined) {
      out.push(`<text class="ref-label" x="${left + plotW - 4}" y="${c(py(r.y) - 5)}" text-anchor="end">${escapeHtml(r.label)}</text>`);
    }
  }
  if (spec.highlight !== undefined) {
    const h = spec.highlight;
    const x = px(h.x);
    const y = py(h.y);
    const anchor = x > left + plotW * 0.7 ? 'end' : 'start';
    const dx = anchor === 'end' ? -8 : 8;
    out.push(
      `<circle class="highlight" cx="${c(x)}" cy="${c(y)}" r="4"/>`,
      `<text class="highlight-label" x="${c(x + dx)}" y="${c(Math.min(bottom - 6, y + 4))}" text-anchor="${anchor}">${escapeHtml(h.label)}</text>`,
    );
  }
  out.push(`<rect class="frame" x="${left}" y="${top}" width="${plotW}" height="${plotH}"/>`, '</svg>');
  return out.join('');
}

/** Triangles (up for buys, down for sells) in one path, at most one per 3-pixel cell. */
function markerPath(m: MarkerLayer, px: (x: number) => number, py: (y: number) => number): string {
  const seen = new Set<string>();
  let d = '';
  for (let i = 0; i < m.xy.x.length; i++) {
    const x = px(m.xy.x[i]!);
    const y = py(m.xy.y[i]!);
    const cell = Math.floor(x / MARKER_CELL) + ':' + Math.floor(y / MARKER_CELL);
    if (seen.has(cell)) continue;
    seen.add(cell);
    d += m.shape === 'up' ? `M${c(x)},${c(y - 4.5)}l5,8h-10z` : `M${c(x)},${c(y + 4.5)}l5,-8h-10z`;
  }
  return d;
}
