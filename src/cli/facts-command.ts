import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { attachRecordFeed } from '../sim/record-feed.ts';
import { MarketFacts, type SymbolFactsReport } from '../facts/market-facts.ts';
import { factsJson, formatFactsTable, formatTargets, type FactsColumn } from '../facts/table.ts';
import { checkTargets } from '../facts/targets.ts';
import { mergeByTime } from '../replay/merge.ts';
import type { MarketRecord, SymbolUnits } from '../replay/market-records.ts';
import { openMarketSources, type SourceFormat } from '../replay/market-sources.ts';
import { ReplayError } from '../replay/replay-error.ts';
import type { Scenario } from '../scenario/schema.ts';
import { buildSimulation } from '../sim/build.ts';
import { resolveScenario } from './scenario-arg.ts';
import { UsageError } from './usage-error.ts';

/** What `perpsim facts` was asked to do (flags parsed by `commands/facts.ts`). */
export interface FactsRequest {
  files: string[];
  scenario?: string;
  seed?: number;
  duration?: bigint;
  from?: SourceFormat;
  tickSize?: string;
  lotSize?: string;
  symbol?: string;
  horizonSec?: number;
  targets: boolean;
  json: boolean;
  skipBadRows: boolean;
}

/**
 * `perpsim facts [FILE…] [--scenario S [--seed N] [--duration D]] [--from F] [--tick-size T
 * --lot-size L] [--symbol S] [--horizon SEC] [--targets] [--json] [--skip-bad-rows]`: one set
 * of market facts, side by side, for the symbols of any recording (every format the replay
 * reads, several files merged by receive time) and of a scenario run in-process. `--targets`
 * checks the BTC-like realism targets on every simulated symbol, against the first recorded
 * symbol for trade sizes and inter-arrival times.
 *
 * @returns 0, or 1 when an input is unreadable (one line); usage errors throw `UsageError`.
 */
export async function factsCommand(request: FactsRequest): Promise<number> {
  const { files } = request;
  if (files.length === 0 && request.scenario === undefined) throw new UsageError('facts needs a recording or event log (perpsim facts FILE…) or --scenario NAME|FILE');
  for (const f of files) if (!existsSync(f)) throw new UsageError(`${f}: no such file`);
  if (request.scenario === undefined && (request.seed !== undefined || request.duration !== undefined)) throw new UsageError('--seed and --duration go with --scenario');
  const horizonSec = request.horizonSec ?? 60;
  if (horizonSec <= 0) throw new UsageError('--horizon must be a positive number of seconds');

  const columns: FactsColumn[] = [];
  const recorded: SymbolFactsReport[] = [];
  if (files.length > 0) {
    let reports: SymbolFactsReport[];
    try {
      reports = await factsOfFiles(files, request.from, { tickSize: request.tickSize, lotSize: request.lotSize, symbol: request.symbol, skipBadRows: request.skipBadRows }, horizonSec);
    } catch (e) {
      if (!(e instanceof ReplayError)) throw e;
      process.stderr.write(`perpsim: ${e.message.replace(/\s*\n\s*/g, ' ')}\n`);
      return 1;
    }
    const label = files.length === 1 ? `${basename(files[0]!)}: ` : '';
    for (const f of reports) columns.push({ heading: `${label}${f.symbol}`, facts: f });
    recorded.push(...reports);
  }
  const simulated: FactsColumn[] = [];
  if (request.scenario !== undefined) {
    const scenario = resolveScenario(request.scenario);
    const seed = request.seed ?? scenario.seed;
    const reports = factsOfScenarioRun(scenario, seed, request.duration, horizonSec);
    for (const f of reports) simulated.push({ heading: `${scenario.name} seed ${seed}: ${f.symbol}`, facts: f });
    columns.push(...simulated);
  }
  const targets = request.targets ? simulated.map((c) => ({ heading: c.heading, checks: checkTargets(c.facts, recorded[0]) })) : [];
  if (request.json) {
    process.stdout.write(factsJson({ columns, ...(request.targets ? { targets } : {}) }) + '\n');
    return 0;
  }
  process.stdout.write(formatFactsTable(columns));
  for (const t of targets) process.stdout.write('\n' + formatTargets(t.heading, t.checks));
  return 0;
}

/** The facts of recordings: every source opened, merged by receive time, measured once. */
export async function factsOfFiles(
  files: readonly string[],
  format: SourceFormat | undefined,
  options: { tickSize?: string | undefined; lotSize?: string | undefined; symbol?: string | undefined; skipBadRows?: boolean },
  horizonSec = 60,
): Promise<SymbolFactsReport[]> {
  return (await factsOfFilesAt(files, format, options, [horizonSec]))[0]!;
}

/** {@link factsOfFiles} at several return horizons in one pass over the files: one report list per horizon. */
export async function factsOfFilesAt(
  files: readonly string[],
  format: SourceFormat | undefined,
  options: { tickSize?: string | undefined; lotSize?: string | undefined; symbol?: string | undefined; skipBadRows?: boolean },
  horizonsSec: readonly number[],
): Promise<SymbolFactsReport[][]> {
  const sources = await openMarketSources(files, format, options);
  const units: Record<string, SymbolUnits> = {};
  for (const s of sources) Object.assign(units, s.instruments);
  const all = horizonsSec.map((h) => new MarketFacts(units, h));
  const observe = (r: MarketRecord) => {
    for (const f of all) f.observe(r);
  };
  if (sources.length === 1) {
    for await (const chunk of sources[0]!.records.chunks()) for (const r of chunk) observe(r);
  } else {
    const merged = mergeByTime(sources.map((s, i) => ({ items: s.records, priority: i, name: s.name })), (r: MarketRecord) => r.recvNs);
    for await (const m of merged) observe(m.item);
  }
  return all.map((f) => f.report());
}

/** The facts of a scenario run in-process (seeded: the same report for the same inputs). */
export function factsOfScenarioRun(scenario: Scenario, seed: number, durationNs: bigint | undefined, horizonSec = 60): SymbolFactsReport[] {
  const sim = buildSimulation(scenario, durationNs === undefined ? { seed } : { seed, durationNs });
  const units = Object.fromEntries(scenario.instruments.map((i) => [i.symbol, { tickSize: i.tickSize, lotSize: '1' }]));
  const facts = new MarketFacts(units, horizonSec);
  attachRecordFeed(sim, (r) => facts.observe(r));
  sim.runToEnd();
  return facts.report();
}
