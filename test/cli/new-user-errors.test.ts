import { createServer, type Server } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess, perpsim, tempDir } from './cli-helpers.ts';

/** Runs the CLI in process; returns the exit code and what it wrote. */
const cli = cliInProcess;

function listenOnFreePort(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

// Every mistake a new user can make on the command line: each gives exactly one line on
// stderr naming the problem, nothing on stdout, and exit code 2.
describe('every CLI error a new user can make', () => {
  const tmp = tempDir('perpsim-new-user-');
  const file = join(tmp.dir, 'a-file');
  let busy: Server;
  let busyPort = 0;
  beforeAll(async () => {
    writeFileSync(file, 'not a directory\n');
    mkdirSync(join(tmp.dir, 'a-dir'));
    busy = await listenOnFreePort();
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => busy.close(resolve));
    tmp.remove();
  });

  const cases: [string, () => string[], RegExp][] = [
    ['an unknown command', () => ['strat'], /^unknown command 'strat'/],
    ['a misspelt command', () => ['serv'], /^unknown command 'serv' \(Did you mean serve\?\)$/],
    ['an unknown option of run, listing every option', () => ['run', '--bogus'], /^unknown option "--bogus" for run \(allowed: --scenario, --seed, --duration, --out, --quiet, --replay, --replay-mode, --queue-model, --tick-size, --lot-size\)$/],
    ['an unknown option of serve', () => ['serve', '--duration', '1h'], /^unknown option "--duration" for serve \(allowed: --scenario, --seed, --host, --port, --app-port, --speed, --manual, --admin-token, --no-ui, --port-file, --json, --user-passwords, --data-dir, --snapshot-entries, --snapshot-seconds, --quiet, --replay, --replay-mode, --queue-model, --tick-size, --lot-size\)$/],
    ['an unknown option of backtest', () => ['backtest', 'x.ts', '--speed', '2'], /^unknown option "--speed" for backtest \(allowed: --params, --scenario, --seed, --duration, --cash, --sample-interval, --out, --quiet, --replay, --replay-mode, --queue-model, --tick-size, --lot-size, --latency-file, --latency-activity\)$/],
    ['an unknown option of convert', () => ['convert', 'a.csv', '--to', 'csv', '--out', 'x.csv', '--format', 'csv'], /^unknown option "--format" for convert \(allowed: --to, --out, --from, --tick-size, --lot-size, --symbol, --skip-bad-rows\)$/],
    ['an unknown option of scenarios', () => ['scenarios', '--all'], /^unknown option "--all" for scenarios \(it takes no options\)$/],
    ['an option without its value', () => ['run', '--duration'], /^option '--duration <d>' argument missing$/],
    ['an option whose value is another option', () => ['run', '--out', '--seed', '1'], /^--out needs a value, got the option --seed$/],
    ['an option given twice', () => ['run', '--seed', '1', '--seed', '2'], /^--seed given twice$/],
    ['a value to a switch', () => ['serve', '--manual=yes'], /^--manual takes no value$/],
    ['a seed that is not an integer', () => ['run', '--seed', 'abc'], /^--seed must be a non-negative integer, got "abc"$/],
    ['a duration without a unit', () => ['run', '--duration', '60'], /^--duration must be a positive duration such as 30m, 1h or 1d, got "60"$/],
    ['a port out of range', () => ['serve', '--port', '99999'], /^--port must be a port number from 0 to 65535, got "99999"$/],
    ['a speed of zero', () => ['serve', '--speed', '0'], /^--speed must be a positive number up to 10000 or "max", got "0"$/],
    ['a speed above the cap', () => ['serve', '--speed', '1000000000'], /^--speed must be a positive number up to 10000 or "max", got "1000000000"$/],
    ['--speed with --manual', () => ['serve', '--manual', '--speed', '10'], /^--speed and --manual exclude each other/],
    ['an unknown scenario', () => ['run', '--scenario', 'btc'], /^scenario "btc" is neither a built-in scenario \(.*default, empty, .*\) nor a file$/],
    ['a stray argument', () => ['run', 'default'], /^too many arguments for 'run'\. Expected 0 arguments but got 1\.$/],
    ['--replay without files', () => ['run', '--replay', '--seed', '1'], /^--replay needs at least one file$/],
    ['a replay option without --replay', () => ['run', '--tick-size', '0.1'], /^--tick-size needs --replay FILES$/],
    ['a replay file that is not there', () => ['run', '--replay', 'missing.gz'], /^no such file: missing\.gz$/],
    ['a replay file that is a directory', () => ['run', '--replay', '.'], /^\.: a directory, not a recording$/],
    ['one file of no known format in a --replay list (named, before anything runs)', () => ['run', '--replay', `${join(import.meta.dirname, '../../../shared/data/hftbacktest-binance-futures-raw/usdm/btcusdt_20240808.gz')},package.json`], /^package\.json: unknown format: its first line is "\{"/],
    ['a bad queue model', () => ['run', '--replay', 'x.gz', '--queue-model', 'fifo'], /^--queue-model must be risk-averse or prob, got "fifo"$/],
    ['backtest without a strategy', () => ['backtest'], /^missing required argument 'strategy'$/],
    ['a strategy file that is not there', () => ['backtest', join(tmp.dir, 'mm.ts'), '--scenario', 'empty'], /^strategy file .*mm\.ts not found$/],
    ['convert without inputs', () => ['convert', '--to', 'csv', '--out', 'x.csv'], /^missing required argument 'inputs'$/],
    ['convert without --to', () => ['convert', 'a.csv', '--out', 'x.csv'], /^required option '--to <format>' not specified$/],
    ['convert to an unknown format (exit 2, not 1)', () => ['convert', 'a.csv', '--to', 'parquet', '--out', 'x'], /^--to must be arrow or csv, got "parquet"$/],
    ['convert --out a directory', () => ['convert', 'a.csv', '--to', 'csv', '--out', join(tmp.dir, 'a-dir')], /^--out .*a-dir is a directory, not a file$/],
    ['record without --url', () => ['record', '--symbols', 'A', '--out', 'x.arrow'], /^required option '--url <ws-url>' not specified$/],
    ['record of LEVEL_3', () => ['record', '--url', 'ws://x', '--symbols', 'A', '--out', 'x.arrow', '--level', 'LEVEL_3'], /^--level must be LEVEL_1 or LEVEL_2, got "LEVEL_3"$/],
    ['verify of an unknown kind', () => ['verify', 'tardis', 'x.csv'], /^command-argument value 'tardis' is invalid for argument 'kind'\. Allowed choices are lobster\.$/],
    ['report of a missing path', () => ['report', join(tmp.dir, 'out')], /: no such file or directory$/],
    ['run --out an existing file', () => ['run', '--scenario', 'empty', '--duration', '1s', '--out', file], /^--out .*a-file exists and is a file, not a directory/],
    ['run --out below a regular file', () => ['run', '--scenario', 'empty', '--duration', '1s', '--out', join(file, 'run')], /^--out .*a-file\/run: .*a-file is a file, not a directory$/],
    ['run --out inside /proc (no hang)', () => ['run', '--scenario', 'empty', '--duration', '1s', '--out', '/proc/perpsim-out/run'], /^--out \/proc\/perpsim-out\/run is on procfs \(\/proc\), a kernel pseudo file system/],
    ['backtest --out below a regular file', () => ['backtest', 'examples/market-maker.ts', '--scenario', 'empty', '--duration', '1s', '--out', join(file, 'bt')], /^--out .*a-file\/bt: .*a-file is a file, not a directory$/],
    ['serve on a busy --app-port (names that port)', () => ['serve', '--scenario', 'empty', '--manual', '--port', '0', '--app-port', String(busyPort)], /^cannot listen on 127\.0\.0\.1:(\d+): EADDRINUSE/],
  ];
  for (const [what, args, message] of cases) {
    it(`answers ${what} with one line and exit code 2`, async () => {
      const r = await cli(...args());
      expect(r.stderr.endsWith('\n') && !r.stderr.trimEnd().includes('\n'), r.stderr).toBe(true);
      expect(r.stderr.trimEnd().replace(/^perpsim: /, '')).toMatch(message);
      expect(r.stderr.startsWith('perpsim: ')).toBe(true);
      expect(r.stdout).toBe('');
      expect(r.code).toBe(2);
      if (what.startsWith('serve on a busy')) expect(r.stderr).toContain(`:${busyPort}:`);
    });
  }

  it('gives the same one line (no stack trace) through the installed command', async () => {
    const r = await perpsim(tmp.dir, 'run', '--scenario', 'empty', '--out', file);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(/^perpsim: --out .*a-file exists and is a file, not a directory.*\n$/);
  });
});
