import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asksVersionOnly, packageVersion } from '../../src/cli/version.ts';
import { cliInProcess } from './cli-helpers.ts';

const ROOT = join(import.meta.dirname, '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('perpsim --version without loading the command table', () => {
  it('takes the fast path only for --version or -V alone', () => {
    expect(asksVersionOnly(['--version'])).toBe(true);
    expect(asksVersionOnly(['-V'])).toBe(true);
    for (const argv of [[], ['--help'], ['--version', 'run'], ['run', '--version'], ['-v'], ['--versions']]) expect(asksVersionOnly(argv)).toBe(false);
  });

  it('reads the version from package.json', () => {
    expect(packageVersion()).toBe(VERSION);
  });

  it('prints from bin/perpsim.js exactly what commander prints for --version and -V', async () => {
    const commander = await cliInProcess('--version');
    for (const flag of ['--version', '-V']) {
      const r = spawnSync(process.execPath, [join(ROOT, 'bin/perpsim.js'), flag], { encoding: 'utf8', timeout: 30_000 });
      expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 0, stdout: commander.stdout, stderr: '' });
    }
    expect(commander.stdout).toBe(`${VERSION}\n`);
  });
});
