import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readerBundle } from '../../src/replay/l2/reader-bundle.ts';

const esbuild = createRequire(createRequire(import.meta.url).resolve('tsx'))('esbuild');

/** esbuild, counting its builds. */
function countingBundler() {
  const counter = { builds: 0, bundler: () => ({ buildSync: (o: Record<string, unknown>) => (counter.builds++, esbuild.buildSync(o)) }) };
  return counter;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A checkout with an entry importing a sibling, and a cache directory. */
function checkout(value: string) {
  const root = mkdtempSync(join(tmpdir(), 'perpsim-reader-bundle-'));
  dirs.push(root);
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'cache'));
  writeFileSync(join(root, 'src/thread.ts'), "import { value } from './dep.ts';\nexport const answer: string = value;\n");
  writeFileSync(join(root, 'src/dep.ts'), `export const value = '${value}';\n`);
  return { root, thread: join(root, 'src/thread.ts'), dep: join(root, 'src/dep.ts'), cache: join(root, 'cache') };
}

const answerOf = async (path: string): Promise<string> => ((await import(`${pathToFileURL(path).href}?${Math.random()}`)) as { answer: string }).answer;

describe('the reader thread bundle cache', () => {
  it('bundles once, then reuses the bundle while its sources are unchanged', async () => {
    const c = checkout('one');
    const count = countingBundler();
    const first = readerBundle(c.thread, { dir: c.cache, bundler: count.bundler });
    const again = readerBundle(c.thread, { dir: c.cache, bundler: count.bundler });
    expect(again).toBe(first);
    expect(count.builds).toBe(1);
    expect(await answerOf(first)).toBe('one');
  });

  it('rebuilds in place when an imported source changes, leaving one bundle', async () => {
    const c = checkout('one');
    const count = countingBundler();
    const first = readerBundle(c.thread, { dir: c.cache, bundler: count.bundler });
    writeFileSync(c.dep, "export const value = 'two';\n");
    const second = readerBundle(c.thread, { dir: c.cache, bundler: count.bundler });
    expect(count.builds).toBe(2);
    expect(second).toBe(first);
    expect(await answerOf(second)).toBe('two');
    expect(readdirSync(c.cache)).toEqual([second.slice(c.cache.length + 1)]);
  });

  it('rebuilds a bundle whose file was damaged or has no header', () => {
    const c = checkout('one');
    const count = countingBundler();
    const path = readerBundle(c.thread, { dir: c.cache, bundler: count.bundler });
    writeFileSync(path, 'export const answer = "forged";\n');
    readerBundle(c.thread, { dir: c.cache, bundler: count.bundler });
    expect(count.builds).toBe(2);
    expect(readFileSync(path, 'utf8')).toMatch(/["']one["']/);
  });

  it('deletes bundles of checkouts that are gone and old unheaded ones, keeping others', () => {
    const a = checkout('a');
    const b = checkout('b');
    const cache = a.cache;
    const ofB = readerBundle(b.thread, { dir: cache });
    const oldStyle = join(cache, 'perpsim-replay-reader-0123456789abcdef.mjs');
    const recentOldStyle = join(cache, 'perpsim-replay-reader-fedcba9876543210.mjs');
    writeFileSync(oldStyle, 'export {};\n');
    writeFileSync(recentOldStyle, 'export {};\n');
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    utimesSync(oldStyle, twoDaysAgo, twoDaysAgo);
    const unrelated = join(cache, 'other.mjs');
    writeFileSync(unrelated, '');
    // b's checkout still exists: its bundle stays.
    const ofA = readerBundle(a.thread, { dir: cache });
    expect(readdirSync(cache).sort()).toEqual([ofA, ofB, recentOldStyle, unrelated].map((p) => p.slice(cache.length + 1)).sort());
    // b's checkout is gone: the next bundle written removes its bundle.
    rmSync(join(b.root, 'src'), { recursive: true });
    writeFileSync(a.dep, "export const value = 'a2';\n");
    readerBundle(a.thread, { dir: cache });
    expect(readdirSync(cache).sort()).toEqual([ofA, recentOldStyle, unrelated].map((p) => p.slice(cache.length + 1)).sort());
  });
});
