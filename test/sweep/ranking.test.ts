import { describe, expect, it } from 'vitest';
import { rankGroups, variedParams } from '../../src/sweep/ranking.ts';
import { resultsCsv, type ResultRow } from '../../src/sweep/results.ts';
import { renderSweepHtml } from '../../src/sweep/sweep-html.ts';

const row = (id: string, params: Record<string, unknown>, seed: number, net: string, sharpe: number | null): ResultRow => ({ id, seed, params, state_hash: 'h', metrics: { net_pnl: net, sharpe_annualized: sharpe } });

// Set A wins big on one seed and loses on the other two; set B wins a little on every seed.
const ROWS = [
  row('01', { a: 1, b: 'x' }, 1, '900', 2),
  row('02', { a: 1, b: 'x' }, 2, '-450', -1),
  row('03', { a: 1, b: 'x' }, 3, '-450', -1),
  row('04', { a: 2, b: 'x' }, 1, '110', 1),
  row('05', { a: 2, b: 'x' }, 2, '100', 1),
  row('06', { a: 2, b: 'x' }, 3, '90', null),
];

describe('ranking over seeds', () => {
  it('ranks params sets by the mean over seeds, not by the luckiest seed', () => {
    const ranked = rankGroups(ROWS, 'net_pnl');
    expect(ranked.map((g) => g.params['a'])).toEqual([2, 1]);
    expect(ranked[0]!.stats.mean!.toString()).toBe('100');
    expect(ranked[0]!.stats.sd!.toString()).toBe('10'); // sample sd of 110, 100, 90
    expect(ranked[1]!.stats.mean!.toString()).toBe('0'); // (900 − 450 − 450) / 3
    expect(ranked[1]!.stats.max!.toString()).toBe('900');
  });

  it('leaves undefined values out of a mean and counts the seeds that had one', () => {
    const ranked = rankGroups(ROWS, 'sharpe_annualized');
    const b = ranked.find((g) => g.params['a'] === 2)!;
    expect(b.stats.n).toBe(2);
    expect(b.stats.mean!.toString()).toBe('1');
  });

  it('names only the params the sweep varied', () => {
    expect(variedParams(rankGroups(ROWS, 'net_pnl'))).toEqual(['a']);
  });
});

describe('results and sweep.html', () => {
  it('quotes params JSON in results.csv and leaves undefined metrics empty', () => {
    const lines = resultsCsv(ROWS).split('\n');
    expect(lines[0]).toBe('id,seed,params,param.a,param.b,state_hash,net_pnl,sharpe_annualized');
    expect(lines[6]).toBe('06,3,"{""a"":2,""b"":""x""}",2,x,h,90,');
  });

  it('renders the ranking, a heatmap and per-seed distributions with hostile names as text', () => {
    const hostile = ROWS.map((r) => ({ ...r, params: { ...r.params, c: r.seed === 1 ? '<script>x</script>' : 'y' } }));
    const html = renderSweepHtml({ strategy: '<img src=x>.ts', market: 'default', rows: hostile, rankBy: 'net_pnl', heatmap: ['a', 'c'] });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x&gt;.ts');
    expect(html).toContain('Ranking by mean net_pnl');
    expect(html).toContain('class="heat"');
    expect(html.match(/<circle /g)?.length).toBe(ROWS.length + ROWS.length - 1); // net_pnl: 6 dots, sharpe: 5
    expect(renderSweepHtml({ strategy: 's', market: 'm', rows: ROWS, rankBy: 'net_pnl' })).toBe(renderSweepHtml({ strategy: 's', market: 'm', rows: [...ROWS].reverse(), rankBy: 'net_pnl' }));
  });
});
