import type { Hono } from 'hono';
import { toRestOrder } from '../../venue/wire-forms.ts';
import type { Exchange } from '../exchange.ts';
import { accountOf, requireSameUser, userOfAuthorization, type ConnectionAuth } from './authz.ts';
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
 * The order-entry endpoints without their transport: the body as read ({@link readBody} /
 * `parseBody`) and the Authorization header in, the response body out; failures are thrown
 * (HttpError, RequestValidationError). The Hono routes below and the node-level fast path
 * (./order-entry-fast-path.ts) both call these, so the two cannot answer differently.
 */
export type OrderEntryHandler = (exchange: Exchange, raw: unknown, authorization: string | undefined, auth?: ConnectionAuth) => Record<string, unknown>;

/** The common prologue: sync, 401, 422, 403, in FastAPI's order (the body was read first). */
function authorized<S extends Shape & { username: typeof USERNAME }>(exchange: Exchange, raw: unknown, shape: S, authorization: string | undefined, auth?: ConnectionAuth): Parsed<S> {
  exchange.sync();
  const user = userOfAuthorization(exchange, authorization, auth);
  const body = parseFields(raw, shape, 'body');
  requireSameUser(user, body.username as string);
  return body;
}

export const insertOrder: OrderEntryHandler = (exchange, raw, authorization, auth) => {
  const body = authorized(exchange, raw, INSERT_ORDER, authorization, auth);
  const orderId = exchange.commands.placeId(accountOf(exchange, body.username), {
    symbol: body.symbol,
    price: body.price,
    quantity: body.quantity,
    side: body.side,
    timeInForce: body.time_in_force,
    postOnly: body.post_only,
  });
  return { order_id: orderId };
};

export const cancelOrder: OrderEntryHandler = (exchange, raw, authorization, auth) => {
  const body = authorized(exchange, raw, CANCEL_ORDER, authorization, auth);
  // Another user's or an unknown id gets a Cancel Reject feed; the answer is {} either way.
  exchange.commands.cancel(accountOf(exchange, body.username), body.order_id);
  return {};
};

/** The order-entry paths and their handlers (the fast path serves exactly these). */
export const ORDER_ENTRY: ReadonlyMap<string, OrderEntryHandler> = new Map([
  ['/orders/insert_order', insertOrder],
  ['/orders/cancel_order', cancelOrder],
]);

/**
 * {base_url}/orders: insert, cancel, list and cancel-all over REST. Schema violations are 422
 * before any order exists; business-rule outcomes (rejects, cancel rejects) are order feeds,
 * so these endpoints answer 200 once the request is well-formed and the caller is allowed.
 */
export function registerOrderRoutes(app: Hono, exchange: Exchange): void {
  for (const [path, handler] of ORDER_ENTRY) {
    app.post(path, async (c) => c.json(handler(exchange, await readBody(c), c.req.header('authorization'))));
  }

  app.post('/orders/get_open_orders', async (c) => {
    const body = authorized(exchange, await readBody(c), USER_ONLY, c.req.header('authorization'));
    const account = accountOf(exchange, body.username);
    return c.json({ orders: exchange.venue.openOrders(account).map(toRestOrder) });
  });

  app.post('/orders/cancel_all', async (c) => {
    const body = authorized(exchange, await readBody(c), USER_ONLY, c.req.header('authorization'));
    const { successful, failed } = exchange.commands.cancelAll(accountOf(exchange, body.username));
    return c.json({ successful_cancellations: successful, failed_cancellations: failed });
  });
}
