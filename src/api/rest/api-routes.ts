import type { Hono } from 'hono';
import type { Exchange } from '../exchange.ts';
import { accountOf, requireSameUser, requireUser } from './authz.ts';
import { readBody } from './body.ts';
import { unauthorized } from './errors.ts';
import { guardLogin } from './login-guard.ts';
import { nullable, optional, parseFields, str } from './validation.ts';

export const API_KEY = { username: str(), password: str(), totp: optional(nullable(str())) };

const API_KEY_FAILURES = {
  bad_password: 'Incorrect username or password',
  totp_required: 'Two-factor authentication code (totp) required',
  bad_totp: 'Invalid two-factor authentication code (totp)',
  totp_reused: 'Two-factor authentication code (totp) already used; wait for the next one',
} as const;

/**
 * The two {app_url} endpoints under /api: the token-based risk snapshot and API key creation.
 * Both take `Authorization: Bearer <token>` (a bare token is accepted too).
 */
export function registerApiRoutes(app: Hono, exchange: Exchange): void {
  app.get('/api/risk-snapshot', (c) => {
    exchange.sync();
    const user = requireUser(c, exchange);
    return c.json(exchange.venue.apiRiskSnapshot(accountOf(exchange, user)));
  });

  app.post('/api/api-keys', async (c) => {
    const raw = await readBody(c);
    exchange.sync();
    const user = requireUser(c, exchange);
    const body = parseFields(raw, API_KEY, 'body');
    // 403 before the password check: the token already says who may act, and scrypt is costly.
    requireSameUser(user, body.username);
    const created = await guardLogin(c, exchange, `user:${body.username}`, () => exchange.users.createApiKey(body.username, body.password, body.totp), (r) => typeof r === 'string');
    if (typeof created === 'string') throw unauthorized(API_KEY_FAILURES[created]);
    return c.json({ api_key: created.api_key, secret: created.secret });
  });
}
