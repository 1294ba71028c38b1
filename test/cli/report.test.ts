import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatFactsTable, formatNumber } from '../../src/cli/report-command.ts';
import { TYPICAL_PERP_FACTS, type Facts } from '../../src/sim/stylized-facts.ts';
import { perpsim, tempDir, type CliResult } from './cli-helpers.ts';

describe('perpsim report', () => {
  const tmp = tempDir('perpsim-report-');
  let byDir: CliResult;
  let byFile: CliResult;
  let latest: CliResult;
  let summary: { events: number; stylized_facts: { all: Facts; by_symbol: Record<string, Facts> } };

  beforeAll(async () => {
    const run = await perpsim(tmp.dir, 'run', '--seed', '5', '--duration', '10m');
    expect(run.code, run.stderr).toBe(0);
    summary = JSON.parse(readFileSync(join(tmp.dir, 'out/run-default-5/summary.json'), 'utf8'));
    [byDir, byFile, latest] = await Promise.all([
      perpsim(tmp.dir, 'report', 'out/run-default-5'),
      perpsim(tmp.dir, 'report', 'out/run-default-5/events.arrow'),
      perpsim(tmp.dir, 'report'),
    ]);
  }, 60_000);
  afterAll(() => tmp.remove());

  it('prints a table of every measure, per symbol and pooled, next to the typical values', () => {
    expect(byDir.code, byDir.stderr).toBe(0);
    const lines = byDir.stdout.split('\n');
    expect(lines[0]).toBe(`out/run-default-5/events.arrow: default, seed 5, 2026-01-01T00:00:00.000000000Z → 2026-01-01T00:10:00.000000000Z, ${summary.events} events`);
    expect(lines[2]).toMatch(/^measure\s+BTCUSD-PERP\s+ETHUSD-PERP\s+all\s+typical\s+typical range\s+in range$/);
    for (const key of Object.keys(TYPICAL_PERP_FACTS)) expect(byDir.stdout).toMatch(new RegExp(`^${key}\\s`, 'm'));
  });

  it('measures from the event log exactly what the run put in its summary', () => {
    expect(byDir.stdout).toContain(formatFactsTable(summary.stylized_facts as never));
  });

  it('takes the log file itself, or the latest out/run-* directory when given nothing', () => {
    expect(byFile.stdout).toBe(byDir.stdout);
    expect(latest.stdout).toBe(byDir.stdout);
  });

  it('refuses a file that is not an event log with one line and exit code 2', async () => {
    writeFileSync(join(tmp.dir, 'notes.arrow'), 'not arrow at all');
    const r = await perpsim(tmp.dir, 'report', 'notes.arrow');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^perpsim: notes\.arrow: not an Arrow IPC file \(.*\)\n$/);
  }, 60_000);
});

describe('the facts table', () => {
  const facts = (x: number): Facts => Object.fromEntries(Object.keys(TYPICAL_PERP_FACTS).map((k) => [k, x])) as unknown as Facts;

  it('says whether each pooled value lies in the typical range, and "-" when there was too little data', () => {
    const table = formatFactsTable({ all: { ...facts(2), funding_rate_mean: Number.NaN }, by_symbol: { 'BTCUSD-PERP': facts(2) } });
    expect(table).toMatch(/^spread_mean_ticks\s+2\s+2\s+1\.5\s+1 … 5\s+yes$/m);
    expect(table).toMatch(/^return_autocorr_1m\s+2\s+2\s+-0\.02\s+-0\.1 … 0\.1\s+no$/m);
    expect(table).toMatch(/^funding_rate_mean\s+2\s+-\s+0\.0001\s+-0\.0003 … 0\.0005\s+-$/m);
  });

  it('prints numbers with four significant digits', () => {
    expect([169.60122, 2.30630739, 0.000123456, -0.27896, 12345.6, Number.NaN].map(formatNumber)).toEqual(['169.6', '2.306', '0.0001235', '-0.279', '12346', '-']);
  });
});
