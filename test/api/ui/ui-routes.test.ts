import { describe, expect, it } from 'vitest';
import { startServer } from '../../../src/api/server.ts';
import { UI_PATHS } from '../../../src/api/ui/ui-routes.ts';
import { parseServeArgs } from '../../../src/cli/commands/serve.ts';
import { startServing } from '../../../src/cli/serve-command.ts';
import { restFixture } from '../rest/fixtures.ts';

describe('the live web view routes', () => {
  it('serves the page and its assets from the package, with a CSP that allows only this server', async () => {
    const f = await restFixture({ parts: { base: true, app: true, ui: true } });
    expect(UI_PATHS).toEqual(['/', '/ui/app.js', '/ui/app.css', '/ui/lightweight-charts.js']);
    const page = await f.get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe|https?:/);
    const html = await page.text();
    // everything the page loads is its own: no CDN
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs).toEqual(['data:,', '/ui/app.css', '/ui/lightweight-charts.js', '/ui/app.js']);
    const lib = await f.get('/ui/lightweight-charts.js');
    expect(lib.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await lib.text()).toContain('window.LightweightCharts=');
    expect((await f.get('/ui/app.css')).status).toBe(200);
    expect((await f.post('/')).status).toBe(405);
  });

  it('is off unless asked for in the REST app, and off in the server with ui: false', async () => {
    const f = await restFixture();
    expect((await f.get('/')).status).toBe(404);
    const on = await startServer(f.exchange, { port: 0 });
    const off = await startServer((await restFixture()).exchange, { port: 0, ui: false });
    try {
      expect((await fetch(`${on.url}/`)).status).toBe(200);
      const res = await fetch(`${off.url}/`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Not Found' });
      expect((await fetch(`${off.url}/ui/app.js`)).status).toBe(404);
    } finally {
      await on.close();
      await off.close();
    }
  });

  it('is on in perpsim serve, named in the banner, and off with --no-ui', async () => {
    expect(parseServeArgs([], {}).ui).toBe(true);
    expect(parseServeArgs(['--no-ui'], {}).ui).toBe(false);
    const on = await startServing(parseServeArgs(['--port', '0', '--manual', '--scenario', 'empty'], {}), { scryptCost: 1024 });
    const off = await startServing(parseServeArgs(['--port', '0', '--manual', '--scenario', 'empty', '--no-ui'], {}), { scryptCost: 1024 });
    try {
      expect(on.banner).toContain(`web view:         ${on.server.url}/\n`);
      expect(off.banner).not.toContain('web view');
      expect((await fetch(`${on.server.url}/`)).status).toBe(200);
      expect((await fetch(`${off.server.url}/`)).status).toBe(404);
    } finally {
      await on.close();
      await off.close();
    }
  });
});
