import type { Hono } from 'hono';
import type { Exchange } from '../exchange.ts';
import { accountOf, requireSameUser, requireUser } from './authz.ts';
import { parseFields, str } from './validation.ts';

/** Query of GET /risk_manager/risk_snapshot. */
export const RISK_QUERY = { username: str() };

/**
 * {base_url}/risk_manager/risk_snapshot: the user-based (position) snapshot. Authorization is
 * required and the `username` query parameter must be the token's user (decisions.md).
 */
export function registerRiskRoutes(app: Hono, exchange: Exchange): void {
  app.get('/risk_manager/risk_snapshot', (c) => {
    exchange.sync();
    const user = requireUser(c, exchange);
    // Starlette keeps the last value of a repeated query parameter.
    const query = Object.fromEntries(Object.entries(c.req.queries()).map(([k, v]) => [k, v[v.length - 1]]));
    const { username } = parseFields(query, RISK_QUERY, 'query');
    requireSameUser(user, username);
    return c.json(exchange.venue.riskSnapshot(accountOf(exchange, username)));
  });
}
