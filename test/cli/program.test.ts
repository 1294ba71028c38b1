import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONVERT_FROM } from '../../src/cli/commands/convert.ts';
import { RECORD_LEVEL_CHOICES } from '../../src/cli/commands/record.ts';
import { costWarning, estimateEventLogBytes } from '../../src/cli/cost-warning.ts';
import { buildProgram } from '../../src/cli/main.ts';
import { listScenarios } from '../../src/cli/scenarios-command.ts';
import { executeRun } from '../../src/cli/run-command.ts';
import { RECORD_LEVELS } from '../../src/replay/md-recorder.ts';
import { SOURCE_FORMATS } from '../../src/replay/market-sources.ts';
import { builtInScenarios } from '../../src/scenario/load.ts';
import { cliInProcess, tempDir } from './cli-helpers.ts';

const cli = cliInProcess;

/** The commands this file vouches for (others register theirs on the same program). */
const COMMANDS = ['backtest', 'convert', 'demo', 'record', 'report', 'run', 'scenarios', 'serve', 'verify'];

describe('the perpsim program', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prints the package version for --version and -V', async () => {
    const version = (JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }).version;
    expect(await cli('--version')).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect((await cli('-V')).stdout).toBe(`${version}\n`);
  });

  it('lists every command in the global help, with or without --help', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    for (const name of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    expect((await cli()).stdout).toBe(help.stdout);
  });

  for (const name of COMMANDS) {
    it(`gives ${name} its own --help naming every flag with its default`, async () => {
      const r = await cli(name, '--help');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: perpsim ${name}\\b`));
      const cmd = buildProgram().commands.find((c) => c.name() === name)!;
      for (const option of cmd.options) {
        expect(r.stdout).toContain(option.long!);
        // A value option says its default, or that it is required.
        expect(option.description, `${name} ${option.long}`).toMatch(/\((default: [^)]+|required[^)]*)\)$/);
      }
      expect((await cli('help', name)).stdout).toBe(r.stdout);
    });
  }

  it('says perpsim worker runs each job in a worker thread, as its BullMQ worker is set up', async () => {
    const queueWorker = readFileSync(join(import.meta.dirname, '../../src/sweep/queue-worker.ts'), 'utf8');
    expect(queueWorker).toMatch(/useWorkerThreads: true/);
    const help = (await cli('worker', '--help')).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('each in a sandboxed worker thread');
    expect(help).toContain('each in its own worker thread');
    expect(help).not.toContain('child process');
  });

  it('names in --tick-size and --lot-size every recorded symbol whose units a replay knows', async () => {
    const known = readFileSync(join(import.meta.dirname, '../../src/replay/l2/replay-scenario.ts'), 'utf8').match(/const KNOWN_UNITS[\s\S]*?\n\};/)![0];
    const symbols = [...known.matchAll(/^\s+(\w+): \{ tickSize/gm)].map((m) => m[1]!);
    expect(symbols).toContain('XRPUSDT');
    const help = (await cli('backtest', '--help')).stdout.replace(/\s+/g, ' ');
    expect(help).toContain(`--tick-size <t> recorded price step for --replay (default: known for ${symbols.join(', ')})`);
    expect(help).toContain(`--lot-size <l> recorded quantity step for --replay (default: known for ${symbols.join(', ')})`);
  });

  it('names in convert, facts and calibrate --tick-size / --lot-size every kind of input that needs them', async () => {
    // Each reader that asks for units (open-records.ts: unitsFor(path, FORMAT, …)), by the name the help gives it.
    const openRecords = readFileSync(join(import.meta.dirname, '../../src/replay/open-records.ts'), 'utf8');
    const formats = [...openRecords.matchAll(/unitsFor\((?:s\.)?path, '([\w-]+)'/g)].map((m) => m[1]!);
    expect(openRecords).toMatch(/case 'freqtrade-funding': \{[^}]*unitsFor\(path, s\.format/);
    const family = (f: string) => (f === 'perpsim-csv' ? 'normalized CSV' : f.startsWith('binance') ? 'Binance' : f.startsWith('bybit') ? 'Bybit' : f);
    const named = [...new Set([...formats.map(family), 'freqtrade'])].sort();
    expect(named).toEqual(['Binance', 'Bybit', 'freqtrade', 'normalized CSV', 'tardis']);
    for (const name of ['convert', 'facts', 'calibrate']) {
      const help = (await cli(name, '--help')).stdout.replace(/\s+/g, ' ');
      expect(help, name).toContain('price step, needed for tardis, Binance, Bybit, freqtrade and normalized CSV inputs');
      expect(help, name).toContain('quantity step, needed for tardis, Binance, Bybit, freqtrade and normalized CSV inputs');
    }
  });

  it('lists the built-in scenarios with their default duration and what each shows', async () => {
    const r = await cli('scenarios');
    expect(r.code).toBe(0);
    const listed = listScenarios();
    expect(listed.map((s) => s.name)).toEqual(builtInScenarios());
    for (const s of listed) {
      const raw = JSON.parse(readFileSync(join(import.meta.dirname, '../../scenarios', `${s.name}.json`), 'utf8')) as { duration?: string; description: string };
      expect(r.stdout).toContain(`${s.name}  (default duration ${raw.duration ?? '24h'})\n`);
      expect(r.stdout.replace(/\s+/g, ' ')).toContain(raw.description.replace(/\s+/g, ' '));
    }
  });

  it('keeps the choice lists of --help in step with the code that reads them', () => {
    expect([...CONVERT_FROM]).toEqual([...SOURCE_FORMATS]);
    expect([...RECORD_LEVEL_CHOICES]).toEqual([...RECORD_LEVELS]);
  });
});

describe('the warning before a costly run', () => {
  const hour = 3600n * 1_000_000_000n;

  it('warns above 6 simulated hours or 500 MB, saying how to shorten the run', () => {
    expect(costWarning('run', 6n * hour, 1_000)).toBeUndefined();
    expect(costWarning('backtest', 6n * hour + 1_000_000_000n)).toBe('perpsim backtest: warning: this run simulates 6h1s; give --duration 1h (or less) to shorten it');
    expect(costWarning('run', hour, 600_000_000)).toBe('perpsim run: warning: this run simulates 1h, writing about 600 MB; give --duration 1h (or less) to shorten it');
    // default: 10 agents for a day ≈ the ~230 MB measured (LZ4-compressed event log).
    expect(costWarning('run', 24n * hour, estimateEventLogBytes(10, 24n * hour))).toContain('writing about 216 MB');
  });

  it("gives in run's --help the size of a day of default that the warning estimates", async () => {
    const help = (await cli('run', '--help')).stdout.replace(/\s+/g, ' ');
    const said = help.match(/A run of default simulates a day and writes about (\d+) MB/);
    expect(said, help).not.toBeNull();
    const agents = (JSON.parse(readFileSync(join(import.meta.dirname, '../../scenarios/default.json'), 'utf8')) as { agents: unknown[] }).agents.length;
    const estimate = estimateEventLogBytes(agents, 24n * hour);
    expect(Math.abs(Number(said![1]) * 1e6 - estimate) / estimate).toBeLessThan(0.1);
  });

  it('is printed by run before it runs, and not for a short run', async () => {
    const tmp = tempDir('perpsim-warn-');
    try {
      const progress: string[] = [];
      const stream = { write: (t: string) => progress.push(t) };
      await executeRun({ scenario: 'empty', durationNs: 7n * hour, outDir: join(tmp.dir, 'long') }, stream);
      expect(progress[0]).toMatch(/^perpsim run: warning: this run simulates 7h, writing about \d+ MB; give --duration 1h/);
      progress.length = 0;
      await executeRun({ scenario: 'empty', durationNs: hour, outDir: join(tmp.dir, 'short') }, stream);
      expect(progress.join('')).not.toContain('warning');
    } finally {
      tmp.remove();
    }
  });
});
