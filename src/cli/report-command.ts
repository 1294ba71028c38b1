import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { factsBySymbol, observeEventBatch } from '../sim/event-log/facts-feed.ts';
import { StylizedFacts, TYPICAL_PERP_FACTS, type Facts } from '../sim/stylized-facts.ts';
import { EventLogError, openEventLog } from '../sim-io/event-log-file.ts';
import { UsageError } from './usage-error.ts';

/**
 * `perpsim report [DIR | FILE.arrow]`: measures the stylized facts of an event log and prints
 * them per symbol and pooled, next to what liquid perpetual markets typically show. Without an
 * argument it reports the most recent `out/run-*` directory.
 */
export async function reportCommand(pathArg: string | undefined): Promise<number> {
  const path = resolveEventLog(pathArg);
  let log;
  try {
    log = await openEventLog(path);
  } catch (e) {
    if (e instanceof EventLogError) throw new UsageError(e.message);
    throw e;
  }
  const facts = new StylizedFacts();
  let rows = 0;
  try {
    for await (const batch of log.batches()) {
      observeEventBatch(facts, batch);
      rows += batch.numRows;
    }
  } catch (e) {
    throw new UsageError(`${path}: unreadable event log (${(e as Error).message.split('\n')[0]})`);
  } finally {
    await log.close();
  }
  const meta = log.metadata;
  const what = [meta.get('perpsim.scenario'), meta.get('perpsim.seed') && `seed ${meta.get('perpsim.seed')}`].filter(Boolean).join(', ');
  const span = meta.has('perpsim.sim_start') ? `, ${meta.get('perpsim.sim_start')} → ${meta.get('perpsim.sim_end')}` : '';
  process.stdout.write(`${path}: ${what || 'event log'}${span}, ${rows} events\n\n`);
  process.stdout.write(formatFactsTable(factsBySymbol(facts)));
  return 0;
}

/** The event log a report argument names: a file, or `events.arrow` in a directory. */
export function resolveEventLog(arg: string | undefined): string {
  if (arg === undefined) {
    const latest = latestRunDir('out');
    if (latest === undefined) throw new UsageError('no event log given and no out/run-*/events.arrow here (run `perpsim run` first)');
    return join(latest, 'events.arrow');
  }
  if (!existsSync(arg)) throw new UsageError(`${arg}: no such file or directory`);
  if (statSync(arg).isDirectory()) {
    const file = join(arg, 'events.arrow');
    if (!existsSync(file)) throw new UsageError(`${arg}: no events.arrow in this directory`);
    return file;
  }
  return arg;
}

function latestRunDir(root: string): string | undefined {
  if (!existsSync(root)) return undefined;
  return readdirSync(root)
    .filter((d) => d.startsWith('run-') && existsSync(join(root, d, 'events.arrow')))
    .map((d) => ({ dir: join(root, d), at: statSync(join(root, d, 'events.arrow')).mtimeMs }))
    .sort((a, b) => b.at - a.at || a.dir.localeCompare(b.dir))[0]?.dir;
}

/**
 * The facts as a text table: one row per measure, a column per symbol, the pooled value, the
 * typical value and range of liquid perps, and whether the pooled value lies in that range.
 */
export function formatFactsTable(measured: { all: Facts; by_symbol: Record<string, Facts> }): string {
  const symbols = Object.keys(measured.by_symbol);
  const header = ['measure', ...symbols, 'all', 'typical', 'typical range', 'in range'];
  const rows = (Object.keys(TYPICAL_PERP_FACTS) as (keyof Facts)[]).map((key) => {
    const ref = TYPICAL_PERP_FACTS[key];
    const all = measured.all[key];
    const inRange = Number.isFinite(all) ? (all >= ref.low && all <= ref.high ? 'yes' : 'no') : '-';
    return [key, ...symbols.map((s) => formatNumber(measured.by_symbol[s]![key])), formatNumber(all), formatNumber(ref.typical), `${formatNumber(ref.low)} … ${formatNumber(ref.high)}`, inRange];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n') + '\n';
}

/** Four significant digits (`2.306`, `169.6`, `0.0001`), whole numbers from 1000, `-` for NaN (too little data). */
export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return '-';
  if (Math.abs(x) >= 1000) return x.toFixed(0);
  return String(Number(x.toPrecision(4)));
}
