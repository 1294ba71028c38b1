import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './cli-helpers.ts';

// The package as a user gets it: build (when dist/ is older than src/ or the build config), `npm pack`, install
// the tarball into an empty project offline (from npm's cache: the dependencies' exact
// versions come from our lock file), then run the installed command and library there.

const ROOT = join(import.meta.dirname, '../..');
const MINUTE = 60_000;

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], cwd: string, timeoutMs = 2 * MINUTE): Promise<Result> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, timeout: timeoutMs, env: { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false' } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The newest modification time under `dir` (ms). */
function newest(dir: string): number {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/**
 * A lock file for a project depending only on the tarball: perpsim's runtime dependencies at
 * the versions of our lock, with their registry URLs, so `npm install --offline` takes them
 * from the cache without asking the registry anything.
 */
function projectLock(tarball: string): object {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; version?: string; resolved?: string; link?: boolean }> };
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; license: string; dependencies: Record<string, string>; bin: Record<string, string>; engines: object };
  const spec = `file:${tarball}`;
  const packages: Record<string, object> = {
    '': { name: 'user-project', version: '1.0.0', dependencies: { perpsim: spec } },
    'node_modules/perpsim': { version: pkg.version, resolved: spec, license: pkg.license, dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev === true || entry.link === true) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    packages[path] = { ...entry, resolved: entry.resolved ?? `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${entry.version}.tgz` };
  }
  return { name: 'user-project', version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}

const STRATEGY = `import type { ExchangePort, OrderFeed, Strategy } from 'perpsim';
import { z } from 'zod';

export const paramsSchema = z.strictObject({ symbol: z.string().default('BTCUSD-PERP'), priceText: z.string().default('49000') });

/** Rests one bid and counts its feeds. */
export default (params: z.infer<typeof paramsSchema>): Strategy => {
  let feeds = 0;
  return {
    async onStart(port: ExchangePort) {
      await port.insertOrder({ symbol: params.symbol, side: 'B', price: params.priceText, quantity: 1, timeInForce: 'GTC' });
    },
    onOrderFeed(feed: OrderFeed) {
      feeds += 1;
    },
  };
};
`;

const LIBRARY_USE = `import { loadScenario, runBacktest, startServer, WireExchangePort, z } from 'perpsim';
const result = await runBacktest({ async onStart(port) { await port.insertOrder({ symbol: 'ETHUSD-PERP', side: 'S', price: '3100', quantity: 2, timeInForce: 'GTC' }); } },
  { scenario: loadScenario('empty'), durationNs: 60_000_000_000n });
console.log(JSON.stringify({ orders: result.orders.submitted, hash: typeof result.stateHash, server: typeof startServer, client: typeof WireExchangePort, zod: typeof z.object }));
`;

describe('the npm package', () => {
  const tmp = tempDir('perpsim-package-');
  const project = join(tmp.dir, 'user-project');
  const bin = join(project, 'node_modules/.bin/perpsim');
  let version = '';

  beforeAll(async () => {
    version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const distIndex = join(ROOT, 'dist/index.js');
    if (!existsSync(distIndex) || statSync(distIndex).mtimeMs < Math.max(newest(join(ROOT, 'src')), statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs, statSync(join(ROOT, 'scripts/copy-assets.mjs')).mtimeMs)) {
      const build = await run('npm', ['run', 'build', '--silent'], ROOT, 5 * MINUTE);
      expect(build.code, build.stdout + build.stderr).toBe(0);
    }
    const pack = await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', tmp.dir], ROOT);
    expect(pack.code, pack.stderr).toBe(0);
    const tarball = join(tmp.dir, pack.stdout.trim().split('\n').pop()!);
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', version: '1.0.0', private: true, type: 'module', dependencies: { perpsim: `file:${relative(project, tarball)}` } }));
    writeFileSync(join(project, 'package-lock.json'), JSON.stringify(projectLock(relative(project, tarball))));
    const install = await run('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], project, 3 * MINUTE);
    expect(install.code, install.stderr).toBe(0);
    writeFileSync(join(project, 'strategy.ts'), STRATEGY);
    writeFileSync(join(project, 'library-use.mjs'), LIBRARY_USE);
  }, 8 * MINUTE);
  afterAll(() => tmp.remove());

  it('ships the built JavaScript, its types and the scenarios, not the sources', () => {
    const installed = join(project, 'node_modules/perpsim');
    expect(existsSync(join(installed, 'dist/index.js'))).toBe(true);
    expect(existsSync(join(installed, 'dist/index.d.ts'))).toBe(true);
    expect(existsSync(join(installed, 'scenarios/default.json'))).toBe(true);
    // Files that are not TypeScript are copied as they are: the live web view, the report's script.
    expect(readFileSync(join(installed, 'dist/api/ui/static/index.html'), 'utf8')).toBe(readFileSync(join(ROOT, 'src/api/ui/static/index.html'), 'utf8'));
    expect(readFileSync(join(installed, 'dist/backtest/report-html/client/report.js'), 'utf8')).toBe(readFileSync(join(ROOT, 'src/backtest/report-html/client/report.js'), 'utf8'));
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(existsSync(join(installed, 'test'))).toBe(false);
  });

  it('refers only to files it ships: every relative import and new URL(…, import.meta.url) in dist/ resolves', () => {
    const dist = join(project, 'node_modules/perpsim/dist');
    const missing: string[] = [];
    let checked = 0;
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (file.endsWith('.js')) {
          const text = readFileSync(file, 'utf8');
          const refs = [...text.matchAll(/(?:from\s*|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]|new URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*import\.meta\.url/g)];
          for (const m of refs) {
            checked += 1;
            const target = join(dir, m[1] ?? m[2]!);
            if (!existsSync(target)) missing.push(`${relative(dist, file)} → ${m[1] ?? m[2]}`);
          }
        }
      }
    };
    walk(dist);
    expect(checked).toBeGreaterThan(500);
    expect(missing).toEqual([]);
  });

  it('runs the command and the library on plain node, with no TypeScript loader installed', async () => {
    const tsx = join(project, 'node_modules/tsx');
    renameSync(tsx, `${tsx}.hidden`);
    try {
      expect(await run(bin, ['--version'], project)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
      const r = await run(bin, ['run', '--scenario', 'empty', '--duration', '2m', '--out', 'out/run'], project);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^state_hash: [0-9a-f]+$/m);
      expect(existsSync(join(project, 'out/run/events.arrow'))).toBe(true);
      const lib = await run(process.execPath, ['library-use.mjs'], project);
      expect(lib.code, lib.stderr).toBe(0);
      expect(JSON.parse(lib.stdout)).toEqual({ orders: 1, hash: 'string', server: 'function', client: 'function', zod: 'function' });
    } finally {
      renameSync(`${tsx}.hidden`, tsx);
    }
  });

  it('backtests a TypeScript strategy that lives in the project and imports perpsim and zod', async () => {
    const r = await run(bin, ['backtest', 'strategy.ts', '--scenario', 'empty', '--duration', '5m', '--params', '{"priceText":"49500"}', '--out', 'out/bt'], project);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(project, 'out/bt/report.json'), 'utf8')) as { strategy: string; params: unknown; metrics: { orders: number; orders_accepted: number } };
    expect(report.strategy).toBe('strategy.ts');
    expect(report.params).toEqual({ symbol: 'BTCUSD-PERP', priceText: '49500' });
    expect(report.metrics).toMatchObject({ orders: 1, orders_accepted: 1 });
  });

  it('says what is missing when a strategy cannot be loaded: the file, a package, or an imported file', async () => {
    writeFileSync(join(project, 'needs-package.ts'), `import leftPad from 'left-pad';\nexport default () => ({ onStart() { leftPad('x', 2); } });\n`);
    writeFileSync(join(project, 'needs-file.ts'), `import { helper } from './helpers/quote.ts';\nexport default () => ({ onStart() { helper(); } });\n`);
    const cases: [string, RegExp][] = [
      ['nope.ts', /^perpsim: strategy file nope\.ts not found\n$/],
      ['needs-package.ts', /^perpsim: cannot load strategy file needs-package\.ts: it imports the package "left-pad", which is not installed here \(npm install left-pad\)\n$/],
      ['needs-file.ts', /^perpsim: cannot load strategy file needs-file\.ts: it imports helpers\/quote\.ts, a file that does not exist\n$/],
    ];
    for (const [file, message] of cases) {
      const r = await run(bin, ['backtest', file, '--scenario', 'empty', '--duration', '1m'], project);
      expect(r.code, file).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});
