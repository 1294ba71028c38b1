import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { CLOSE_TOO_MANY } from './close-codes.ts';
import { MAX_REQUEST_BYTES } from './frames.ts';
import type { OutputGate } from '../journal/output-gate.ts';
import { WireSocket } from './wire-socket.ts';

/** Socket caps shared by the server's websocket endpoints. */
export interface SocketLimits {
  /** Open sockets per server, both endpoints together (default {@link DEFAULT_MAX_SOCKETS}). */
  readonly budget: SocketBudget;
  /** Sockets logged in as one user, per endpoint (default {@link DEFAULT_MAX_SOCKETS_PER_USER}). */
  readonly maxSocketsPerUser: number;
  /** Wall milliseconds between sweeps for expired tokens (default 1000). */
  readonly tokenSweepMs?: number;
  /** What every socket's output waits on (the journal's durability gate); none: always open. */
  readonly gate?: OutputGate;
}

export const DEFAULT_MAX_SOCKETS = 1024;
export const DEFAULT_MAX_SOCKETS_PER_USER = 128;

/** Counts the server's open sockets against its total cap. */
export class SocketBudget {
  private open = 0;

  constructor(readonly maxSockets: number = DEFAULT_MAX_SOCKETS) {}

  get count(): number {
    return this.open;
  }

  /** Takes a slot; false when the server is full. */
  take(): boolean {
    if (this.open >= this.maxSockets) return false;
    this.open++;
    return true;
  }

  release(): void {
    this.open--;
  }
}

/** What server.ts needs of a websocket endpoint: take an upgraded request, and shut down. */
export interface SocketEndpoint {
  /** Completes the websocket handshake of an HTTP upgrade request for this endpoint's path. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Stops timers and listeners and closes every socket. */
  close(): Promise<void>;
}

/**
 * A websocket server without its own HTTP server (server.ts routes upgrades to it). Past the
 * server's total cap a connection is accepted and closed at once with {@link CLOSE_TOO_MANY}
 * ("server full"), so the client learns why instead of seeing a refused handshake. Its sockets
 * are {@link WireSocket}s: frames of a turn leave in one buffer (./wire-socket.ts).
 */
export function createSocketServer(onConnection: (ws: WireSocket) => void, limits: SocketLimits): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_REQUEST_BYTES, WebSocket: WireSocket });
  wss.on('connection', (ws) => {
    (ws as WireSocket).gate = limits.gate;
    // An 'error' event without a listener would crash the process; a broken socket is just dropped.
    ws.on('error', () => ws.terminate());
    if (!limits.budget.take()) {
      ws.close(CLOSE_TOO_MANY, 'server full: too many sockets');
      return;
    }
    ws.once('close', () => limits.budget.release());
    onConnection(ws as WireSocket);
  });
  return wss;
}

/** Completes the handshake on `wss` and announces the connection. */
export function upgradeInto(wss: WebSocketServer, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
}

/**
 * Closes every client of `wss` with 1001 (going away), waiting up to `graceMs` for each close
 * handshake before terminating the socket, then closes the server itself.
 */
export async function closeSocketServer(wss: WebSocketServer, graceMs = 1000): Promise<void> {
  await Promise.all(
    [...wss.clients].map(
      (ws) =>
        new Promise<void>((resolve) => {
          if (ws.readyState === WebSocket.CLOSED) return resolve();
          const timer = setTimeout(() => ws.terminate(), graceMs);
          ws.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
          if (ws.readyState === WebSocket.OPEN) ws.close(1001, 'server shutting down');
        }),
    ),
  );
  await new Promise<void>((resolve) => wss.close(() => resolve()));
}
