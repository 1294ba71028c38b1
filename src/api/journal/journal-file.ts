import { closeSync, existsSync, fdatasyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { JournalEntry, JournalHeader } from './entries.ts';

/** The journal's file inside a data directory. */
export const JOURNAL_FILE = 'journal.jsonl';

/**
 * An append-only JSON-lines file: a header line, then one entry per line. Entries are buffered
 * and written with one `write` + `fdatasync` per event-loop turn ({@link flushSync}); the
 * server answers a command only after the flush that made its entry durable, so everything
 * acknowledged survives kill -9. A line cut short by a crash (no newline) is ignored on reading.
 */
export class JournalFile {
  /** Entries added since the last flush, as JSON lines each ending in a newline. */
  private pendingText = '';
  private pendingCount = 0;
  /** Where the last pending entry starts in `pendingText` (for {@link retractLast}). */
  private lastStart = 0;
  /** One promise for everything waiting on the next flush (REST answers), not one per request. */
  private flushed: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private scheduled = false;
  private closed = false;
  /** Entries written since open (for the banner and tests). */
  written = 0;
  /** Called after each flush that wrote entries (periodic snapshots hang here). */
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

  /** Resolves once everything added so far is on disk (at once when nothing is pending). */
  durable(): Promise<void> {
    if (this.pendingCount === 0) return Promise.resolve();
    return (this.flushed ??= new Promise((resolve) => (this.wake = resolve)));
  }

  /** Writes and fsyncs whatever is pending (one write, one fdatasync), then wakes those waiting for it. */
  flushSync(): void {
    if (this.pendingCount > 0 && !this.closed) {
      const text = this.pendingText;
      this.written += this.pendingCount;
      this.entries += this.pendingCount;
      this.pendingText = '';
      this.pendingCount = 0;
      this.lastStart = 0;
      this.bytes += writeSync(this.fd, text);
      fdatasyncSync(this.fd);
      this.onFlushed?.();
    }
    const wake = this.wake;
    this.flushed = undefined;
    this.wake = undefined;
    wake?.();
  }

  close(): void {
    if (this.closed) return;
    this.flushSync();
    this.closed = true;
    closeSync(this.fd);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flushSync();
    });
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
