import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Exchange } from './exchange.ts';
import { createRestApp } from './rest/app.ts';
import { withOrderEntryFastPath } from './rest/order-entry-fast-path.ts';
import { MarketDataGateway } from './ws/market-data.ts';
import { OrderGateway } from './ws/order-gateway.ts';
import { DEFAULT_MAX_SOCKETS, DEFAULT_MAX_SOCKETS_PER_USER, SocketBudget, type SocketEndpoint, type SocketLimits } from './ws/socket-server.ts';

/** Options of {@link startServer}. */
export interface ServerOptions {
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Port of the REST endpoints and both websockets; default 8080, 0 picks a free port. */
  port?: number;
  /** When given, the /api endpoints ({app_url}) are served on this second port instead (0 picks). */
  appPort?: number;
  /** Wall milliseconds between heartbeats on both websockets; default 2000. */
  heartbeatMs?: number;
  /** Serve the live web view at / (default true). */
  ui?: boolean;
  /** Open websockets per server, both endpoints together; default 1024. */
  maxSockets?: number;
  /** Websockets logged in as one user, per endpoint; default 128. */
  maxSocketsPerUser?: number;
  /** Wall milliseconds between sweeps that end sessions whose token expired; default 1000. */
  tokenSweepMs?: number;
}

/** A running server. */
export interface RunningServer {
  /** {base_url}: REST endpoints, e.g. http://127.0.0.1:8080. */
  url: string;
  /** Websocket base: the order socket is `${wsUrl}/orders`, market data `${wsUrl}/md/ws`. */
  wsUrl: string;
  /** {app_url}: the /api endpoints (same as url unless appPort was given). */
  appUrl: string;
  /** The port actually bound by the main server. */
  port: number;
  /** Open websockets, both endpoints together (what the `maxSockets` cap counts). */
  openSockets(): number;
  /** Stops the clock driver, closes every socket and both servers, clears all timers. */
  close(): Promise<void>;
  /**
   * Resolves if the journal fails (a write or sync error): the server has then stopped serving,
   * as if killed — nothing produced after the failed group was acknowledged — and a restart on
   * the data directory recovers everything that was.
   */
  failed: Promise<Error>;
}

/** Websocket paths (anything else is refused with 404 before the handshake). */
const ORDER_PATH = '/orders';
const MARKET_DATA_PATH = '/md/ws';

/**
 * Serves an exchange over HTTP: the REST app (hono on @hono/node-server), the order websocket
 * at /orders and the market-data websocket at /md/ws, on one port — plus, with `appPort`, the
 * /api endpoints on a second one. Starts the exchange's clock driver.
 */
export async function startServer(exchange: Exchange, options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const heartbeatMs = options.heartbeatMs ?? 2000;
  const split = options.appPort !== undefined;
  const limits: SocketLimits = {
    budget: new SocketBudget(options.maxSockets ?? DEFAULT_MAX_SOCKETS),
    maxSocketsPerUser: options.maxSocketsPerUser ?? DEFAULT_MAX_SOCKETS_PER_USER,
    tokenSweepMs: options.tokenSweepMs,
    gate: exchange.commands, // with a journal, output leaves only once what it depends on is durable
  };
  const orders = new OrderGateway(exchange, { heartbeatMs, limits });
  const marketData = new MarketDataGateway(exchange, { heartbeatMs, limits });
  const endpoints: Record<string, SocketEndpoint> = { [ORDER_PATH]: orders, [MARKET_DATA_PATH]: marketData };

  // Order entry skips Hono (rest/order-entry-fast-path.ts); every other request goes through it.
  const main = httpServer(withOrderEntryFastPath(exchange, honoListener(createRestApp(exchange, { base: true, app: !split, ui: options.ui !== false }))));
  main.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const endpoint = endpoints[pathOf(req)];
    if (endpoint === undefined) refuseUpgrade(socket);
    else endpoint.handleUpgrade(req, socket, head);
  });
  const servers = [main];
  if (split) {
    const app = httpServer(honoListener(createRestApp(exchange, { base: false, app: true })));
    app.on('upgrade', (_req: IncomingMessage, socket: Duplex) => refuseUpgrade(socket));
    servers.push(app);
  }

  const stopTimeMarks = markTimeEverySecond(exchange);

  const closeAll = async (): Promise<void> => {
    exchange.driver.stop();
    stopTimeMarks();
    await Promise.all([orders.close(), marketData.close()]);
    await Promise.all(servers.map(closeHttp));
    if (exchange.commands.journaling && exchange.commands.failure === undefined) exchange.commands.markTime();
    exchange.commands.close();
  };
  let closing: Promise<void> | undefined;
  // A failed journal write or sync stops the server: held output is dropped (the gate never
  // opens again), waiting REST requests are cut off with their connections, sockets closed.
  const failed = new Promise<Error>((resolve) =>
    exchange.commands.onFailure((err) => {
      console.error(`perpsim: journal write failed (${err.message}): stopped serving; restart on the same data directory to recover every acknowledged command`);
      void (closing ??= closeAll()).then(() => resolve(err));
    }),
  );
  let port: number;
  let appPort: number;
  try {
    port = await listen(main, options.port ?? 8080, host);
    appPort = split ? await listen(servers[1]!, options.appPort!, host) : port;
  } catch (e) {
    await closeAll();
    throw e;
  }
  exchange.driver.start();

  const urlHost = hostForUrl(host);
  return {
    url: `http://${urlHost}:${port}`,
    wsUrl: `ws://${urlHost}:${port}`,
    appUrl: `http://${urlHost}:${appPort}`,
    port,
    openSockets: () => limits.budget.count,
    close: () => (closing ??= closeAll()),
    failed,
  };
}

/**
 * With a journal, notes the sim time once a wall second when it moved without commands, so a
 * restart resumes at least there (a paced clock moves on its own).
 */
function markTimeEverySecond(exchange: Exchange): () => void {
  let lastNs = exchange.clock.nowNs;
  const timer = setInterval(() => {
    if (!exchange.commands.journaling || exchange.clock.nowNs === lastNs) return;
    lastNs = exchange.clock.nowNs;
    exchange.commands.markTime();
  }, 1000);
  timer.unref();
  return () => clearInterval(timer);
}

/** A Hono app as a node request listener (what @hono/node-server's `createAdaptorServer` installs). */
function honoListener(app: Hono): RequestListener {
  return getRequestListener(app.fetch) as RequestListener;
}

function httpServer(listener: RequestListener): Server {
  const server = createServer(listener);
  server.on('clientError', answerClientError);
  return server;
}

/**
 * Requests node's HTTP parser refuses (a bad method, oversized headers, a malformed line) are
 * answered with a JSON `{"detail"}` body like every other error, instead of node's bare status
 * line; then the connection closes (the parser cannot resynchronize on it).
 */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason] =
    err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large'] : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout'] : [400, 'Bad Request'];
  const body = JSON.stringify({ detail: reason });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeHttp(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** Answers an upgrade for an unknown path with 404 and drops the connection. */
function refuseUpgrade(socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
}

/** A host to put in URLs: wildcard binds are reached on loopback; IPv6 gets brackets. */
function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
