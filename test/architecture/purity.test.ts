import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
/** Folders that make up the deterministic core: no wall clock, no unseeded randomness, no I/O. */
const PURE = ['core', 'wire', 'book', 'clock', 'market', 'risk', 'venue', 'strategy', 'random', 'sim', 'agents', 'facts'];
/** Folders that only the CLI and the public index may import. */
const EDGE = ['api', 'cli'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the deterministic core', () => {
  for (const folder of PURE) {
    it(`src/${folder} uses no wall clock, Math.random or node: modules`, () => {
      const offenders: string[] = [];
      for (const file of sourceFiles(join(SRC, folder))) {
        const text = readFileSync(file, 'utf8');
        const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''); // comments may mention them
        if (/Date\.now\(|Math\.random\(|new Date\(\)|performance\.now\(|from ['"]node:|process\.hrtime/.test(code)) {
          offenders.push(relative(SRC, file));
        }
      }
      expect(offenders).toEqual([]);
    });
  }

  it('never imports the adapters (api, cli)', () => {
    const offenders: string[] = [];
    for (const folder of PURE) {
      for (const file of sourceFiles(join(SRC, folder))) {
        const text = readFileSync(file, 'utf8');
        if (EDGE.some((edge) => new RegExp(`from ['"](\\.\\./)+${edge}/`).test(text))) offenders.push(relative(SRC, file));
      }
    }
    expect(offenders).toEqual([]);
  });
});
