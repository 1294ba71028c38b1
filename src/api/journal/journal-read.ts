import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JournalEntry, JournalHeader } from './entries.ts';

/** The journal's file inside a data directory. */
export const JOURNAL_FILE = 'journal.jsonl';

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
