import { truncateSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Exchange } from '../exchange.ts';
import { applyEntry, type JournalEntry, type JournalHeader } from './entries.ts';
import { JournalFile } from './journal-file.ts';
import { entriesIn, hasJournal, JOURNAL_FILE, readJournalBytes } from './journal-read.ts';
import { restoreGraph } from './object-graph.ts';
import { SNAPSHOT_CLASSES } from './snapshot-classes.ts';
import { readSnapshot, snapshotPaths, type Pace, type SnapshotMeta } from './snapshot-file.ts';
import { Snapshotter, type SnapshotPolicy } from './snapshotter.ts';

/**
 * Replays journal entries into an exchange freshly built from the journal's scenario and seed
 * (its simulation started, no sockets yet) — or restored from a snapshot, with `pace` the one the
 * snapshot carried. Entries apply in order at their sim times, so the result is the state the
 * journaled server had: same state hash, same id counters.
 *
 * @returns The number of entries applied.
 */
export function replayJournal(exchange: Exchange, entries: readonly JournalEntry[], pace: Pace | null = null): number {
  for (const entry of entries) {
    applyEntry(exchange, entry);
    if (entry.k === 'clock') pace = { paused: entry.paused, speed: entry.speed };
  }
  // The pace an operator set survives the restart (a paused venue stays paused).
  if (pace !== null) {
    exchange.driver.restorePace(pace.paused, pace.speed);
    exchange.commands.pace = pace;
  }
  return entries.length;
}

/**
 * An exchange built from a journal header. `roots` is the state a snapshot holds (the venue, the
 * credentials, the index actors and random streams), or undefined where a snapshot could not
 * be exact: with agents, whose pending wake-ups and messages live in closures on the clock.
 */
export interface BuiltExchange {
  exchange: Exchange;
  roots: Record<string, object> | undefined;
}

/** A data directory opened for serving: the exchange is built by `build` and journaling to DIR. */
export interface OpenedDataDir {
  exchange: Exchange;
  /** Entries replayed from the journal (0 for a new one; only the tail after a snapshot). */
  restored: number;
  /** The snapshot the restore started from, if any. */
  snapshot: { file: string; entries: number } | undefined;
  /** Snapshots passed over (damaged, or not fitting), each with why. */
  skipped: string[];
  /** True when this server writes snapshots. */
  snapshotting: boolean;
  header: JournalHeader;
}

/**
 * Opens `dir` for a journaled server. With a journal there, the exchange is rebuilt from its
 * header (scenario and seed, which override what was asked): from the newest snapshot that loads
 * and checks out (its checksum, its place in the journal, the state hash after loading) plus the
 * journal's tail after it, else from the whole journal; a line torn by a crash is cut off.
 * Without one, a journal is created for `fresh`. Either way, every later command is journaled,
 * and snapshots are written by `policy` where they are exact.
 */
export async function openDataDir(
  dir: string,
  fresh: () => JournalHeader,
  build: (header: JournalHeader) => Promise<BuiltExchange>,
  policy?: SnapshotPolicy,
): Promise<OpenedDataDir> {
  if (!hasJournal(dir)) {
    const header = fresh();
    const built = await build(header);
    const journal = JournalFile.create(dir, header);
    return { ...serve(dir, built, journal, policy), restored: 0, snapshot: undefined, skipped: [], header };
  }
  const { header, bytes, completeBytes } = readJournalBytes(dir);
  const headerEnd = bytes.indexOf(0x0a) + 1;
  const skipped: string[] = [];
  let opened: { built: BuiltExchange; restored: number; entries: number; snapshot?: { file: string; entries: number } } | undefined;
  for (const path of snapshotPaths(dir)) {
    try {
      const loaded = await loadSnapshot(path, bytes, completeBytes, header, build);
      if (loaded === undefined) break; // not exact for this scenario: the whole journal
      const tail = entriesIn(bytes, loaded.meta.bytes, completeBytes);
      const restored = replayJournal(loaded.built.exchange, tail, loaded.meta.pace);
      opened = { built: loaded.built, restored, entries: loaded.meta.entries + tail.length, snapshot: { file: basename(path), entries: loaded.meta.entries } };
      break;
    } catch (e) {
      skipped.push(`${basename(path)}: ${(e as Error).message}`);
    }
  }
  if (opened === undefined) {
    const built = await build(header);
    const entries = entriesIn(bytes, headerEnd, completeBytes);
    opened = { built, restored: replayJournal(built.exchange, entries), entries: entries.length };
  }
  // A torn last line would glue itself to the next entry: cut it off before appending.
  if (bytes.length > completeBytes) truncateSync(join(dir, JOURNAL_FILE), completeBytes);
  const journal = JournalFile.append(dir, opened.entries, completeBytes);
  return { ...serve(dir, opened.built, journal, policy), restored: opened.restored, snapshot: opened.snapshot, skipped, header };
}

/**
 * Builds the exchange of `header` and loads the snapshot at `path` into it: the clock runs its
 * own events (fixed by scenario and seed) up to the snapshot's time, then the state is put in
 * place and its hash checked. The journal entries after `meta.bytes` are the caller's to replay.
 * Throws naming what is wrong (checksum, place in `journal`, state hash); undefined when
 * snapshots are not exact for this scenario.
 */
export async function loadSnapshot(
  path: string,
  journal: Buffer,
  completeBytes: number,
  header: JournalHeader,
  build: (header: JournalHeader) => Promise<BuiltExchange>,
): Promise<{ built: BuiltExchange; meta: SnapshotMeta } | undefined> {
  const { meta, image } = readSnapshot(path);
  const headerEnd = journal.indexOf(0x0a) + 1;
  if (meta.bytes < headerEnd || meta.bytes > completeBytes || journal[meta.bytes - 1] !== 0x0a) throw new Error('does not end on a line of this journal');
  const built = await build(header);
  if (built.roots === undefined) return undefined;
  built.exchange.clock.runUntil(BigInt(meta.t));
  restoreGraph(image, built.roots, SNAPSHOT_CLASSES);
  if (built.exchange.venue.stateHash() !== meta.state_hash) throw new Error('state hash differs after loading');
  return { built, meta };
}

/** Starts journaling (and snapshotting, where exact and asked for). */
function serve(dir: string, built: BuiltExchange, journal: JournalFile, policy: SnapshotPolicy | undefined): { exchange: Exchange; snapshotting: boolean } {
  built.exchange.commands.attach(journal);
  const snapshotting = built.roots !== undefined && policy !== undefined && (policy.everyEntries > 0 || policy.everySeconds > 0);
  if (snapshotting) new Snapshotter(dir, built.exchange, built.roots!, journal, policy!).start();
  return { exchange: built.exchange, snapshotting };
}
