import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedFolder } from './shared-data.ts';

const ROOT = join(import.meta.dirname, '../..');
const EXCERPT = join(ROOT, 'data/lobster');
const MESSAGE = 'AMZN_2012-06-21_34200000_57600000_message_1.csv';
const BOOK = 'AMZN_2012-06-21_34200000_57600000_orderbook_1.csv';
const tmp = mkdtempSync(join(tmpdir(), 'perpsim-verify-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs `node src/cli/bin.js ...args` and gives its exit code and output. */
function perpsim(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('node', [join(ROOT, 'src/cli/bin.js'), ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr });
    });
  });
}

describe('perpsim verify lobster (end to end)', () => {
  it('exits 0 and ends with "rows: N matched: N" when every row matches', async () => {
    const r = await perpsim('verify', 'lobster', join(EXCERPT, MESSAGE), join(EXCERPT, BOOK));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('rows: 100 matched: 100');
  });

  it('exits 1 and prints the first mismatch with the row, expected and got', async () => {
    const book = readFileSync(join(EXCERPT, BOOK), 'utf8').split('\n');
    // Row 6 follows a hidden execution (no visible change): inside the window the book must
    // come from the messages alone, so a wrong size there is caught.
    book[5] = '2239500,100,2237500,75';
    writeFileSync(join(tmp, BOOK), book.join('\n'));
    writeFileSync(join(tmp, MESSAGE), readFileSync(join(EXCERPT, MESSAGE)));
    const r = await perpsim('verify', 'lobster', join(tmp, MESSAGE), join(tmp, BOOK));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('first mismatch at row 6\n  expected: 2239500,100,2237500,75\n  got:      2239500,100,2237500,74\n');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('rows: 100 matched: 99');
  });

  it('exits 2 with one line on stderr for bad input', async () => {
    const [missing, usage] = await Promise.all([perpsim('verify', 'lobster', join(tmp, 'nope.zip')), perpsim('verify', 'tardis', 'x.csv')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`perpsim: ${join(tmp, 'nope.zip')}: no such file\n`);
    expect(usage.code).toBe(2);
    expect(usage.stderr.split('\n')).toHaveLength(2);
  });
});

const lobster = sharedFolder('lobster-sample', 'perpsim verify lobster on a sample zip');

describe.skipIf(lobster.missing)(lobster.title, () => {
  it('verifies every row of the AMZN level-1 zip', async () => {
    const r = await perpsim('verify', 'lobster', join(lobster.dir, 'LOBSTER_SampleFile_AMZN_2012-06-21_1.zip'));
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('AMZN 2012-06-21, 1 level per side\n')).toBe(true);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('rows: 57515 matched: 57515');
  }, 30_000);
});
