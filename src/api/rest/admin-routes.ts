import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { parseMoney, type Money } from '../../core/money.ts';
import { INSTRUMENT_STATES } from '../../core/types.ts';
import { decodeBase32 } from '../auth/totp.ts';
import { isSpeed, MAX_SPEED, type Speed } from '../clock-driver.ts';
import type { Exchange } from '../exchange.ts';
import { adminGuard } from './authz.ts';
import { readBody } from './body.ts';
import { HttpError, RequestValidationError, valueIssue } from './errors.ts';
import { PASSWORD, SYMBOL, USERNAME } from './fields.ts';
import { checkFields, enumOf, fail, field, float, ok, optional, parseFields, str } from './validation.ts';
import { toInstrumentInfo } from '../../venue/wire-forms.ts';

/**
 * Longest single advance: a year of sim time. Every event in it runs before the answer, in
 * slices that yield to the event loop, so other clients are served meanwhile.
 */
export const MAX_ADVANCE_SECONDS = 366 * 86_400;

const DECIMAL = str({ min: 1, max: 60, pattern: '^-?\\d+(\\.\\d+)?$' });
const SPEED_RULE = `speed must be a positive number up to ${MAX_SPEED} or "max"`;
const SPEED = field<Speed>(
  (input) => (isSpeed(input) ? ok(input) : fail('value_error', `Value error, ${SPEED_RULE}`, { error: SPEED_RULE })),
  z.union([z.literal('max'), z.number().gt(0).lte(MAX_SPEED)]),
);

export const ADVANCE = { seconds: float({ ge: 0, le: MAX_ADVANCE_SECONDS }) };
export const NEW_USER = { username: USERNAME, password: PASSWORD, cash: DECIMAL, totp_secret: optional(str({ min: 1, pattern: '^[A-Z2-7]+=*$' })) };
export const CASH = { username: USERNAME, amount: DECIMAL };
export const INSTRUMENT_STATE = { state: enumOf(INSTRUMENT_STATES) };
export const SPEED_BODY = { speed: SPEED };
export const ADMIN_CANCEL = { order_id: str() };
export const ADMIN_INSTRUMENT_PATH = { symbol: SYMBOL };

/** A decimal text as Money; 422 naming the field when it has more than 18 decimals. */
function money(text: string, name: string): Money {
  try {
    return parseMoney(text);
  } catch (e) {
    throw new RequestValidationError([valueIssue(['body', name], text, (e as Error).message)]);
  }
}

/**
 * The admin / time-control API (an extension, decisions.md), guarded by the exchange's admin
 * token: the clock, users and cash, administrative cancels, instrument states, the state hash.
 */
export function registerAdminRoutes(app: Hono, exchange: Exchange): void {
  app.use('/admin/*', adminGuard(exchange));
  const status = (c: Context) => c.json(exchange.driver.status());

  app.get('/admin/clock', (c) => {
    exchange.sync();
    return status(c);
  });

  app.post('/admin/clock/advance', async (c) => {
    const raw = await readBody(c);
    exchange.sync();
    const { seconds } = parseFields(raw, ADVANCE, 'body');
    await exchange.driver.advanceInSlices(seconds);
    if (exchange.commands.journaling) exchange.commands.markTime(); // durable before the answer
    return status(c);
  });

  app.post('/admin/clock/pause', (c) => {
    exchange.sync();
    exchange.driver.pause();
    exchange.commands.notePace();
    return status(c);
  });

  app.post('/admin/clock/resume', (c) => {
    exchange.sync();
    try {
      exchange.driver.resume();
      exchange.commands.notePace();
    } catch (e) {
      if (e instanceof RangeError) throw new HttpError(409, e.message); // a manual clock only advances
      throw e;
    }
    return status(c);
  });

  app.post('/admin/clock/speed', async (c) => {
    const raw = await readBody(c);
    exchange.sync();
    const { speed } = parseFields(raw, SPEED_BODY, 'body');
    exchange.driver.setSpeed(speed);
    exchange.commands.notePace();
    return status(c);
  });

  app.post('/admin/users', async (c) => {
    const raw = await readBody(c);
    exchange.sync();
    const body = parseFields(raw, NEW_USER, 'body');
    const cash = money(body.cash, 'cash');
    if (body.totp_secret !== undefined && (decodeBase32(body.totp_secret)?.length ?? 0) < 10) {
      throw new RequestValidationError([valueIssue(['body', 'totp_secret'], body.totp_secret, 'totp_secret must be base32 of at least 10 bytes')]);
    }
    const exists = () => exchange.users.has(body.username) || exchange.venue.account(body.username) !== undefined;
    if (exists()) throw new HttpError(409, `User ${body.username} already exists`);
    try {
      await exchange.addUser(body.username, body.password, cash, body.totp_secret);
    } catch (e) {
      // Two concurrent requests for one name: the second finds it taken after hashing.
      if (e instanceof RangeError && exists()) throw new HttpError(409, `User ${body.username} already exists`);
      throw e;
    }
    return c.json({ username: body.username });
  });

  app.post('/admin/cash', async (c) => {
    const raw = await readBody(c);
    exchange.sync();
    const body = parseFields(raw, CASH, 'body');
    const amount = money(body.amount, 'amount');
    const account = exchange.venue.account(body.username);
    if (account === undefined) throw new HttpError(404, `User ${body.username} not found`);
    exchange.commands.adjustCash(account, amount);
    return c.json(exchange.venue.riskSnapshot(account));
  });

  app.post('/admin/orders/cancel', async (c) => {
    const raw = await readBody(c);
    exchange.sync();
    const { order_id } = parseFields(raw, ADMIN_CANCEL, 'body');
    if (!exchange.commands.adminCancel(order_id)) throw new HttpError(404, `No open order ${order_id}`);
    return c.json({ canceled: true });
  });

  app.post('/admin/instruments/:symbol/state', async (c) => {
    const raw = await readBody(c);
    exchange.sync();
    const path = checkFields({ symbol: c.req.param('symbol') }, ADMIN_INSTRUMENT_PATH, 'path');
    const body = checkFields(raw, INSTRUMENT_STATE, 'body');
    const issues = [...path.issues, ...body.issues];
    if (issues.length > 0) throw new RequestValidationError(issues);
    const market = exchange.venue.market(path.value.symbol!);
    if (market === undefined) throw new HttpError(404, `Instrument ${path.value.symbol} not found`);
    exchange.commands.setInstrumentState(market, body.value.state!);
    return c.json(toInstrumentInfo(market));
  });

  app.get('/admin/state_hash', (c) => {
    exchange.sync();
    return c.json({ state_hash: exchange.venue.stateHash() });
  });
}
