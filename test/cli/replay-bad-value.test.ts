import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { cliInProcess, tempDir } from './cli-helpers.ts';

const CAPTURE = join(import.meta.dirname, '../../../shared/data/hftbacktest-binance-futures-raw/usdm/btcusdt_20240808.gz');
const tmp = tempDir('perpsim-bad-value-');
afterAll(() => tmp.remove());

/**
 * The capture's first 40,000 lines with one depth level's price made bad near the end: the span
 * pass reads a raw capture's headers only (src/replay/l2/l2-span-binance.ts), so the run meets
 * the bad price when it reaches that line.
 */
function badCapture(): { file: string; line: number } {
  const lines = gunzipSync(readFileSync(CAPTURE)).toString('utf8').split('\n').slice(0, 40_000);
  let at = lines.length - 1;
  while (!lines[at]!.includes('@depth') || !lines[at]!.includes('"b":[["')) at--;
  lines[at] = lines[at]!.replace('"b":[["', '"b":[["x');
  const file = join(tmp.dir, 'btcusdt_20240808.txt');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, line: at + 1 };
}

describe('a raw capture with a bad price past its start', () => {
  const { file, line } = badCapture();
  const where = new RegExp(`btcusdt_20240808\\.txt:${line} column data\\.b\\[0\\]\\[0\\]: "x[0-9.]+" is not a decimal string on the step 0\\.1$`);

  it('stops a backtest with one line naming the file, line and field, and exit code 2', async () => {
    const strategy = join(tmp.dir, 'nothing.mjs');
    writeFileSync(strategy, 'export default function () { return { async onStart() {} }; }\n');
    const out = join(tmp.dir, 'bt');
    const r = await cliInProcess('backtest', strategy, '--replay', file, '--quiet', '--out', out);
    expect(r.stderr.endsWith('\n') && !r.stderr.trimEnd().includes('\n'), r.stderr).toBe(true);
    expect(r.stderr.trimEnd()).toMatch(where);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(2);
    // No report of a run that did not finish.
    expect(existsSync(join(out, 'report.json'))).toBe(false);
  }, 60_000);

  it('stops a run with one line saying when, the event log closed where it stopped', async () => {
    const out = join(tmp.dir, 'run');
    const r = await cliInProcess('run', '--replay', file, '--quiet', '--out', out);
    expect(r.stderr.endsWith('\n') && !r.stderr.trimEnd().includes('\n'), r.stderr).toBe(true);
    expect(r.stderr.trimEnd()).toMatch(/^perpsim: replay failed at \d{4}-\d\d-\d\dT[\d:.]+Z of the run \(the event log in .* stops there\): /);
    expect(r.stderr.trimEnd()).toMatch(where);
    expect(r.code).toBe(2);
    expect(existsSync(join(out, 'events.arrow'))).toBe(true);
    expect(existsSync(join(out, 'summary.json'))).toBe(false);
  }, 60_000);
});
