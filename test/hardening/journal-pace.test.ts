import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/api/server.ts';
import { exchangeForDataDir } from '../../src/cli/data-dir.ts';
import { tempDir } from '../cli/cli-helpers.ts';

/** An admin's pause, resume and speed are journaled: a restart resumes at the pace they left. */
const ADMIN = { Authorization: 'Bearer pace-admin', 'Content-Type': 'application/json' };
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Serves DIR on a paced (not manual) clock started at speed 1, as `serve --data-dir` does. */
async function serve(dir: string) {
  const d = await exchangeForDataDir(dir, { scenario: 'empty' }, { speed: 1, scryptCost: 1024, adminToken: 'pace-admin' });
  const server = await startServer(d.exchange, { port: 0, heartbeatMs: 60_000 });
  const admin = async (path: string, body?: unknown) => {
    const res = await fetch(server.url + path, { method: body === undefined && path === '/admin/clock' ? 'GET' : 'POST', headers: ADMIN, body: body === undefined ? undefined : JSON.stringify(body) });
    expect(res.status).toBe(200);
    return (await res.json()) as { now_ns: string; speed: number | 'max'; paused: boolean };
  };
  return { server, restored: d.restored, admin };
}

describe('the journal keeps the clock pace', () => {
  it('a paused venue at speed 50 comes back paused at speed 50 and at the same sim time; a resume is kept too', async () => {
    const { dir, remove } = tempDir('perpsim-pace-');
    cleanups.push(remove);

    const a = await serve(dir);
    await a.admin('/admin/clock/speed', { speed: 50 });
    const paused = await a.admin('/admin/clock/pause', {});
    expect(paused).toMatchObject({ speed: 50, paused: true });
    await a.server.close();

    const b = await serve(dir);
    expect(b.restored).toBeGreaterThan(0);
    const back = await b.admin('/admin/clock');
    expect(back).toEqual({ now_ns: paused.now_ns, speed: 50, paused: true });
    await b.admin('/admin/clock/resume', {});
    await b.server.close();

    const c = await serve(dir);
    cleanups.push(() => c.server.close());
    const resumed = await c.admin('/admin/clock');
    expect(resumed).toMatchObject({ speed: 50, paused: false });
    expect(BigInt(resumed.now_ns)).toBeGreaterThanOrEqual(BigInt(paused.now_ns));
  });
});
