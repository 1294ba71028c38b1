import type { RankedGroup } from '../sweep/ranking.ts';
import { fmt, paramsLabel } from '../sweep/sweep-html.ts';

/**
 * The ranked table printed at the end of a sweep: params sets by the mean of the ranking
 * metric over seeds, with its spread (sd), min and max, the best `limit` first.
 */
export function rankedTableLines(ranked: readonly RankedGroup[], varied: readonly string[], metric: string, limit = 20): string[] {
  const header = ['#', 'params', 'seeds', `mean ${metric}`, 'sd', 'min', 'max'];
  const body = ranked.slice(0, limit).map((g) => [String(g.rank), paramsLabel(g.params, varied), String(g.stats.n), fmt(g.stats.mean), fmt(g.stats.sd), fmt(g.stats.min), fmt(g.stats.max)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  const lines = [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)];
  if (ranked.length > limit) lines.push(`… ${ranked.length - limit} more params sets in sweep.html and results.csv`);
  return lines;
}
