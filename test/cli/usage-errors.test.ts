import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';

describe('usage errors of run and report (in process)', () => {
  let dir = '';
  let cwd = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpsim-usage-'));
    writeFileSync(join(dir, 'summary.json'), '{"not": "arrow"}');
    cwd = process.cwd();
    process.chdir(dir); // report's default looks for out/run-* here: there is none
  });
  afterAll(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => vi.restoreAllMocks());

  const cases: [string, string[], RegExp][] = [
    ['a zero --duration', ['run', '--duration', '0s'], /^--duration must be a positive duration such as 30m, 1h or 1d, got "0s"$/],
    ['a fractional --seed', ['run', '--seed', '1.5'], /^--seed must be a non-negative integer, got "1.5"$/],
    ['an unknown option', ['run', '--speed', '2'], /^unknown option "--speed" for run \(allowed: --scenario, --seed, --duration, --out, --quiet, --replay, --replay-mode, --queue-model, --tick-size, --lot-size\)$/],
    ['an option without a value', ['run', '--seed'], /^option '--seed <n>' argument missing$/],
    ['an option given twice', ['run', '--seed', '1', '--seed', '2'], /^--seed given twice$/],
    ['a stray argument to run', ['run', 'default'], /^too many arguments for 'run'\. Expected 0 arguments but got 1\.$/],
    ['a file that is not a scenario', ['run', '--scenario', 'summary.json'], /^summary\.json: name: /],
    ['a missing report path', ['report', 'missing-dir'], /^missing-dir: no such file or directory$/],
    ['a directory without a log', ['report', '.'], /^\.: no events\.arrow in this directory$/],
    ['a report with nothing to report', ['report'], /^no event log given and no out\/run-\*\/events\.arrow here/],
    ['a JSON file given to report', ['report', 'summary.json'], /^summary\.json: not an Arrow IPC file/],
    ['two report paths', ['report', 'a', 'b'], /^too many arguments for 'report'\. Expected 1 argument but got 2\.$/],
  ];
  for (const [what, args, message] of cases) {
    it(`rejects ${what} with exit code 2 and one line naming the problem`, async () => {
      const errors: string[] = [];
      vi.spyOn(process.stderr, 'write').mockImplementation((text) => errors.push(String(text)) > 0);
      const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      expect(await main(args)).toBe(2);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.endsWith('\n') && !errors[0]!.trimEnd().includes('\n')).toBe(true);
      expect(errors[0]!.trimEnd().replace(/^perpsim: /, '')).toMatch(message);
      expect(out).not.toHaveBeenCalled();
    });
  }
});
