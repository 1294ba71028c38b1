import { describe, expect, it } from 'vitest';
import { downsampleMinMax } from '../../src/backtest/report-html/downsample.ts';
import { drawdownFromEquity } from '../../src/backtest/report-html/drawdown.ts';
import { escapeHtml } from '../../src/backtest/report-html/escape.ts';
import { renderReportHtml, type ReportHtmlInput } from '../../src/backtest/report-html/index.ts';
import { pnlBars } from '../../src/backtest/report-html/pnl-chart.ts';
import { formatNumber, formatTick, niceTicks, timeTicks } from '../../src/backtest/report-html/ticks.ts';
import { RandomStream } from '../../src/random/random-stream.ts';
import { START_NS, sampleReportInput } from './report-html.fixture.ts';

const H = 3_600_000_000_000n;

/** A minimal input with every series empty. */
function emptyInput(overrides: Partial<ReportHtmlInput> = {}): ReportHtmlInput {
  return {
    title: 'empty run',
    strategy: 'idle',
    params: {},
    scenario: 'empty',
    seed: 1,
    stateHash: 'abc123',
    startTime: START_NS.toString(),
    endTime: (START_NS + H).toString(),
    metrics: [],
    pnl: { realized: '0', fees: '0', funding: '0', unrealized: '0', net: '0' },
    series: { equity: [], positions: [], prices: [], fills: [] },
    ...overrides,
  };
}

/** The `d` attributes of the paths with this class inside the chart `data-chart=id`. */
function chartPaths(html: string, id: string, cls: string): string[] {
  const svg = new RegExp(`<svg class="chart" data-chart="${id}"[\\s\\S]*?</svg>`).exec(html)?.[0] ?? '';
  return [...svg.matchAll(new RegExp(`<path class="${cls}" d="([^"]*)"`, 'g'))].map((m) => m[1]!);
}

describe('report.html renderer', () => {
  it('escapes every piece of user text, so a hostile strategy name or parameter stays text', () => {
    const evil = '<script>alert("x")</script>';
    const html = renderReportHtml(
      emptyInput({
        title: `T ${evil}`,
        strategy: `S ${evil}`,
        scenario: `"'><img src=x onerror=alert(1)>`,
        seed: '<b>7</b>',
        stateHash: '</dd><script>',
        currency: '<i>USD</i>',
        params: { '</pre><script>alert(1)</script>': "<img src=x onerror='alert(2)'>" },
        metrics: [{ key: 'k<x>', label: 'a & b <u>', value: '<1>', unit: '"%"', headline: true }],
        series: {
          equity: [{ tNs: START_NS.toString(), equity: '100' }],
          positions: [],
          prices: [{ symbol: '<svg onload=alert(3)>', label: '<em>mid</em>', points: [{ tNs: START_NS.toString(), price: '5' }] }],
          fills: [],
        },
      }),
    );
    expect(html).not.toMatch(/<script|<img|<svg onload|<u>|<em>|<i>USD|<b>7|onerror='/i);
    expect(html).toContain('S &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('&quot;&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;');
    expect(html).toContain('a &amp; b &lt;u&gt;');
    expect(html).toContain('&lt;svg onload=alert(3)&gt;');
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });

  it('renders byte-identical HTML for the same input, with nothing that loads from the network', () => {
    const a = renderReportHtml(sampleReportInput(3000));
    const b = renderReportHtml(sampleReportInput(3000));
    expect(a).toBe(b);
    expect(a).not.toMatch(/https?:\/\/|<script|\ssrc=|@import|url\((?!#)/i);
    expect(a).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    for (const id of ['equity', 'drawdown', 'pnl', 'price-0', 'position-0', 'price-1', 'position-1']) {
      expect(a).toContain(`data-chart="${id}"`);
    }
  });

  it('keeps a day of 1-second samples small by downsampling each line to about two points per pixel', () => {
    const html = renderReportHtml(sampleReportInput(86_400));
    expect(html.length).toBeLessThan(400_000);
    const [equity] = chartPaths(html, 'equity', 'equity');
    // Every point is one pair of numbers; the plot is 864 px wide.
    const points = equity!.match(/-?(\d+\.?\d*|\.\d+)/g)!.length / 2;
    expect(points).toBeGreaterThan(800);
    expect(points).toBeLessThan(2 * 864 + 10);
  });

  it('shows a message instead of a chart for every empty series, without failing', () => {
    const html = renderReportHtml(emptyInput());
    expect(html).toContain('data-chart-empty="equity"');
    expect(html).toContain('data-chart-empty="drawdown"');
    expect(html).toContain('data-chart-empty="metrics"');
    expect(html).not.toMatch(/data-chart="(equity|drawdown|price-0)"/);
    expect(html).toContain('data-chart="pnl"');
    // A symbol with fills but no prices or positions still gets its markers.
    const fillsOnly = renderReportHtml(
      emptyInput({
        series: {
          equity: [],
          positions: [],
          prices: [],
          fills: [{ tNs: (START_NS + H / 2n).toString(), symbol: 'BTCUSD-PERP', side: 'B', price: '100', qty: '1', liquidity: 'maker' }],
        },
      }),
    );
    expect(chartPaths(fillsOnly, 'price-0', 'fill-buy-maker')).toHaveLength(1);
    expect(fillsOnly).toContain('data-chart-empty="position-0"');
  });

  it('computes drawdown exactly from equity when the runner gives none, and marks the deepest point', () => {
    const t = (s: number): string => (START_NS + BigInt(s) * 1_000_000_000n).toString();
    const equity = ['100', '110.1', '105.05', '120', '90.3', '95'].map((e, i) => ({ tNs: t(i * 600), equity: e }));
    expect(drawdownFromEquity(equity).map((p) => p.drawdown)).toEqual(['0', '0', '-5.05', '0', '-29.7', '-25']);
    const html = renderReportHtml(emptyInput({ series: { equity, positions: [], prices: [], fills: [] } }));
    expect(html).toContain('deepest <span class="mono">-29.7</span> at 2025-09-24 00:40:00 UTC');
    expect(html).toMatch(/<text class="highlight-label"[^>]*>max -29\.7<\/text>/);
  });

  it('leads the cards with net PnL from the decomposition, never twice', () => {
    const html = renderReportHtml(
      emptyInput({
        pnl: { realized: '12', fees: '-2', funding: '0', unrealized: '0', net: '10' },
        metrics: [
          { key: 'net_pnl', label: 'Net PnL', value: '10', headline: true },
          { key: 'sharpe', label: 'Sharpe', value: '1.5', headline: true },
          { key: 'fills', label: 'Fills', value: '3' },
        ],
      }),
    );
    const cards = [...html.matchAll(/<div class="card"><div class="k">([^<]*)<\/div><div class="v([^"]*)">([^<]*)/g)].map((m) => m.slice(1));
    expect(cards).toEqual([
      ['net PnL', ' pos-v', '10'],
      ['Sharpe', '', '1.5'],
    ]);
  });

  it('adds an exact "other" bar when the PnL parts do not sum to net', () => {
    const pnl = { realized: '10.1', fees: '-0.2', funding: '0.05', unrealized: '1', net: '11' };
    expect(pnlBars(pnl).map((b) => [b.key, b.value])).toEqual([
      ['realized', '10.1'],
      ['fees', '-0.2'],
      ['funding', '0.05'],
      ['unrealized', '1'],
      ['other', '0.05'],
      ['net', '11'],
    ]);
    expect(pnlBars({ ...pnl, net: '10.95' }).map((b) => b.key)).not.toContain('other');
    const html = renderReportHtml(emptyInput({ pnl }));
    expect(html).toContain('data-part="other"');
  });

  it('rejects malformed times and numbers with an error naming the field', () => {
    expect(() => renderReportHtml(emptyInput({ startTime: 'yesterday' }))).toThrow(/startTime/);
    const bad = emptyInput({ series: { equity: [{ tNs: '12:00', equity: '1' }], positions: [], prices: [], fills: [] } });
    expect(() => renderReportHtml(bad)).toThrow(/equity\[0\]/);
    const nan = emptyInput({ series: { equity: [], positions: [], prices: [{ symbol: 'X', points: [{ tNs: '1', price: 'abc' }] }], fills: [] } });
    expect(() => renderReportHtml(nan)).toThrow(/prices\[X\]\[0\].*"abc"/);
  });

  it('accepts RFC 3339 start and end times', () => {
    const html = renderReportHtml(emptyInput({ startTime: '2025-09-24T00:00:00Z', endTime: '2025-09-24T06:30:00.5Z' }));
    expect(html).toContain('2025-09-24 00:00:00 UTC → 2025-09-24 06:30:00.5 UTC (6h 30m)');
  });
});

describe('min/max downsampling', () => {
  const n = 100_000;
  const rnd = new RandomStream('walk');
  const x = Float64Array.from({ length: n }, (_, i) => i);
  const y = new Float64Array(n);
  for (let i = 1; i < n; i++) y[i] = y[i - 1]! + rnd.next() - 0.5;
  const buckets = 500;
  const out = downsampleMinMax({ x, y }, 0, n, buckets);

  it('keeps every bucket minimum and maximum, so global extrema and spikes survive', () => {
    expect(out.x.length).toBeLessThanOrEqual(2 * buckets + 2);
    const kept = new Set(out.x);
    const width = n / buckets;
    for (let b = 0; b < buckets; b++) {
      let lo = b * width;
      let hi = lo;
      for (let i = b * width; i < (b + 1) * width; i++) {
        if (y[i]! < y[lo]!) lo = i;
        if (y[i]! > y[hi]!) hi = i;
      }
      expect(kept.has(lo) && kept.has(hi)).toBe(true);
    }
    expect(Math.min(...out.y)).toBe(Math.min(...y));
    expect(Math.max(...out.y)).toBe(Math.max(...y));
  });

  it('returns a time-ordered subsequence that starts and ends with the series', () => {
    for (let i = 1; i < out.x.length; i++) expect(out.x[i]!).toBeGreaterThan(out.x[i - 1]!);
    for (let i = 0; i < out.x.length; i++) expect(out.y[i]).toBe(y[out.x[i]!]);
    expect(out.x[0]).toBe(0);
    expect(out.x[out.x.length - 1]).toBe(n - 1);
  });

  it('leaves a short series alone', () => {
    const short = { x: Float64Array.of(0, 1, 2), y: Float64Array.of(5, 1, 9) };
    expect(downsampleMinMax(short, 0, 2, 500)).toBe(short);
  });
});

describe('axis ticks', () => {
  it('puts time ticks on round UTC times, with the date under the first tick and at each midnight', () => {
    const from = START_NS - H / 2n + 7n; // 23:30:00.000000007 the day before
    const ticks = timeTicks(from, from + 2n * H, 9);
    expect(ticks.map((t) => t.label)).toEqual(['23:45', '00:00', '00:15', '00:30', '00:45', '01:00', '01:15', '01:30']);
    expect(ticks.map((t) => t.date)).toEqual(['2025-09-23', '2025-09-24', undefined, undefined, undefined, undefined, undefined, undefined]);
    // Weekly ticks fall on Mondays (2025-09-29), shown as month-day.
    expect(timeTicks(START_NS, START_NS + 30n * 24n * H, 8).map((t) => t.label)).toEqual(['09-29', '10-06', '10-13', '10-20']);
  });

  it('picks nice value steps and formats labels without locale', () => {
    expect(niceTicks(59_210, 60_370, 5)).toMatchObject({ min: 59_000, max: 60_500, step: 250 });
    expect(formatTick(59_200, 200)).toBe('59.2k');
    expect(formatTick(-3000, 1000)).toBe('-3,000');
    expect(formatTick(0.0025, 0.0005)).toBe('0.0025');
    expect(formatTick(1_000_500, 500)).toBe('1,000.5k');
    expect(formatTick(2.5, 2.5)).toBe('2.5');
    expect(niceTicks(-4, 3, 4, true).values).toEqual([-4, -2, 0, 2, 4]);
    expect(formatNumber(-12_345.678, 2)).toBe('-12,345.68');
    expect(formatNumber(-0.001, 2)).toBe('0');
  });
});
