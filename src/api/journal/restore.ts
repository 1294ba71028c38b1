import { truncateSync } from 'node:fs';
import { join } from 'node:path';
import type { Exchange } from '../exchange.ts';
import { applyEntry, type JournalEntry, type JournalHeader } from './entries.ts';
import { hasJournal, JOURNAL_FILE, JournalFile, readJournal } from './journal-file.ts';

/**
 * Replays journal entries into an exchange freshly built from the journal's scenario and seed
 * (its simulation started, no sockets yet). Entries apply in order at their sim times, so the
 * result is the state the journaled server had: same state hash, same id counters.
 *
 * @returns The number of entries applied.
 */
export function replayJournal(exchange: Exchange, entries: readonly JournalEntry[]): number {
  let pace: (JournalEntry & { k: 'clock' }) | undefined;
  for (const entry of entries) {
    applyEntry(exchange, entry);
    if (entry.k === 'clock') pace = entry;
  }
  // The pace an operator set survives the restart (a paused venue stays paused).
  if (pace !== undefined) exchange.driver.restorePace(pace.paused, pace.speed);
  return entries.length;
}

/** A data directory opened for serving: the exchange is built by `build` and journaling to DIR. */
export interface OpenedDataDir {
  exchange: Exchange;
  /** Entries replayed from an existing journal (0 for a new one). */
  restored: number;
  header: JournalHeader;
}

/**
 * Opens `dir` for a journaled server. With a journal there, the exchange is rebuilt from its
 * header (scenario and seed, which override what was asked) and its entries are replayed; a
 * line torn by a crash is cut off. Without one, a journal is created for `fresh`. Either way,
 * every later command is journaled.
 */
export async function openDataDir(
  dir: string,
  fresh: () => JournalHeader,
  build: (header: JournalHeader) => Promise<Exchange>,
): Promise<OpenedDataDir> {
  if (!hasJournal(dir)) {
    const header = fresh();
    const exchange = await build(header);
    exchange.commands.attach(JournalFile.create(dir, header));
    return { exchange, restored: 0, header };
  }
  const { header, entries, completeBytes, tornBytes } = readJournal(dir);
  const exchange = await build(header);
  const restored = replayJournal(exchange, entries);
  // A torn last line would glue itself to the next entry: cut it off before appending.
  if (tornBytes > 0) truncateSync(join(dir, JOURNAL_FILE), completeBytes);
  exchange.commands.attach(JournalFile.append(dir));
  return { exchange, restored, header };
}
