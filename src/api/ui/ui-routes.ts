import { readFileSync } from 'node:fs';
import type { Hono } from 'hono';
import { lightweightChartsSource } from '../../web-assets/lightweight-charts.ts';

/** The page's own files, shipped in the package next to this module (no CDN). */
const STATIC = new URL('./static/', import.meta.url);

/**
 * The page may load only its own scripts and styles and talk only to this server (REST and the
 * two websockets); it runs no inline script, so server text can never become code.
 */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

interface Asset {
  type: string;
  read: () => string;
}

const ASSETS: Record<string, Asset> = {
  '/': { type: 'text/html; charset=utf-8', read: () => readFileSync(new URL('index.html', STATIC), 'utf8') },
  '/ui/app.js': { type: 'text/javascript; charset=utf-8', read: () => readFileSync(new URL('app.js', STATIC), 'utf8') },
  '/ui/app.css': { type: 'text/css; charset=utf-8', read: () => readFileSync(new URL('app.css', STATIC), 'utf8') },
  '/ui/lightweight-charts.js': { type: 'text/javascript; charset=utf-8', read: lightweightChartsSource },
};

/** URL paths the live web view serves. */
export const UI_PATHS: readonly string[] = Object.keys(ASSETS);

/**
 * The live web view at `/` of `perpsim serve` (src/api/ui/static): book ladder, trade tape,
 * candles, ticker, the sim clock's controls and, after a login, the user's orders, positions
 * and an order ticket. It is a client of the public interface and the admin API only; these
 * routes just hand out its files (read once, on first request).
 */
export function registerUiRoutes(app: Hono): void {
  const cache = new Map<string, string>();
  for (const [path, asset] of Object.entries(ASSETS)) {
    app.get(path, (c) => {
      let body = cache.get(path);
      if (body === undefined) {
        body = asset.read();
        cache.set(path, body);
      }
      return c.body(body, 200, { 'content-type': asset.type, 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' });
    });
  }
}
