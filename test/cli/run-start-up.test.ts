import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

// `perpsim run`'s start-up is the modules its command loads before the first event. The
// simulation thread hands rows to the writer thread as numbers, so it needs neither Apache Arrow
// nor lz4js (the writer thread loads them), and a synthetic scenario needs none of the replay
// readers: ~0.2 s of CPU a run when they were loaded (bench/README, round 14 `day14`). A child
// process records every module it resolves (a resolve hook), imports the command and builds a
// synthetic run the way `perpsim run` does.
const CHILD = `
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
const hook = 'let port; export async function initialize(data) { port = data.port; } export async function resolve(s, c, next) { const r = await next(s, c); port.postMessage(r.url); return r; }';
const { port1, port2 } = new MessageChannel();
const urls = [];
port1.on('message', (u) => urls.push(u));
register('data:text/javascript,' + encodeURIComponent(hook), { data: { port: port2 }, transferList: [port2] });
await import('./src/cli/run-command.ts');
const { buildRequestedRun } = await import('./src/cli/replay-flags.ts');
await buildRequestedRun({ scenario: process.argv[1], durationNs: 1_000_000_000n });
await new Promise((r) => setTimeout(r, 200));
port1.close();
console.log(JSON.stringify(urls));
`;

function resolvedBy(scenario: string): string[] {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD, scenario], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as string[];
}

describe("perpsim run's start-up", () => {
  it('loads no Apache Arrow, no lz4js and no replay reader for a synthetic scenario', () => {
    const urls = resolvedBy('default');
    expect(urls.some((u) => u.endsWith('/src/cli/run-command.ts'))).toBe(true);
    expect(urls.some((u) => u.endsWith('/src/sim/event-log/tape-recorder.ts'))).toBe(true);
    expect(urls.filter((u) => /\/apache-arrow\/|\/lz4js\/|\/src\/replay\/(?!replay-error\.ts$)/.test(u))).toEqual([]);
  });
});
