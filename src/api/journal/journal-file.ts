import { closeSync, existsSync, fdatasync, fdatasyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { JournalEntry, JournalHeader } from './entries.ts';

/** The journal's file inside a data directory. */
export const JOURNAL_FILE = 'journal.jsonl';

/**
 * An append-only JSON-lines file: a header line, then one entry per line. Entries are buffered
 * and written with one `write` per event-loop turn, then made durable by `fdatasync` — nothing
 * acknowledged before it is on disk, so everything acknowledged survives kill -9. Two ways:
 *
 * - {@link flushSync}: write and `fdatasync` on the spot. The websocket output of a turn is
 *   corked and released right after this (the server's uncork hook), so it stays synchronous.
 * - otherwise (REST answers wait on {@link durable}): the turn's entries are written one
 *   event-loop turn later and `fdatasync`'d on libuv's thread pool while the main thread goes on
 *   serving — the next requests' entries form the next group, synced when the current sync
 *   completes (group commit). Waiters are released only by a sync that began after their
 *   entries were written.
 *
 * A line cut short by a crash (no newline) is ignored on reading.
 */
export class JournalFile {
  /** Entries added since the last write, as JSON lines each ending in a newline. */
  private pendingText = '';
  private pendingCount = 0;
  /** Where the last pending entry starts in `pendingText` (for {@link retractLast}). */
  private lastStart = 0;
  /** Writes so far, and how many of them a completed `fdatasync` covers. */
  private writes = 0;
  private synced = 0;
  private syncing = false;
  /** Those waiting for writes up to a number to be durable: one promise per group, not per request. */
  private waits: { upTo: number; promise: Promise<void>; resolve: () => void }[] = [];
  private scheduled = false;
  private closed = false;
  /** Entries written since open (for the banner and tests). */
  written = 0;
  /** Called after each write of entries (periodic snapshots hang here). */
  onFlushed: (() => void) | undefined;

  /**
   * @param entries Entries already in the file (after the header).
   * @param bytes The file's length (complete lines only).
   */
  private constructor(
    private readonly fd: number,
    public entries: number,
    public bytes: number,
  ) {}

  /** Creates DIR/journal.jsonl with its header (DIR is created if missing). */
  static create(dir: string, header: JournalHeader): JournalFile {
    mkdirSync(dir, { recursive: true });
    const fd = openSync(join(dir, JOURNAL_FILE), 'wx');
    const bytes = writeSync(fd, JSON.stringify(header) + '\n');
    fdatasyncSync(fd);
    return new JournalFile(fd, 0, bytes);
  }

  /** Opens an existing journal (of `entries` entries, `bytes` long) for appending. */
  static append(dir: string, entries: number, bytes: number): JournalFile {
    return new JournalFile(openSync(join(dir, JOURNAL_FILE), 'a'), entries, bytes);
  }

  /** Appends an entry (durable at the next flush). */
  add(entry: JournalEntry): void {
    this.addLine(JSON.stringify(entry));
  }

  /**
   * Appends an entry already written as one line of JSON (no newline inside): order entry
   * builds its line by hand, since stringifying a fresh object per order was most of the
   * journal's cost.
   */
  addLine(json: string): void {
    if (this.closed) throw new Error('journal is closed');
    this.lastStart = this.pendingText.length;
    this.pendingText += json + '\n';
    if (this.pendingCount++ === 0) this.schedule();
  }

  /** Takes back the entry just added (its command failed before changing anything). */
  retractLast(): void {
    if (this.pendingCount === 0) return;
    this.pendingText = this.pendingText.slice(0, this.lastStart);
    this.pendingCount--;
    this.lastStart = this.pendingText.length;
  }

  /** Resolves once everything added so far is on disk (at once when it already is). */
  durable(): Promise<void> {
    const upTo = this.pendingCount > 0 ? this.writes + 1 : this.writes;
    if (upTo <= this.synced) return Promise.resolve();
    const last = this.waits.at(-1);
    if (last !== undefined && last.upTo === upTo) return last.promise;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.waits.push({ upTo, promise, resolve });
    return promise;
  }

  /** Writes whatever is pending and fdatasyncs now, then wakes everyone waiting. */
  flushSync(): void {
    if (this.closed) return;
    this.write();
    if (this.writes > this.synced) {
      fdatasyncSync(this.fd);
      this.markSynced(this.writes);
    }
  }

  close(): void {
    if (this.closed) return;
    this.flushSync();
    this.closed = true;
    closeSync(this.fd);
  }

  private write(): void {
    if (this.pendingCount === 0) return;
    const text = this.pendingText;
    this.written += this.pendingCount;
    this.entries += this.pendingCount;
    this.pendingText = '';
    this.pendingCount = 0;
    this.lastStart = 0;
    this.bytes += writeSync(this.fd, text);
    this.writes++;
    this.onFlushed?.();
  }

  /** Starts an `fdatasync` on the thread pool covering every write so far, unless one is running (it restarts when done). */
  private syncInBackground(): void {
    if (this.syncing || this.closed || this.writes === this.synced) return;
    this.syncing = true;
    const upTo = this.writes;
    fdatasync(this.fd, (err) => {
      this.syncing = false;
      if (this.closed) return; // close() synced everything itself
      if (err !== null) throw err; // as fdatasyncSync would: never acknowledge what may not be on disk
      this.markSynced(upTo);
      this.syncInBackground();
    });
  }

  private markSynced(upTo: number): void {
    if (upTo > this.synced) this.synced = upTo;
    while (this.waits.length > 0 && this.waits[0]!.upTo <= this.synced) this.waits.shift()!.resolve();
  }

  /**
   * The background write runs one turn after the entries' own: when a websocket command wrote
   * output this turn, the server's uncork hook has by then made it durable synchronously, and
   * this finds nothing left to do.
   */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() =>
      setImmediate(() => {
        this.scheduled = false;
        if (this.closed) return;
        this.write();
        this.syncInBackground();
      }),
    );
  }
}

/** True when DIR holds a journal. */
export function hasJournal(dir: string): boolean {
  return existsSync(join(dir, JOURNAL_FILE));
}

/**
 * Reads DIR's journal: its header and complete entries. `completeBytes` is the length of the
 * part that ends with a newline; anything after it is a line torn by a crash, dropped here.
 */
export function readJournal(dir: string): { header: JournalHeader; entries: JournalEntry[]; completeBytes: number; tornBytes: number } {
  const { header, bytes, completeBytes } = readJournalBytes(dir);
  const headerEnd = bytes.indexOf(0x0a) + 1;
  return { header, entries: entriesIn(bytes, headerEnd, completeBytes), completeBytes, tornBytes: bytes.length - completeBytes };
}

/** DIR's journal as bytes, with its parsed header and the length of its complete lines. */
export function readJournalBytes(dir: string): { header: JournalHeader; bytes: Buffer; completeBytes: number } {
  const path = join(dir, JOURNAL_FILE);
  const bytes = readFileSync(path);
  const completeBytes = bytes.lastIndexOf(0x0a) + 1;
  if (completeBytes === 0) throw new Error(`${path}: no header`);
  const header = JSON.parse(bytes.subarray(0, bytes.indexOf(0x0a)).toString('utf8')) as JournalHeader;
  if (header.perpsim_journal !== 1) throw new Error(`${path}: not a perpsim journal`);
  return { header, bytes, completeBytes };
}

/** The entries on the complete lines of `bytes` between two line starts. */
export function entriesIn(bytes: Buffer, from: number, to: number): JournalEntry[] {
  return bytes
    .subarray(from, to)
    .toString('utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as JournalEntry);
}
