import { Decimal } from 'decimal.js';
import { displayMoney } from '../metric-table.ts';
import { formatTimestampNs } from '../../core/time.ts';
import { parseTime } from './chart-data.ts';
import { escapeHtml } from './escape.ts';
import type { ReportHtmlInput, ReportMetric } from './input.ts';

/** Money text rounded for people ("-1,234.57"); a RangeError naming the value if it is not a decimal. */
export function money(text: string): string {
  try {
    return displayMoney(text);
  } catch {
    throw new RangeError(`report: not a decimal amount: ${JSON.stringify(text)}`);
  }
}

export function signClass(value: string): string {
  const v = Number(value);
  return v > 0 ? ' pos-v' : v < 0 ? ' neg-v' : '';
}

export function section(title: string, note: string, content: string): string {
  return `<section><h2>${escapeHtml(title)}</h2>${note === '' ? '' : `<p class="note">${note}</p>`}${content}</section>`;
}

/** A number cell: the display text, with the exact value on hover when it differs. */
function numCell(display: string, exact: string | undefined, cls = ''): string {
  const title = exact === undefined || exact === display ? '' : ` title="${escapeHtml(exact)}"`;
  return `<td class="num${cls}"${title}>${escapeHtml(display)}</td>`;
}

/** Headline cards: net PnL (rounded, exact on hover, coloured by sign) and the headline metrics. */
export function cards(input: ReportHtmlInput): string {
  const card = (label: string, value: string, unit: string | undefined, cls: string, exact?: string): string =>
    `<div class="card"><div class="k">${escapeHtml(label)}</div><div class="v${cls}"${exact === undefined ? '' : ` title="${escapeHtml(exact)}"`}>${escapeHtml(value)}` +
    (unit === undefined || unit === '' ? '' : `<small>${escapeHtml(unit)}</small>`) +
    '</div></div>';
  const items = [card('net PnL', money(input.pnl.net), input.currency, signClass(input.pnl.net), input.pnl.net)];
  // Net PnL always leads (from `pnl.net`), so a `net_pnl` metric is not repeated.
  for (const m of input.metrics) if (m.headline === true && m.key !== 'net_pnl') items.push(card(m.label, m.value, m.unit, '', m.exact));
  return `<div class="cards">${items.join('')}</div>`;
}

/** net = realized trading PnL + fees + funding + unrealized, each rounded with the exact value on hover. */
export function pnlSection(input: ReportHtmlInput): string {
  const p = input.pnl;
  const parts: [string, string][] = [['realized trading PnL', p.realized], ['fees', p.fees], ['funding', p.funding], ['unrealized at the end', p.unrealized]];
  const sum = parts.reduce((a, [, v]) => a.plus(new Decimal(v)), new Decimal(0));
  if (!sum.eq(new Decimal(p.net))) parts.push(['other', new Decimal(p.net).minus(sum).toString()]);
  const rows = [...parts, ['net PnL', p.net] as [string, string]]
    .map(([label, v], i, all) => `<tr${i === all.length - 1 ? ' class="total"' : ''}><td>${escapeHtml(label)}</td>${numCell(money(v), v, signClass(v))}</tr>`)
    .join('');
  const ccy = input.currency ?? '';
  return section(
    'PnL decomposition',
    'signed contributions: fees paid and funding paid are negative; hover a figure for its exact value',
    `<table class="pnl"><thead><tr><th>part</th><th class="r">${escapeHtml(ccy === '' ? 'amount' : ccy)}</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

export function metricsSection(metrics: readonly ReportMetric[]): string {
  if (metrics.length === 0) return section('Metrics', '', '<p class="empty" data-chart-empty="metrics">No metrics.</p>');
  const rows = metrics
    .map((m) => {
      const unit = m.unit === undefined || m.unit === '' ? '' : ' ' + m.unit;
      return `<tr><td>${escapeHtml(m.label)}</td>${numCell(m.value + unit, m.exact === undefined ? undefined : m.exact + unit)}<td class="key mono">${escapeHtml(m.key)}</td></tr>`;
    })
    .join('');
  return section('Metrics', '', `<table class="metrics"><thead><tr><th>metric</th><th class="r">value</th><th>key in report.json</th></tr></thead><tbody>${rows}</tbody></table>`);
}

/** Funding per settlement: time, symbol, rate, position, amount (paid < 0, received > 0). */
export function fundingSection(input: ReportHtmlInput): string {
  const rows = input.funding ?? [];
  if (rows.length === 0) return input.funding === undefined ? '' : section('Funding', 'no funding settlement touched the account', '');
  let paid = new Decimal(0);
  let received = new Decimal(0);
  const body = rows
    .map((f, i) => {
      const a = new Decimal(f.amount);
      if (a.isNeg()) paid = paid.minus(a);
      else received = received.plus(a);
      const when = formatTimestampNs(parseTime(f.tNs, `funding[${i}].tNs`)).slice(0, 19).replace('T', ' ');
      return `<tr><td class="mono">${when}</td><td>${escapeHtml(f.symbol)}</td><td class="num">${escapeHtml(f.rate)}</td><td class="num">${f.positionLots}</td>${numCell(money(f.amount), f.amount, signClass(f.amount))}</tr>`;
    })
    .join('');
  const note = `${rows.length} settlements · received <span class="mono">${escapeHtml(money(received.toString()))}</span> · paid <span class="mono">${escapeHtml(money(paid.toString()))}</span>`;
  return section('Funding per settlement', note, `<table class="funding"><thead><tr><th>time (UTC)</th><th>symbol</th><th class="r">rate</th><th class="r">position</th><th class="r">amount</th></tr></thead><tbody>${body}</tbody></table>`);
}

/** Rejected orders counted by reason, most frequent first. */
export function rejectsSection(input: ReportHtmlInput): string {
  const entries = Object.entries(input.rejects ?? {});
  if (entries.length === 0) return input.rejects === undefined ? '' : section('Rejected orders', 'none', '');
  const total = entries.reduce((n, [, c]) => n + c, 0);
  const rows = entries.map(([reason, n]) => `<tr><td class="mono">${escapeHtml(reason)}</td><td class="num">${n}</td></tr>`).join('');
  return section('Rejected orders', `${total} rejects by reason`, `<table class="rejects"><thead><tr><th>reason</th><th class="r">count</th></tr></thead><tbody>${rows}</tbody></table>`);
}
