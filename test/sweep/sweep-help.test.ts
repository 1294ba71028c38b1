import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../src/cli/main.ts';
import { cliInProcess } from '../cli/cli-helpers.ts';

const cli = cliInProcess;

describe('perpsim sweep, sweep merge and worker on the command line', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists sweep and worker in the global help', async () => {
    const help = await cli('--help');
    expect(help.stdout).toMatch(/^ {2}sweep\b/m);
    expect(help.stdout).toMatch(/^ {2}worker\b/m);
  });

  for (const path of [['sweep'], ['sweep', 'merge'], ['worker']]) {
    it(`gives ${path.join(' ')} its own --help naming every flag with its default`, async () => {
      const r = await cli(...path, '--help');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: perpsim ${path.join(' ')}\\b`));
      let cmd = buildProgram().commands.find((c) => c.name() === path[0])!;
      if (path[1] !== undefined) cmd = cmd.commands.find((c) => c.name() === path[1])!;
      for (const option of cmd.options) {
        expect(r.stdout).toContain(option.long!);
        expect(option.description, `${path.join(' ')} ${option.long}`).toMatch(/\((default: [^)]+|required[^)]*)\)$/);
      }
    });
  }

  it('refuses a sweep without --out, and --queue with --workers, in one line with exit code 2', async () => {
    const noOut = await cli('sweep', 'examples/momentum.ts', '--grid', '{}');
    expect(noOut).toEqual({ code: 2, stdout: '', stderr: 'perpsim: --out DIR is required (the sweep directory)\n' });
    const both = await cli('sweep', 'examples/momentum.ts', '--grid', '{}', '--out', 'x', '--workers', '2', '--queue', 'redis://127.0.0.1:1');
    expect(both).toEqual({ code: 2, stdout: '', stderr: 'perpsim: --queue cannot be combined with --workers\n' });
  });
});
