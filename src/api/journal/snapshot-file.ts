import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { GraphImage } from './object-graph.ts';

/** Where a data directory keeps its snapshots. */
export const SNAPSHOT_DIR = 'snapshots';

/** How many snapshots are kept (the newest, and the one before it in case the newest is damaged). */
const KEEP = 2;

/** The clock's pace an operator left (the last `clock` journal entry), carried by a snapshot. */
export interface Pace {
  paused: boolean;
  speed: number | 'max';
}

/** What a snapshot corresponds to; its first line. */
export interface SnapshotMeta {
  perpsim_snapshot: 1;
  /** Journal entries (after the header) the snapshot includes. */
  entries: number;
  /** Byte length of the journal up to and including those entries: the tail starts here. */
  bytes: number;
  /** Sim time, ns as decimal text. */
  t: string;
  /** `venue.stateHash()` at the snapshot: checked again after loading it. */
  state_hash: string;
  pace: Pace | null;
  /** SHA-256 (hex) of the second line, the state itself. */
  sha256: string;
}

const nameOf = (entries: number) => `snapshot-${String(entries).padStart(12, '0')}.json`;

/**
 * Writes a snapshot atomically: a temporary file, fsync'd, renamed over its final name, the
 * directory fsync'd — a crash leaves the old snapshots or the new one, never half of one. Older
 * snapshots beyond the newest {@link KEEP} are removed.
 *
 * @returns The snapshot's path.
 */
export function writeSnapshot(dir: string, meta: Omit<SnapshotMeta, 'perpsim_snapshot' | 'sha256'>, image: GraphImage): string {
  const folder = join(dir, SNAPSHOT_DIR);
  mkdirSync(folder, { recursive: true });
  const body = JSON.stringify(image);
  const head: SnapshotMeta = { perpsim_snapshot: 1, ...meta, sha256: createHash('sha256').update(body).digest('hex') };
  const path = join(folder, nameOf(meta.entries));
  const temp = path + '.tmp';
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, JSON.stringify(head) + '\n');
    writeSync(fd, body);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  syncDirectory(folder);
  for (const old of snapshotPaths(dir).slice(KEEP)) rmSync(old, { force: true });
  return path;
}

/** Snapshot files of DIR, newest (most entries) first. */
export function snapshotPaths(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(dir, SNAPSHOT_DIR));
  } catch {
    return [];
  }
  return names
    .filter((n) => /^snapshot-\d{12}\.json$/.test(n))
    .sort()
    .reverse()
    .map((n) => join(dir, SNAPSHOT_DIR, n));
}

/** Reads and checks a snapshot (its checksum); throws naming what is wrong with it. */
export function readSnapshot(path: string): { meta: SnapshotMeta; image: GraphImage } {
  const text = readFileSync(path, 'utf8');
  const cut = text.indexOf('\n');
  if (cut < 0) throw new Error('truncated: no state after the header');
  const meta = JSON.parse(text.slice(0, cut)) as SnapshotMeta;
  if (meta.perpsim_snapshot !== 1) throw new Error('not a perpsim snapshot');
  const body = text.slice(cut + 1);
  if (createHash('sha256').update(body).digest('hex') !== meta.sha256) throw new Error('checksum mismatch (truncated or damaged)');
  return { meta, image: JSON.parse(body) as GraphImage };
}

function syncDirectory(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
