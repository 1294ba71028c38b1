import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, expect, it } from 'vitest';
import { buildRequestedRun } from '../../src/cli/replay-flags.ts';
import { runBuilt } from '../../src/cli/run-command.ts';
import { UsageError } from '../../src/cli/usage-error.ts';
import { NO_PROGRESS } from '../../src/cli/progress.ts';
import { tempDir } from './cli-helpers.ts';

const CAPTURE = '../shared/data/hftbacktest-binance-futures-raw/usdm/btcusdt_20240808.gz';
const tmp = tempDir('perpsim-run-mid-');
afterAll(() => tmp.remove());

it('says in one line where a recording that went bad after the span pass read it stopped the run, instead of a stack trace', async () => {
  // A recording the span pass read whole, then changed before the run reached its end (a file
  // rewritten or cut meanwhile): the reader thread meets the bad line mid-run.
  const lines = gunzipSync(readFileSync(CAPTURE)).toString('utf8').split('\n').slice(0, 120_000);
  const file = join(tmp.dir, 'capture.txt');
  writeFileSync(file, lines.join('\n'));
  const request = { scenario: 'default', replay: { files: [file] }, outDir: join(tmp.dir, 'out') } as Parameters<typeof buildRequestedRun>[0] & { outDir: string };
  const { scenario, sim, built } = await buildRequestedRun(request);
  let last = lines.length - 1;
  while (!lines[last]!.includes('@depth')) last--;
  lines[last] = lines[last]!.replace('"b":[["', '"b":[[x"'); // same length: the bytes before it read as before
  writeFileSync(file, lines.join('\n'));
  let thrown: unknown;
  try {
    runBuilt(scenario, sim, request, NO_PROGRESS, built.replayer);
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(UsageError);
  const message = (thrown as Error).message;
  expect(message).toMatch(/^replay failed at \d{4}-\d\d-\d\dT[\d:.]+Z of the run \(the event log in .* stops there\): .*capture\.txt:\d+/);
  expect(message).not.toContain('\n');
}, 120_000);
