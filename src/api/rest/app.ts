import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Exchange } from '../exchange.ts';
import { registerDocsRoutes } from '../openapi/docs-routes.ts';
import { registerAdminRoutes } from './admin-routes.ts';
import { registerApiRoutes } from './api-routes.ts';
import { registerAuthRoutes } from './auth-routes.ts';
import { registerHealthRoutes } from './health-routes.ts';
import { MAX_BODY_BYTES } from './body.ts';
import { errorAnswer } from './errors.ts';
import { registerMarketRoutes } from './market-routes.ts';
import { registerOrderRoutes } from './order-routes.ts';
import { registerRiskRoutes } from './risk-routes.ts';
import { registerUiRoutes } from '../ui/ui-routes.ts';

export { MAX_BODY_BYTES } from './body.ts';

/** Which halves of the wire an app serves (the server may put them on two ports). */
export interface RestParts {
  /** {base_url}: /auth, /orders, /settlement, /candle, /risk_manager, and /admin. */
  base?: boolean;
  /** {app_url}: /api/risk-snapshot and /api/api-keys. */
  app?: boolean;
  /** The live web view at / (src/api/ui). */
  ui?: boolean;
}

/**
 * The REST side of the exchange wire: the interface document's endpoints with its paths,
 * bodies and keys, FastAPI-shaped errors (422 lists every failing field; 401/403/404/405/409/413
 * carry `{"detail": "…"}`; an unexpected failure is a bare 500, never a stack trace), plus the
 * admin API. Every handler brings sim time up to date (`exchange.sync()`) before answering.
 */
export function createRestApp(exchange: Exchange, parts: RestParts = { base: true, app: true }): Hono {
  const app = new Hono();
  // A declared oversize body is refused before routing; a chunked one is cut off by readBody.
  // (hono's bodyLimit would touch c.req.raw.body, which builds a full fetch Request per call.)
  app.use('*', async (c, next) => {
    if (Number(c.req.header('content-length') ?? 0) > MAX_BODY_BYTES) return c.json({ detail: 'Request body too large' }, 413);
    await next();
    await exchange.commands.durable(); // with a journal: answer only once the command is on disk
  });
  if (parts.base) {
    registerAuthRoutes(app, exchange);
    registerOrderRoutes(app, exchange);
    registerMarketRoutes(app, exchange);
    registerRiskRoutes(app, exchange);
    registerAdminRoutes(app, exchange);
    registerDocsRoutes(app); // /openapi.json and /docs
  }
  if (parts.app) registerApiRoutes(app, exchange);
  if (parts.ui) registerUiRoutes(app);
  registerHealthRoutes(app, exchange); // on every port: orchestrators probe whichever they know

  const allowedMethods = methodIndex(app);
  app.notFound((c) => {
    const allowed = allowedMethods(c.req.path);
    if (allowed.length > 0) return c.json({ detail: 'Method Not Allowed' }, 405, { Allow: allowed.join(', ') });
    return c.json({ detail: 'Not Found' }, 404);
  });
  app.onError(errorResponse);
  return app;
}

/** Maps anything a handler throws to a response; unknown errors are logged, not shown. */
function errorResponse(err: Error, c: Context): Response {
  if (err instanceof HTTPException && err.status < 500) return c.json({ detail: err.message || 'Bad Request' }, err.status);
  const answer = errorAnswer(err);
  return c.json(answer.body, answer.status as ContentfulStatusCode, answer.headers);
}

/**
 * The methods registered for a path, so a known path with the wrong method is a 405 (with
 * `Allow`, as Starlette answers) instead of Hono's 404. Built lazily from the app's routes.
 */
function methodIndex(app: Hono): (path: string) => string[] {
  let routes: { regex: RegExp; method: string }[] | undefined;
  return (path) => {
    routes ??= app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => ({
        method: r.method,
        regex: new RegExp(`^${r.path.replace(/[.+?^${}()|[\]\\*]/g, '\\$&').replace(/:[A-Za-z_]\w*/g, '[^/]+')}$`),
      }));
    const methods = new Set<string>();
    for (const r of routes) {
      if (!r.regex.test(path)) continue;
      methods.add(r.method);
      if (r.method === 'GET') methods.add('HEAD');
    }
    return [...methods];
  };
}
