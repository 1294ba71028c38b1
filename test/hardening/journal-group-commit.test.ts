import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JOURNAL_FILE, JournalFile } from '../../src/api/journal/journal-file.ts';
import { tempDir } from '../cli/cli-helpers.ts';

/**
 * The journal's group commit: REST answers wait on `durable()`, which resolves only once a sync
 * that began after their entries were written has completed; every waiter of a turn shares one
 * promise; entries added while a sync runs form the next group.
 */
const cleanups: (() => unknown)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function open(): { journal: JournalFile; lines: () => string[] } {
  const { dir, remove } = tempDir('perpsim-group-commit-');
  const journal = JournalFile.create(dir, { perpsim_journal: 1, scenario: {}, seed: 0 });
  cleanups.push(remove, () => journal.close());
  return { journal, lines: () => readFileSync(join(dir, JOURNAL_FILE), 'utf8').split('\n').slice(1, -1) };
}

describe('the journal commits in groups', () => {
  it('answers a turn of commands with one promise, after their entries are in the file', async () => {
    const { journal, lines } = open();
    journal.addLine('{"k":"time","t":"1"}');
    const first = journal.durable();
    journal.addLine('{"k":"time","t":"2"}');
    expect(journal.durable()).toBe(first); // one promise per group, not per request
    let done = false;
    void first.then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false); // nothing is on disk yet
    expect(lines()).toEqual([]);
    await first;
    expect(lines()).toEqual(['{"k":"time","t":"1"}', '{"k":"time","t":"2"}']);
    await journal.durable(); // nothing pending: at once
  });

  it('puts entries added while a group syncs into the next group, each released in order', async () => {
    const { journal, lines } = open();
    const released: number[] = [];
    for (let group = 1; group <= 4; group++) {
      journal.addLine(`{"k":"time","t":"${group}"}`);
      void journal.durable().then(() => released.push(group));
      await new Promise((resolve) => setImmediate(resolve)); // a turn: the next group arrives while this one may still sync
    }
    await journal.durable();
    await new Promise((resolve) => setImmediate(resolve));
    expect(released).toEqual([1, 2, 3, 4]);
    expect(lines().length).toBe(4);
  });

  it('flushSync makes everything durable at once and releases every waiter (the websocket path)', async () => {
    const { journal, lines } = open();
    journal.addLine('{"k":"time","t":"1"}');
    const waiting = journal.durable();
    journal.flushSync();
    expect(lines()).toEqual(['{"k":"time","t":"1"}']);
    await waiting;
    expect(journal.written).toBe(1);
  });
});
