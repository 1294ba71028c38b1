import { describe, expect, it } from 'vitest';
import { displayMoney } from '../../src/backtest/metric-table.ts';
import { chartData, scriptJson } from '../../src/backtest/report-html/chart-data.ts';
import { drawdownFromEquity } from '../../src/backtest/report-html/drawdown.ts';
import { escapeHtml } from '../../src/backtest/report-html/escape.ts';
import { renderReportHtml, type ReportHtmlInput } from '../../src/backtest/report-html/index.ts';
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

/** The JSON data block the page's script draws from. */
function dataOf(html: string): ReturnType<typeof chartData> {
  const m = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  if (m === null) throw new Error('no data block');
  return JSON.parse(m[1]!);
}

/** The page without its inlined scripts (the library's source is not ours to inspect). */
function withoutScripts(html: string): string {
  return html.replace(/<script[\s\S]*?<\/script>/g, '');
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
        rejects: { '<script>': 2 },
        series: {
          equity: [{ tNs: START_NS.toString(), equity: '100' }],
          positions: [],
          prices: [{ symbol: '</script><svg onload=alert(3)>', label: '<em>mid</em>', points: [{ tNs: START_NS.toString(), price: '5' }] }],
          fills: [{ tNs: START_NS.toString(), symbol: '</script><svg onload=alert(3)>', side: 'B', price: '5', qty: '1', liquidity: 'maker' }],
        },
      }),
    );
    const page = withoutScripts(html);
    expect(page).not.toMatch(/<script|<img|<svg onload|<u>|<em>|<i>USD|<b>7|onerror='/i);
    expect(page).toContain('S &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(page).toContain('&quot;&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;');
    expect(page).toContain('a &amp; b &lt;u&gt;');
    // In the data block `<` is escaped, so a symbol cannot close the script element.
    const block = /id="report-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(block).not.toContain('<');
    expect(dataOf(html).symbols[0]!.symbol).toBe('</script><svg onload=alert(3)>');
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
    expect(scriptJson('\u2028<')).toBe('"\\u2028\\u003c"');
  });

  it('renders byte-identical HTML for the same input, with the chart library inlined and a CSP that forbids the network', () => {
    const a = renderReportHtml(sampleReportInput(3000));
    const b = renderReportHtml(sampleReportInput(3000));
    expect(a).toBe(b);
    expect(a).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"`);
    expect(a).toContain('TradingView Lightweight Charts');
    expect(a).toContain('window.LightweightCharts=');
    expect(withoutScripts(a)).not.toMatch(/https?:\/\/|\ssrc=|@import|url\(/i);
    expect(a).not.toMatch(/<script[^>]*\ssrc=/);
  });

  it('passes every fill and the price series at full resolution to the chart, one point per millisecond', () => {
    const input = sampleReportInput(7200);
    const data = dataOf(renderReportHtml(input));
    const btcFills = input.series.fills.filter((f) => f.symbol === 'BTCUSD-PERP');
    expect(data.symbols.map((s) => s.symbol)).toEqual(['BTCUSD-PERP', 'ETHUSD-PERP']);
    expect(data.symbols[0]!.fills).toHaveLength(btcFills.length);
    expect(data.symbols[0]!.price).toHaveLength(7200);
    expect(data.equity).toHaveLength(7200);
    // times in seconds since the epoch, strictly increasing
    expect(data.equity[0]![0]).toBe(Number(START_NS / 1_000_000_000n));
    for (const s of [data.equity, data.symbols[0]!.price]) expect(s.every((p, i) => i === 0 || p[0] > s[i - 1]![0])).toBe(true);
    // two samples in the same millisecond draw as one (the last)
    const twice = chartData(
      emptyInput({ series: { equity: [{ tNs: '1000000', equity: '1' }, { tNs: '1000400', equity: '2' }, { tNs: '2000000', equity: '3' }], positions: [], prices: [], fills: [] }, startTime: '0' }),
      0n,
      10_000_000n,
    );
    expect(twice.equity).toEqual([[0.001, 2], [0.002, 3]]);
  });

  it('folds symbols with no fills and no position into one line instead of giving them charts', () => {
    const input = sampleReportInput(600);
    const idle = { symbol: 'SOLUSD-PERP', points: [{ tNs: START_NS.toString(), qty: '0' }] };
    const html = renderReportHtml({
      ...input,
      series: { ...input.series, positions: [...input.series.positions, idle], prices: [...input.series.prices, { symbol: 'SOLUSD-PERP', points: [{ tNs: START_NS.toString(), price: '150' }] }] },
    });
    expect(html).toContain('data-idle-symbols="1">No activity (no fills, no position) in SOLUSD-PERP.');
    expect(dataOf(html).symbols.map((s) => s.symbol)).not.toContain('SOLUSD-PERP');
  });

  it('shows money rounded to cents with the exact value on hover', () => {
    const html = renderReportHtml(emptyInput({ pnl: { realized: '1234.567890123456789', fees: '-0.004', funding: '0', unrealized: '0', net: '1234.563890123456789' } }));
    expect(html).toContain('<div class="v pos-v" title="1234.563890123456789">1,234.56');
    expect(html).toContain('<td class="num neg-v" title="-0.004">0.00</td>');
    expect(displayMoney('-1234567.125')).toBe('-1,234,567.12');
    expect(displayMoney('-0.001')).toBe('0.00');
    expect(displayMoney('999.995')).toBe('1,000.00');
  });

  it('shows a message instead of charts for a run with no samples and no fills, without failing', () => {
    const html = renderReportHtml(emptyInput());
    expect(html).toContain('data-chart-empty="equity"');
    expect(html).toContain('data-chart-empty="metrics"');
    expect(html).not.toContain('id="charts"');
    expect(html).not.toContain('<script');
  });

  it('computes drawdown exactly from equity when the runner gives none', () => {
    const t = (s: number): string => (START_NS + BigInt(s) * 1_000_000_000n).toString();
    const equity = ['100', '110.1', '105.05', '120', '90.3', '95'].map((e, i) => ({ tNs: t(i * 600), equity: e }));
    expect(drawdownFromEquity(equity).map((p) => p.drawdown)).toEqual(['0', '0', '-5.05', '0', '-29.7', '-25']);
    const data = dataOf(renderReportHtml(emptyInput({ series: { equity, positions: [], prices: [], fills: [] } })));
    expect(data.drawdown.map((p) => p[1])).toEqual([0, 0, -5.05, 0, -29.7, -25]);
  });

  it('leads the cards with net PnL from the decomposition, never twice, and adds an exact "other" row when parts do not sum', () => {
    const html = renderReportHtml(
      emptyInput({
        pnl: { realized: '10.1', fees: '-0.2', funding: '0.05', unrealized: '1', net: '11' },
        metrics: [
          { key: 'net_pnl', label: 'Net PnL', value: '11', headline: true },
          { key: 'sharpe', label: 'Sharpe', value: '1.5', headline: true },
          { key: 'fills', label: 'Fills', value: '3' },
        ],
      }),
    );
    const cards = [...html.matchAll(/<div class="card"><div class="k">([^<]*)<\/div><div class="v([^"]*)"[^>]*>([^<]*)/g)].map((m) => m.slice(1));
    expect(cards).toEqual([
      ['net PnL', ' pos-v', '11.00'],
      ['Sharpe', '', '1.5'],
    ]);
    expect(html).toMatch(/<td>other<\/td><td class="num pos-v">0.05<\/td>/);
  });

  it('lists funding per settlement and rejects by reason', () => {
    const html = renderReportHtml(
      emptyInput({
        funding: [
          { tNs: (START_NS + 8n * H).toString(), symbol: 'BTCUSD-PERP', rate: '0.0001', positionLots: 3, amount: '-1.5' },
          { tNs: (START_NS + 16n * H).toString(), symbol: 'BTCUSD-PERP', rate: '-0.0002', positionLots: 3, amount: '3' },
        ],
        rejects: { INSUFFICIENT_MARGIN: 5, PRICE_OUT_OF_BOUNDS: 2 },
      }),
    );
    expect(html).toContain('2 settlements · received <span class="mono">3.00</span> · paid <span class="mono">1.50</span>');
    expect(html).toContain('<td class="mono">2025-09-24 08:00:00</td><td>BTCUSD-PERP</td><td class="num">0.0001</td><td class="num">3</td>');
    expect(html).toContain('7 rejects by reason');
    expect(html).toContain('<td class="mono">INSUFFICIENT_MARGIN</td><td class="num">5</td>');
  });

  it('rejects malformed times and numbers with an error naming the field', () => {
    expect(() => renderReportHtml(emptyInput({ startTime: 'yesterday' }))).toThrow(/startTime/);
    const bad = emptyInput({ series: { equity: [{ tNs: '12:00', equity: '1' }], positions: [], prices: [], fills: [] } });
    expect(() => renderReportHtml(bad)).toThrow(/equity\[0\]/);
    const nan = emptyInput({
      series: { equity: [], positions: [], prices: [{ symbol: 'X', points: [{ tNs: START_NS.toString(), price: 'abc' }] }], fills: [{ tNs: START_NS.toString(), symbol: 'X', side: 'B', price: '1', qty: '1', liquidity: 'maker' }] },
    });
    expect(() => renderReportHtml(nan)).toThrow(/prices\[X\]\.price\[0\].*"abc"/);
  });

  it('shows the whole period, start and end, in the header', () => {
    const html = renderReportHtml(emptyInput({ startTime: '2025-09-24T00:00:00Z', endTime: '2025-09-24T06:30:00.5Z', sampleInterval: '1s' }));
    expect(html).toContain('2025-09-24 00:00:00 UTC → 2025-09-24 06:30:00.5 UTC (6h 30m) · equity sampled every 1s');
  });
});
