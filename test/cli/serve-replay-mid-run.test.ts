import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, expect, it, vi } from 'vitest';
import { BIN, tempDir } from './cli-helpers.ts';

const CAPTURE = '../shared/data/hftbacktest-binance-futures-raw/usdm/btcusdt_20240808.gz';
const tmp = tempDir('perpsim-serve-mid-');
afterAll(() => tmp.remove());

it('stops serving with one line and exit 2 when a recording turns bad while it is served, instead of a stack trace or a crash', { timeout: 90_000 }, async () => {
  const lines = gunzipSync(readFileSync(CAPTURE)).toString('utf8').split('\n').slice(0, 120_000);
  const file = join(tmp.dir, 'capture.txt');
  writeFileSync(file, lines.join('\n'));
  const child = spawn(process.execPath, [BIN, 'serve', '--replay', file, '--manual', '--port', '0', '--json', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 80_000);
    child.on('exit', (code) => (clearTimeout(timer), resolve(code)));
  });
  await vi.waitFor(() => expect(stdout).toContain('\n'), { timeout: 60_000, interval: 50 });
  const info = JSON.parse(stdout.split('\n')[0]!) as { rest: string; admin_token: string };
  // the served recording changes under the server: its last depth line no longer parses (same length)
  let last = lines.length - 1;
  while (!lines[last]!.includes('@depth')) last--;
  lines[last] = lines[last]!.replace('"b":[["', '"b":[[x"');
  writeFileSync(file, lines.join('\n'));
  // an advance past the end of the recording runs into the bad line
  await fetch(`${info.rest}/admin/clock/advance`, { method: 'POST', headers: { authorization: `Bearer ${info.admin_token}`, 'content-type': 'application/json' }, body: '{"seconds":3600}' }).catch(() => undefined);
  expect(await exited).toBe(2);
  const said = stderr.split('\n').filter((l) => l.startsWith('perpsim serve: replay failed'));
  expect(said).toHaveLength(1);
  expect(said[0]).toMatch(/^perpsim serve: replay failed at \d{4}-\d\d-\d\dT[\d:.]+Z: .*capture\.txt:\d+ .*; stopped serving$/);
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
});
