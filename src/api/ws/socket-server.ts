import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { MAX_REQUEST_BYTES } from './frames.ts';

/** What server.ts needs of a websocket endpoint: take an upgraded request, and shut down. */
export interface SocketEndpoint {
  /** Completes the websocket handshake of an HTTP upgrade request for this endpoint's path. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Stops timers and listeners and closes every socket. */
  close(): Promise<void>;
}

/** A websocket server without its own HTTP server (server.ts routes upgrades to it). */
export function createSocketServer(onConnection: (ws: WebSocket) => void): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_REQUEST_BYTES });
  wss.on('connection', (ws) => {
    // An 'error' event without a listener would crash the process; a broken socket is just dropped.
    ws.on('error', () => ws.terminate());
    onConnection(ws);
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
