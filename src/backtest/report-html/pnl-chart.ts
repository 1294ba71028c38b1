import { formatMoney, parseMoney } from '../../core/money.ts';
import { escapeHtml } from './escape.ts';
import type { ReportPnl } from './input.ts';
import { c } from './svg.ts';
import { formatNumber, formatTick, niceTicks } from './ticks.ts';

/**
 * The PnL decomposition as a waterfall: each part floats from the running total, net stands
 * on zero. Parts are summed exactly (Money); if they miss `net`, an "other" bar shows the rest
 * rather than hiding a mismatch.
 */

export interface PnlBar {
  readonly key: string;
  readonly label: string;
  /** Exact decimal text. */
  readonly value: string;
  readonly total?: boolean;
}

export function pnlBars(pnl: ReportPnl): PnlBar[] {
  const parts: PnlBar[] = [
    { key: 'realized', label: 'realized', value: pnl.realized },
    { key: 'fees', label: 'fees', value: pnl.fees },
    { key: 'funding', label: 'funding', value: pnl.funding },
    { key: 'unrealized', label: 'unrealized', value: pnl.unrealized },
  ];
  const money = (text: string, what: string): bigint => {
    try {
      return parseMoney(text);
    } catch {
      throw new RangeError(`report: pnl.${what} is not a decimal amount: ${JSON.stringify(text)}`);
    }
  };
  const sum = parts.reduce((s, p) => s + money(p.value, p.key), 0n);
  const rest = money(pnl.net, 'net') - sum;
  if (rest !== 0n) parts.push({ key: 'other', label: 'other', value: formatMoney(rest) });
  parts.push({ key: 'net', label: 'net PnL', value: pnl.net, total: true });
  return parts;
}

const WIDTH = 960;
const HEIGHT = 280;
const M = { left: 76, right: 20, top: 24, bottom: 40 } as const;

export function renderPnlChart(bars: readonly PnlBar[], yLabel: string): string {
  const plotW = WIDTH - M.left - M.right;
  const plotH = HEIGHT - M.top - M.bottom;
  // Floating segments [from, to] in plot numbers.
  let running = 0;
  const segs = bars.map((b) => {
    const v = Number(b.value);
    if (b.total === true) return { b, v, from: 0, to: v };
    const seg = { b, v, from: running, to: running + v };
    running += v;
    return seg;
  });
  const all = segs.flatMap((s) => [s.from, s.to]);
  const yt = niceTicks(Math.min(0, ...all), Math.max(0, ...all), 5);
  const py = (y: number): number => M.top + ((yt.max - y) / (yt.max - yt.min)) * plotH;
  const slot = plotW / bars.length;
  const barW = Math.min(90, slot * 0.56);

  const out: string[] = [
    `<svg class="chart" data-chart="pnl" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="PnL decomposition">`,
    '<g class="grid">',
  ];
  for (const v of yt.values) out.push(`<line x1="${M.left}" x2="${M.left + plotW}" y1="${c(py(v))}" y2="${c(py(v))}"/>`);
  out.push('</g><g class="axis">');
  for (const v of yt.values) {
    out.push(`<text x="${M.left - 8}" y="${c(py(v) + 4)}" text-anchor="end">${escapeHtml(formatTick(v, yt.step))}</text>`);
  }
  out.push(
    `<text class="axis-title" transform="translate(14 ${c(M.top + plotH / 2)}) rotate(-90)" text-anchor="middle">${escapeHtml(yLabel)}</text>`,
    '</g>',
  );
  segs.forEach((s, i) => {
    const cx = M.left + slot * (i + 0.5);
    const y1 = py(Math.max(s.from, s.to));
    const y2 = py(Math.min(s.from, s.to));
    const h = Math.max(1, y2 - y1);
    const cls = s.b.total === true ? 'bar total' : s.v >= 0 ? 'bar up' : 'bar down';
    out.push(`<rect class="${cls}" data-part="${s.b.key}" x="${c(cx - barW / 2)}" y="${c(y1)}" width="${c(barW)}" height="${c(h)}"/>`);
    if (i < segs.length - 1 && s.b.total !== true) {
      // Connector from this bar's end to the next bar's start.
      const nx = M.left + slot * (i + 1.5) - barW / 2;
      out.push(`<line class="connector" x1="${c(cx + barW / 2)}" x2="${c(nx)}" y1="${c(py(s.to))}" y2="${c(py(s.to))}"/>`);
    }
    const labelY = s.v >= 0 ? y1 - 6 : y1 + h + 14;
    const sign = s.v > 0 && s.b.total !== true ? '+' : '';
    out.push(`<text class="bar-value" x="${c(cx)}" y="${c(labelY)}" text-anchor="middle">${sign}${escapeHtml(formatNumber(s.v, Math.abs(s.v) >= 1 ? 2 : 6))}</text>`);
    out.push(`<text class="bar-label" x="${c(cx)}" y="${HEIGHT - 14}" text-anchor="middle">${escapeHtml(s.b.label)}</text>`);
  });
  out.push(`<line class="zero" x1="${M.left}" x2="${M.left + plotW}" y1="${c(py(0))}" y2="${c(py(0))}"/>`, '</svg>');
  return out.join('');
}
