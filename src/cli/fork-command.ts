import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { formatTimestampNs, parseTimestamp } from '../core/time.ts';
import type { JournalEntry } from '../api/journal/entries.ts';
import { entriesIn, hasJournal, JOURNAL_FILE, readJournalBytes } from '../api/journal/journal-read.ts';
import { loadSnapshot, replayJournal, type BuiltExchange } from '../api/journal/restore.ts';
import { readSnapshot, SNAPSHOT_DIR, snapshotPaths } from '../api/journal/snapshot-file.ts';
import { buildFromHeader } from './data-dir.ts';
import { UsageError } from './usage-error.ts';

/**
 * `perpsim fork DIR --at TIME --out DIR2`: the venue of a journaled server as it was at any
 * journaled instant. Because the engine is deterministic, the journal is the checkpoint: its
 * lines up to TIME (sim time, RFC 3339 or integer ns) are copied byte for byte to a new journal
 * in DIR2, with the clock brought to TIME; `perpsim serve --data-dir DIR2` then continues from
 * there — with other clients or strategies. The fork is rebuilt once here, to check it and to
 * print its state hash: from the newest snapshot at or before TIME when there is a good one
 * (it is copied along, still valid since the journal's start is the same bytes), else from the
 * start.
 */
export async function forkCommand(dir: string, options: { at: string; out: string }, out: (line: string) => void = (l) => process.stdout.write(l + '\n')): Promise<number> {
  if (!hasJournal(dir)) throw new UsageError(`${dir} holds no journal (journal.jsonl): start perpsim serve --data-dir ${dir} first`);
  const atNs = /^\d+$/.test(options.at) ? BigInt(options.at) : parseTimestamp(options.at);
  if (atNs === undefined) throw new UsageError(`--at must be an RFC 3339 time or integer nanoseconds, got "${options.at}"`);
  if (existsSync(options.out) && hasJournal(options.out)) throw new UsageError(`${options.out} already holds a journal`);
  const { header, bytes, completeBytes } = readJournalBytes(dir);
  const headerEnd = bytes.indexOf(0x0a) + 1;
  const entries = entriesIn(bytes, headerEnd, completeBytes);
  const startNs = parseTimestamp((header.scenario as { start: string }).start);
  if (startNs !== undefined && atNs < startNs) throw new UsageError(`--at ${options.at} is before the scenario starts (${formatTimestampNs(startNs)})`);
  // Sim time never goes back, so the entries up to TIME are a prefix of the journal.
  const firstAfter = entries.findIndex((e) => BigInt(e.t) > atNs);
  const keptCount = firstAfter < 0 ? entries.length : firstAfter;
  const keptBytes = lineEnd(bytes, headerEnd, keptCount);
  const atTime: JournalEntry = { k: 'time', t: String(atNs) };

  const options_ = { manual: true };
  let built: BuiltExchange | undefined;
  let from: string | undefined;
  for (const path of snapshotPaths(dir)) {
    try {
      const { meta } = readSnapshot(path);
      if (meta.entries > keptCount || BigInt(meta.t) > atNs) continue; // after TIME
      const loaded = await loadSnapshot(path, bytes, keptBytes, header, (h) => buildFromHeader(h, options_));
      if (loaded === undefined) break;
      replayJournal(loaded.built.exchange, [...entries.slice(meta.entries, keptCount), atTime], loaded.meta.pace);
      built = loaded.built;
      from = path;
      break;
    } catch {
      // a damaged snapshot: try the one before it, else rebuild from the start
    }
  }
  if (built === undefined) {
    built = await buildFromHeader(header, options_);
    replayJournal(built.exchange, [...entries.slice(0, keptCount), atTime]);
  }
  mkdirSync(options.out, { recursive: true });
  writeFileSync(join(options.out, JOURNAL_FILE), Buffer.concat([bytes.subarray(0, keptBytes), Buffer.from(JSON.stringify(atTime) + '\n')]), { flag: 'wx' });
  if (from !== undefined) {
    mkdirSync(join(options.out, SNAPSHOT_DIR), { recursive: true });
    copyFileSync(from, join(options.out, SNAPSHOT_DIR, basename(from)));
  }
  built.exchange.commands.close();
  out(`forked ${dir} at ${formatTimestampNs(atNs)}: ${keptCount} of ${entries.length} entries → ${options.out}${from === undefined ? '' : ` (rebuilt from ${basename(from)})`}`);
  out(`state_hash: ${built.exchange.venue.stateHash()}`);
  return 0;
}

/** The byte offset just past the `count`-th line after `from`. */
function lineEnd(bytes: Buffer, from: number, count: number): number {
  let at = from;
  for (let i = 0; i < count; i++) at = bytes.indexOf(0x0a, at) + 1;
  return at;
}
