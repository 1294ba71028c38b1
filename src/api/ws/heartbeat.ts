import type { WebSocketServer } from 'ws';
import type { Exchange } from '../exchange.ts';
import { sendText } from './frames.ts';
import type { WireSocket } from './wire-socket.ts';

/**
 * Sends `{"t":"h","ts","tn"}` (sim time) every `intervalMs` of wall time to every open socket
 * of `wss`, logged in or not, so clients with a short read timeout stay connected. One timer
 * per socket server, not per socket; the frame is serialized and encoded once per beat.
 *
 * @returns A function that stops the heartbeat (clears the interval).
 */
export function startHeartbeat(wss: WebSocketServer, exchange: Exchange, intervalMs: number): () => void {
  if (!(intervalMs > 0) || !Number.isFinite(intervalMs)) throw new RangeError(`heartbeatMs must be a positive number, got ${intervalMs}`);
  const timer = setInterval(() => {
    if (wss.clients.size === 0) return;
    exchange.sync();
    const bytes = Buffer.from(`{"t":"h","ts":${exchange.clock.nowSec},"tn":${exchange.clock.nowNanos}}`);
    for (const ws of wss.clients) sendText(ws as WireSocket, bytes); // the servers' sockets (./socket-server.ts)
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
