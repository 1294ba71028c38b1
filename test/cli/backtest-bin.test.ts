import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { perpsim, tempDir } from './cli-helpers.ts';

/**
 * A user's strategy usually lives outside perpsim's package, where no package.json says
 * "type": "module": tsx then compiles it as CommonJS, and the command must still load it.
 */
describe('perpsim backtest from the command line', () => {
  const tmp = tempDir('perpsim-bin-strategy-');
  afterAll(() => tmp.remove());

  it('loads a TypeScript strategy from a folder outside any ESM package and runs it', { timeout: 60_000 }, async () => {
    const file = join(tmp.dir, 'idle.ts');
    writeFileSync(file, 'interface Port { username: string }\nexport default (params: { note?: string }) => ({ onStart(port: Port): void { void port.username; void params; } });\n');
    const r = await perpsim(tmp.dir, 'backtest', file, '--scenario', 'empty', '--duration', '10s', '--out', join(tmp.dir, 'out'));
    expect(r.stderr).not.toMatch(/cannot load/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^state_hash: [0-9a-f]+$/m);
  });
});
