import type { Context, Hono } from 'hono';
import { toRestOrder } from '../../venue/wire-forms.ts';
import type { Exchange } from '../exchange.ts';
import { accountOf, requireSameUser, requireUser } from './authz.ts';
import { readBody } from './body.ts';
import { PRICE, SYMBOL, USERNAME } from './fields.ts';
import { bool, enumOf, int, parseFields, str, type Parsed, type Shape } from './validation.ts';

export const INSERT_ORDER = {
  username: USERNAME,
  symbol: SYMBOL,
  price: PRICE,
  quantity: int(),
  side: enumOf(['B', 'S']),
  time_in_force: enumOf(['GTC', 'IOC']),
  post_only: bool(),
};
export const CANCEL_ORDER = { username: USERNAME, order_id: str() };
export const USER_ONLY = { username: USERNAME };

/**
 * {base_url}/orders: insert, cancel, list and cancel-all over REST. Schema violations are 422
 * before any order exists; business-rule outcomes (rejects, cancel rejects) are order feeds,
 * so these endpoints answer 200 once the request is well-formed and the caller is allowed.
 */
export function registerOrderRoutes(app: Hono, exchange: Exchange): void {
  /** The common prologue: body, sync, 401, 422, 403, in FastAPI's order. */
  async function authorized<S extends Shape & { username: typeof USERNAME }>(c: Context, shape: S): Promise<Parsed<S>> {
    const raw = await readBody(c);
    exchange.sync();
    const user = requireUser(c, exchange);
    const body = parseFields(raw, shape, 'body');
    requireSameUser(user, body.username as string);
    return body;
  }

  app.post('/orders/insert_order', async (c) => {
    const body = await authorized(c, INSERT_ORDER);
    const order = exchange.commands.place(accountOf(exchange, body.username), {
      symbol: body.symbol,
      price: body.price,
      quantity: body.quantity,
      side: body.side,
      timeInForce: body.time_in_force,
      postOnly: body.post_only,
    });
    return c.json({ order_id: order.id });
  });

  app.post('/orders/cancel_order', async (c) => {
    const body = await authorized(c, CANCEL_ORDER);
    // Another user's or an unknown id gets a Cancel Reject feed; the answer is {} either way.
    exchange.commands.cancel(accountOf(exchange, body.username), body.order_id);
    return c.json({});
  });

  app.post('/orders/get_open_orders', async (c) => {
    const body = await authorized(c, USER_ONLY);
    const account = accountOf(exchange, body.username);
    return c.json({ orders: exchange.venue.openOrders(account).map(toRestOrder) });
  });

  app.post('/orders/cancel_all', async (c) => {
    const body = await authorized(c, USER_ONLY);
    const { successful, failed } = exchange.commands.cancelAll(accountOf(exchange, body.username));
    return c.json({ successful_cancellations: successful, failed_cancellations: failed });
  });
}
