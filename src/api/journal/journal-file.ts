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
  private pending: string[] = [];
  private waiters: (() => void)[] = [];
  private scheduled = false;
  private closed = false;
  /** Entries written since open (for the banner and tests). */
  written = 0;

  private constructor(private readonly fd: number) {}

  /** Creates DIR/journal.jsonl with its header (DIR is created if missing). */
  static create(dir: string, header: JournalHeader): JournalFile {
    mkdirSync(dir, { recursive: true });
    const fd = openSync(join(dir, JOURNAL_FILE), 'wx');
    const file = new JournalFile(fd);
    writeSync(fd, JSON.stringify(header) + '\n');
    fdatasyncSync(fd);
    return file;
  }

  /** Opens an existing journal for appending. */
  static append(dir: string): JournalFile {
    return new JournalFile(openSync(join(dir, JOURNAL_FILE), 'a'));
  }

  /** Appends an entry (durable at the next flush). */
  add(entry: JournalEntry): void {
    if (this.closed) throw new Error('journal is closed');
    this.pending.push(JSON.stringify(entry));
    this.schedule();
  }

  /** Takes back the entry just added (its command failed before changing anything). */
  retractLast(): void {
    this.pending.pop();
  }

  /** Resolves once everything added so far is on disk (at once when nothing is pending). */
  durable(): Promise<void> {
    if (this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Writes and fsyncs whatever is pending, then wakes those waiting for it. */
  flushSync(): void {
    if (this.pending.length > 0 && !this.closed) {
      const text = this.pending.join('\n') + '\n';
      this.written += this.pending.length;
      this.pending = [];
      writeSync(this.fd, text);
      fdatasyncSync(this.fd);
    }
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
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
  const path = join(dir, JOURNAL_FILE);
  const bytes = readFileSync(path);
  const completeBytes = bytes.lastIndexOf(0x0a) + 1;
  const lines = bytes.subarray(0, completeBytes).toString('utf8').split('\n').filter((l) => l.length > 0);
  if (lines.length === 0) throw new Error(`${path}: no header`);
  const header = JSON.parse(lines[0]!) as JournalHeader;
  if (header.perpsim_journal !== 1) throw new Error(`${path}: not a perpsim journal`);
  return { header, entries: lines.slice(1).map((l) => JSON.parse(l) as JournalEntry), completeBytes, tornBytes: bytes.length - completeBytes };
}
