import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { HttpError } from '../rest/errors.ts';
import { openApiDocument } from './document.ts';

/**
 * GET /openapi.json (the generated document) and GET /docs, Swagger UI served from the
 * `swagger-ui-dist` package on this server: no CDN, no request leaves the origin (the page's
 * Content-Security-Policy says so to the browser).
 */

/** The swagger-ui-dist files /docs uses, by the name they are served under. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'";

/** Our own start-up script (a file, not inline, so the CSP can forbid inline scripts). */
const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>perpsim exchange API</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
<link rel="icon" type="image/png" href="docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/swagger-ui-standalone-preset.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;

/** Folder of the installed swagger-ui-dist package. */
function assetDir(): string {
  return (createRequire(import.meta.url)('swagger-ui-dist/absolute-path.js') as () => string)();
}

export function registerDocsRoutes(app: Hono): void {
  let documentText: string | undefined;
  const files = new Map<string, Promise<Buffer>>();

  app.get('/openapi.json', (c) => c.body((documentText ??= JSON.stringify(openApiDocument())), 200, { 'Content-Type': 'application/json' }));
  app.get('/docs', (c) => c.html(PAGE, 200, { 'Content-Security-Policy': CSP }));
  app.get('/docs/init.js', (c) => c.body(INIT_JS, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
  app.get('/docs/:file', async (c) => {
    const name = c.req.param('file');
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (type === undefined) throw new HttpError(404, 'Not Found');
    let bytes = files.get(name);
    if (bytes === undefined) files.set(name, (bytes = readFile(join(assetDir(), name))));
    return c.body(new Uint8Array(await bytes), 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=3600' });
  });
}
