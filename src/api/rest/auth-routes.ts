import type { Hono } from 'hono';
import type { Exchange } from '../exchange.ts';
import { requireUser } from './authz.ts';
import { readBody } from './body.ts';
import { HttpError, unauthorized } from './errors.ts';
import { guardLogin } from './login-guard.ts';
import { EXPIRATION_SECONDS, PASSWORD, SYMBOL, USERNAME } from './fields.ts';
import { parseFields, str } from './validation.ts';
import { toInstrumentInfo } from '../../venue/wire-forms.ts';

/** Body of POST /auth/get_user_token. */
export const PASSWORD_TOKEN = { username: USERNAME, password: PASSWORD, expiration_seconds: EXPIRATION_SECONDS };
/** Body of POST /auth/get_user_token_api_key (the document bounds nothing but the expiry). */
export const API_KEY_TOKEN = { api_key: str(), secret: str(), expiration_seconds: EXPIRATION_SECONDS };
/** Path of GET /auth/instruments/{symbol}. */
export const INSTRUMENT_PATH = { symbol: SYMBOL };

/**
 * {base_url}/auth: the two token endpoints (no Authorization) and the instrument endpoints
 * (Authorization required).
 */
export function registerAuthRoutes(app: Hono, exchange: Exchange): void {
  app.post('/auth/get_user_token', async (c) => {
    const raw = await readBody(c);
    exchange.sync();
    const body = parseFields(raw, PASSWORD_TOKEN, 'body');
    const token = await guardLogin(c, exchange, `user:${body.username}`, () => exchange.users.tokenForPassword(body.username, body.password, body.expiration_seconds), (t) => t === undefined);
    if (token === undefined) throw unauthorized('Incorrect username or password');
    return c.json({ token });
  });

  app.post('/auth/get_user_token_api_key', async (c) => {
    const raw = await readBody(c);
    exchange.sync();
    const body = parseFields(raw, API_KEY_TOKEN, 'body');
    const token = await guardLogin(c, exchange, `key:${body.api_key}`, () => exchange.users.tokenForApiKey(body.api_key, body.secret, body.expiration_seconds), (t) => t === undefined);
    if (token === undefined) throw unauthorized('Incorrect API key or secret');
    return c.json({ token });
  });

  app.get('/auth/instruments', (c) => {
    exchange.sync();
    requireUser(c, exchange);
    return c.json({ instruments: exchange.venue.markets.map(toInstrumentInfo) });
  });

  app.get('/auth/instruments/:symbol', (c) => {
    exchange.sync();
    requireUser(c, exchange);
    const { symbol } = parseFields({ symbol: c.req.param('symbol') }, INSTRUMENT_PATH, 'path');
    const market = exchange.venue.market(symbol);
    if (market === undefined) throw new HttpError(404, `Instrument ${symbol} not found`);
    return c.json(toInstrumentInfo(market));
  });
}
