import { existsSync } from 'node:fs';
import { formatTimestampNs, parseTimestamp } from '../core/time.ts';
import { Exchange } from '../api/exchange.ts';
import type { JournalEntry } from '../api/journal/entries.ts';
import { hasJournal, JournalFile, readJournal } from '../api/journal/journal-file.ts';
import { replayJournal } from '../api/journal/restore.ts';
import { parseScenario } from '../scenario/load.ts';
import { buildSimulation } from '../sim/build.ts';
import { UsageError } from './usage-error.ts';

/**
 * `perpsim fork DIR --at TIME --out DIR2`: the venue of a journaled server as it was at any
 * journaled instant. Because the engine is deterministic, the journal is the checkpoint: the
 * entries up to TIME (sim time, RFC 3339 or integer ns) are copied to a new journal in DIR2,
 * with the clock brought to TIME; `perpsim serve --data-dir DIR2` then continues from there —
 * with other clients or strategies. The fork is rebuilt once here, to check it and to print
 * its state hash.
 */
export async function forkCommand(dir: string, options: { at: string; out: string }, out: (line: string) => void = (l) => process.stdout.write(l + '\n')): Promise<number> {
  if (!hasJournal(dir)) throw new UsageError(`${dir} holds no journal (journal.jsonl): start perpsim serve --data-dir ${dir} first`);
  const atNs = /^\d+$/.test(options.at) ? BigInt(options.at) : parseTimestamp(options.at);
  if (atNs === undefined) throw new UsageError(`--at must be an RFC 3339 time or integer nanoseconds, got "${options.at}"`);
  if (existsSync(options.out) && hasJournal(options.out)) throw new UsageError(`${options.out} already holds a journal`);
  const { header, entries } = readJournal(dir);
  const scenario = parseScenario(header.scenario);
  const startNs = parseTimestamp(scenario.start)!;
  if (atNs < startNs) throw new UsageError(`--at ${options.at} is before the scenario starts (${scenario.start})`);
  const kept: JournalEntry[] = entries.filter((e) => BigInt(e.t) <= atNs);
  kept.push({ k: 'time', t: String(atNs) });

  const exchange = await Exchange.forSimulation(buildSimulation(scenario, { seed: header.seed }), { manual: true });
  replayJournal(exchange, kept);
  const journal = JournalFile.create(options.out, header);
  for (const e of kept) journal.add(e);
  journal.close();
  out(`forked ${dir} at ${formatTimestampNs(atNs)}: ${kept.length - 1} of ${entries.length} entries → ${options.out}`);
  out(`state_hash: ${exchange.venue.stateHash()}`);
  return 0;
}
