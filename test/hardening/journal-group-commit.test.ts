import { readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalFile, type JournalIo } from '../../src/api/journal/journal-file.ts';
import { JOURNAL_FILE, readJournal } from '../../src/api/journal/journal-read.ts';
import { tempDir } from '../cli/cli-helpers.ts';

/**
 * The journal's pipelined group commit, with the sync in the test's hands: a turn's entries are
 * written at the end of the turn and synced off the event loop; entries added while a sync runs
 * form the next group, written only when that sync completes (one sync in flight); output held
 * at the gate is released in order, each by the sync covering everything journaled before it;
 * REST's `durable()` is one promise per group. A failed write or sync releases nothing, ever.
 */
const cleanups: (() => unknown)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

/** Real writes; syncs complete only when the test says (`complete()`), or fail. */
class ManualIo implements JournalIo {
  readonly syncs: ((err: Error | null) => void)[] = [];
  failWrite: Error | undefined;
  write(fd: number, bytes: Buffer, length: number, position: number): number {
    if (this.failWrite !== undefined) throw this.failWrite;
    return writeSync(fd, bytes, 0, length, position);
  }
  fdatasync(_fd: number, done: (err: Error | null) => void): void {
    this.syncs.push(done);
  }
  complete(err: Error | null = null): void {
    this.syncs.shift()!(err);
  }
}

function open(io?: JournalIo): { journal: JournalFile; lines: () => string[]; dir: string } {
  const { dir, remove } = tempDir('perpsim-group-commit-');
  const journal = JournalFile.create(dir, { perpsim_journal: 1, scenario: {}, seed: 0 }, io);
  cleanups.push(remove, () => journal.close());
  // the last piece is the zeros written ahead of the end (or nothing after a close)
  return { journal, lines: () => readFileSync(join(dir, JOURNAL_FILE), 'utf8').split('\n').slice(1, -1), dir };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const line = (t: number) => `{"k":"time","t":"${t}"}`;

describe('the journal commits in pipelined groups', () => {
  it('writes a turn’s entries with one write at the end of the turn, and opens the gate only when their sync completes', async () => {
    const io = new ManualIo();
    const { journal, lines } = open(io);
    expect(journal.open).toBe(true);
    journal.addLine(line(1));
    journal.addLine(line(2));
    expect(journal.open).toBe(false);
    const released: string[] = [];
    journal.hold(() => released.push('a'));
    expect(lines()).toEqual([]); // not before the end of the turn
    await turn();
    expect(lines()).toEqual([line(1), line(2)]); // one group
    expect(io.syncs.length).toBe(1);
    expect(released).toEqual([]); // written, not yet synced
    io.complete();
    expect(released).toEqual(['a']);
    expect(journal.open).toBe(true);
    let ran = false;
    journal.hold(() => (ran = true)); // open gate: at once
    expect(ran).toBe(true);
  });

  it('gathers the next group while a sync is in flight, keeps one sync in flight, and releases held output in order', async () => {
    const io = new ManualIo();
    const { journal, lines } = open(io);
    const released: number[] = [];
    journal.addLine(line(1));
    journal.hold(() => released.push(1));
    await turn();
    for (let t = 2; t <= 4; t++) {
      journal.addLine(line(t)); // the loop goes on applying commands during the sync
      journal.hold(() => released.push(t));
      await turn();
    }
    expect(io.syncs.length).toBe(1); // one sync in flight
    expect(lines()).toEqual([line(1)]); // the next group waits for it
    io.complete(); // group 1 durable; group 2–4 written and its sync started
    expect(released).toEqual([1]);
    expect(lines()).toEqual([1, 2, 3, 4].map(line));
    expect(io.syncs.length).toBe(1);
    io.complete();
    expect(released).toEqual([1, 2, 3, 4]);
    expect(journal.syncStats.count).toBe(2);
    expect(journal.syncStats.entries).toBe(4);
  });

  it('answers REST with one promise per group, resolved by the sync covering it', async () => {
    const io = new ManualIo();
    const { journal } = open(io);
    await journal.durable(); // nothing pending: at once
    journal.addLine(line(1));
    const first = journal.durable();
    journal.addLine(line(2));
    expect(journal.durable()).toBe(first); // one promise per group, not per request
    let done = false;
    void first.then(() => (done = true));
    await turn();
    await turn();
    expect(done).toBe(false);
    io.complete();
    await first;
    expect(done).toBe(true);
  });

  it('takes back a refused command’s entry before it is written', async () => {
    const { journal, lines } = open(new ManualIo());
    journal.addLine(line(1));
    journal.addLine(line(2));
    journal.retractLast();
    await turn();
    expect(lines()).toEqual([line(1)]);
  });

  it('releases nothing after a failed sync, refuses further entries and reports the failure once', async () => {
    const io = new ManualIo();
    const { journal } = open(io);
    const failures: string[] = [];
    journal.onFailure = (err) => failures.push(err.message);
    const released: number[] = [];
    journal.addLine(line(1));
    journal.hold(() => released.push(1));
    await turn();
    journal.addLine(line(2));
    journal.hold(() => released.push(2));
    io.complete(new Error('EIO'));
    expect(released).toEqual([]);
    expect(failures).toEqual(['EIO']);
    expect(journal.open).toBe(false);
    journal.hold(() => released.push(3));
    expect(released).toEqual([]);
    expect(() => journal.addLine(line(3))).toThrow(/journal failed \(EIO\)/);
  });

  it('treats a failed write like a failed sync: nothing written is acknowledged', async () => {
    const io = new ManualIo();
    const { journal } = open(io);
    const failures: string[] = [];
    journal.onFailure = (err) => failures.push(err.message);
    io.failWrite = new Error('ENOSPC');
    journal.addLine(line(1));
    let released = false;
    journal.hold(() => (released = true));
    await turn();
    expect(failures).toEqual(['ENOSPC']);
    expect(io.syncs.length).toBe(0);
    expect(released).toBe(false);
  });

  it('flushSync writes and syncs on the spot and releases everything held (snapshots, shutdown)', async () => {
    const { journal, lines } = open();
    journal.addLine(line(1));
    let released = false;
    journal.hold(() => (released = true));
    journal.flushSync();
    expect(lines()).toEqual([line(1)]);
    expect(released).toBe(true);
    expect(journal.written).toBe(1);
  });

  it('writes groups over zeros written ahead (a crash leaves them, readers cut them off) and truncates them on close', async () => {
    const { journal, dir } = open();
    const file = join(dir, JOURNAL_FILE);
    journal.addLine(line(1));
    journal.addLine(line(2));
    await journal.durable();
    const bytes = readFileSync(file);
    expect(statSync(file).size).toBeGreaterThanOrEqual(4 * 1024 * 1024);
    expect(bytes.subarray(journal.bytes).every((b) => b === 0)).toBe(true);
    const read = readJournal(dir); // as a restart after a crash sees it
    expect(read.entries).toEqual([{ k: 'time', t: '1' }, { k: 'time', t: '2' }]);
    expect(read.completeBytes).toBe(journal.bytes);
    journal.close();
    expect(statSync(file).size).toBe(journal.bytes);
    expect(readFileSync(file, 'utf8').endsWith(`${line(2)}\n`)).toBe(true);
  });

  it('for any interleaving of entries, held output, turns and sync completions: releases in order, each only after every entry before it is synced, one sync in flight', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('add', 'hold', 'turn', 'complete'), { maxLength: 60 }), async (ops) => {
        const io = new ManualIo();
        const { dir, remove } = tempDir('perpsim-group-commit-');
        const journal = JournalFile.create(dir, { perpsim_journal: 1, scenario: {}, seed: 0 }, io);
        let added = 0;
        let held = 0;
        const released: number[] = [];
        const hold = (): void => {
          const k = held++;
          const before = added;
          journal.hold(() => {
            expect(journal.syncStats.entries).toBeGreaterThanOrEqual(before); // never before its entries are durable
            released.push(k);
          });
        };
        const step = async (op: string): Promise<void> => {
          if (op === 'add') {
            journal.addLine(line(added++));
          } else if (op === 'hold') hold();
          else if (op === 'turn') await turn();
          else if (io.syncs.length > 0) io.complete();
          expect(io.syncs.length).toBeLessThanOrEqual(1);
        };
        for (const op of ops) await step(op);
        for (let i = 0; i < 200 && !(journal.open && io.syncs.length === 0); i++) await step(io.syncs.length > 0 ? 'complete' : 'turn');
        expect(released).toEqual(Array.from({ length: held }, (_, k) => k)); // all, in order
        expect(journal.syncStats.entries).toBe(added);
        journal.close();
        remove();
      }),
      { seed: 17, numRuns: 100 },
    );
  });
});
