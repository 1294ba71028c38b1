import { Exchange, type ExchangeOptions } from '../api/exchange.ts';
import type { JournalHeader } from '../api/journal/entries.ts';
import { openDataDir, type BuiltExchange } from '../api/journal/restore.ts';
import type { SnapshotPolicy } from '../api/journal/snapshotter.ts';
import { parseScenario } from '../scenario/load.ts';
import type { Scenario } from '../scenario/schema.ts';
import { buildSimulationParts } from '../sim/build.ts';
import { resolveScenario } from './scenario-arg.ts';
import { UsageError } from './usage-error.ts';

/** A journaled exchange for `perpsim serve --data-dir`, and where it came from. */
export interface DataDirExchange {
  exchange: Exchange;
  scenario: Scenario;
  seed: number;
  /** Journal entries replayed (0 when the directory was new; after a snapshot, only the tail). */
  restored: number;
  /** The snapshot the restore started from. */
  fromSnapshot: string | undefined;
  /** One line for the banner: whether and how often snapshots are written, what the restore used. */
  snapshots: string;
}

/**
 * The exchange of `serve --data-dir DIR`: restored from DIR (newest good snapshot + journal tail,
 * else the whole journal) when it holds a journal — its scenario and seed win over `--scenario`
 * / `--seed` — else built from the request with a new journal in DIR. Recorded-market
 * (`--replay`) serving is not journaled. Snapshots are written only for scenarios without
 * agents: an agent's pending wake-ups and in-flight messages are closures on the clock, which a
 * snapshot cannot hold, so there the journal alone is the checkpoint.
 */
export async function exchangeForDataDir(
  dir: string,
  request: { scenario: string; seed?: number; replay?: unknown; snapshots?: SnapshotPolicy },
  options: ExchangeOptions,
  check: (scenario: Scenario) => void = () => {},
): Promise<DataDirExchange> {
  if (request.replay !== undefined) throw new UsageError('--data-dir cannot be combined with --replay');
  let built: JournalBuilt | undefined;
  const opened = await openDataDir(
    dir,
    () => {
      const requested = resolveScenario(request.scenario);
      if (requested.market !== undefined) throw new UsageError('--data-dir cannot serve a recorded-market scenario');
      return { perpsim_journal: 1, scenario: requested, seed: request.seed ?? requested.seed };
    },
    async (header: JournalHeader) => (built = await buildFromHeader(header, options, check)),
    request.snapshots,
  );
  const { scenario, seed, agents } = built!;
  const policy = request.snapshots;
  let snapshots = !opened.snapshotting
    ? agents > 0
      ? `off (the scenario has ${agents} agents: a restart replays the whole journal)`
      : 'off'
    : `every ${policy!.everyEntries > 0 ? `${policy!.everyEntries} entries` : '-'} or ${policy!.everySeconds > 0 ? `${policy!.everySeconds} s` : '-'} (${dir}/snapshots)`;
  if (opened.snapshot !== undefined) snapshots += `; restored from ${opened.snapshot.file} (${opened.snapshot.entries} entries) + ${opened.restored}`;
  for (const s of opened.skipped) snapshots += `; skipped ${s}`;
  return { exchange: opened.exchange, scenario, seed, restored: opened.restored, fromSnapshot: opened.snapshot?.file, snapshots };
}

/** An exchange built from a journal header, with what it was built from. */
export interface JournalBuilt extends BuiltExchange {
  scenario: Scenario;
  seed: number;
  /** Agents in the simulation (snapshots are exact only without them: `roots` is then undefined). */
  agents: number;
}

/**
 * The exchange a journal header describes: the scenario's simulation with the header's seed
 * (agents included), served by an {@link Exchange}; `roots` names the state a snapshot holds.
 */
export async function buildFromHeader(header: JournalHeader, options: ExchangeOptions, check: (scenario: Scenario) => void = () => {}): Promise<JournalBuilt> {
  const scenario = parseScenario(header.scenario);
  check(scenario);
  const parts = buildSimulationParts(scenario, { seed: header.seed });
  const exchange = await Exchange.forSimulation(parts.sim, options);
  const roots = { venue: exchange.venue, users: exchange.users, streams: parts.sim.streams, index: parts.indexActors, conditions: parts.conditions };
  return { exchange, roots: parts.agents.length === 0 ? roots : undefined, scenario, seed: header.seed, agents: parts.agents.length };
}
