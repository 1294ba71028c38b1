import { Decimal } from 'decimal.js';
import { displayMoney, formatMetric, METRIC_ROWS } from './metric-table.ts';
import type { BacktestReport } from './report.ts';

/** One line of a comparison: the metric, its display text in A and B, and B − A where both are numbers. */
export interface CompareRow {
  key: string;
  label: string;
  a: string;
  b: string;
  /** B − A in the display unit (money rounded like the values), or '' when not numeric in both. */
  diff: string;
}

/** The runs' identities (strategy, params, scenario, seed, span) as rows, then every metric. */
export function compareReports(a: BacktestReport, b: BacktestReport): CompareRow[] {
  const id = (key: string, label: string, f: (r: BacktestReport) => string): CompareRow => ({ key, label, a: f(a), b: f(b), diff: '' });
  const rows: CompareRow[] = [
    id('strategy', 'Strategy', (r) => r.strategy),
    ...paramRows(a.params, b.params),
    id('scenario', 'Scenario', (r) => r.scenario),
    id('seed', 'Seed', (r) => String(r.seed)),
    id('span', 'Sim time', (r) => `${r.sim_start} + ${r.duration}`),
    id('sample_interval', 'Sampled every', (r) => r.sample_interval),
  ];
  for (const row of METRIC_ROWS) {
    const va = a.metrics[row.key];
    const vb = b.metrics[row.key];
    let diff = '';
    if (typeof va === 'number' && typeof vb === 'number') {
      const d = (vb - va) * (row.percent === true ? 100 : 1);
      diff = signed(Number.isInteger(d) ? String(d) : String(Number(d.toPrecision(4))));
    } else if (row.money === true && typeof va === 'string' && typeof vb === 'string') {
      diff = signed(displayMoney(new Decimal(vb).minus(new Decimal(va)).toString()));
    }
    const unit = row.unit === undefined ? '' : ` ${row.unit}`;
    rows.push({ key: row.key, label: row.label, a: formatMetric(a.metrics, row) + unit, b: formatMetric(b.metrics, row) + unit, diff: diff === '' ? '' : diff + unit });
  }
  return rows;
}

/** The parameters that differ, one row each (a long params object would not fit a column). */
function paramRows(a: unknown, b: unknown): CompareRow[] {
  const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v });
  const pa = obj(a);
  const pb = obj(b);
  const keys = [...new Set([...Object.keys(pa), ...Object.keys(pb)])];
  const text = (v: unknown) => (v === undefined ? '-' : JSON.stringify(v));
  const rows = keys.filter((k) => text(pa[k]) !== text(pb[k])).map((k) => ({ key: `params.${k}`, label: `Param ${k}`, a: text(pa[k]), b: text(pb[k]), diff: '' }));
  return rows.length > 0 ? rows : [{ key: 'params', label: 'Params', a: 'same', b: 'same', diff: '' }];
}

function signed(text: string): string {
  return /^-/.test(text) || /^[0.,]+$/.test(text) ? text : `+${text}`;
}

/** The comparison as an aligned text table with a header naming the two runs. */
export function formatCompareTable(rows: readonly CompareRow[], nameA: string, nameB: string): string {
  const header = ['metric', `A: ${nameA}`, `B: ${nameB}`, 'B − A'];
  const cells = rows.map((r) => [r.label, r.a, r.b, r.diff]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n') + '\n';
}
