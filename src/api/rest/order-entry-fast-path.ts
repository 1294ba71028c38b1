import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Exchange } from '../exchange.ts';
import type { ConnectionAuth } from './authz.ts';
import { MAX_BODY_BYTES, parseBody, readIncomingBody } from './body.ts';
import { errorAnswer, HttpError } from './errors.ts';
import { ORDER_ENTRY, type OrderEntryHandler } from './order-routes.ts';
import { batchWritesPerTurn } from './turn-writes.ts';

/**
 * REST order entry (POST /orders/insert_order and /orders/cancel_order) served straight on
 * node's request and response, before Hono: no fetch `Request`, `Headers` or `Response` per
 * request, no router, no middleware chain. Profiled against a trivial Hono handler, those were
 * most of what an insert cost besides the venue and the socket write.
 *
 * The answers are the Hono routes' exactly (test/api/rest/order-entry-fast-path.test.ts sends
 * both the same requests): the same handlers (./order-routes.ts), the same body reading and
 * parsing (./body.ts), the same error bodies (`errorAnswer`), the same 413 for a declared
 * oversize body, the same `application/json` type, and with a journal the answer waits until
 * the command is on disk. Anything else, including these paths with a query string, another
 * method or an encoded path, goes to Hono unchanged.
 */
export function withOrderEntryFastPath(exchange: Exchange, fallback: RequestListener): RequestListener {
  const auths = new WeakMap<Socket, ConnectionAuth>();
  return (req, res) => {
    const handler = req.method === 'POST' ? ORDER_ENTRY.get(req.url ?? '') : undefined;
    if (handler === undefined) {
      fallback(req, res);
      return;
    }
    let auth = auths.get(req.socket);
    if (auth === undefined) {
      auths.set(req.socket, (auth = { header: undefined, key: undefined }));
      batchWritesPerTurn(req.socket); // pipelined answers leave together (./turn-writes.ts)
    }
    void serve(exchange, handler, auth, req, res);
  };
}

async function serve(exchange: Exchange, handler: OrderEntryHandler, auth: ConnectionAuth, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let status = 200;
  let body: unknown;
  let headers: Record<string, string> | undefined;
  try {
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) throw new HttpError(413, 'Request body too large');
    const raw = parseBody(await readIncomingBody(req), req.headers['content-type']);
    body = handler(exchange, raw, req.headers.authorization, auth);
  } catch (e) {
    ({ status, body, headers } = errorAnswer(e));
  }
  if (exchange.commands.journaling) await exchange.commands.durable(); // answer once the command is on disk
  const text = JSON.stringify(body);
  const head: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
  if (headers !== undefined) for (const name in headers) head[name.toLowerCase()] = headers[name]!;
  res.writeHead(status, head);
  res.end(text);
}
