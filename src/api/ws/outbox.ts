import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';
import { queueFrame, queueFrameBytes, turnBytes, WireSocket, writeTurn } from './wire-socket.ts';

/**
 * Output to websockets with backpressure that never stalls the server.
 *
 * A socket whose unsent data passes {@link QUEUE_ABOVE_BYTES} stops getting writes: further
 * frames wait in its own outbox (a plain array) and its requests stop being read, until the
 * socket drains; then the outbox is written out. Past {@link MAX_BUFFERED_BYTES} of unsent +
 * queued data the client is a slow consumer and is dropped.
 *
 * Why an outbox instead of writing everything to the socket: each frame written is a chunk in
 * node's stream buffer, and destroying a stream settles every pending chunk with its own Error
 * object. With tens of MB of small frames buffered that was seconds of synchronous work per
 * dropped socket (issue 17: dropping 100 slow consumers froze the server for 10–15 s). Here a
 * socket's stream holds at most about QUEUE_ABOVE_BYTES when it is dropped, and the outbox is
 * simply released.
 */

/** Unsent bytes in a socket above which its frames are queued in its outbox instead. */
export const QUEUE_ABOVE_BYTES = 256 * 1024;

/** Unsent + queued bytes above which a socket is dropped as a slow consumer. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

interface Outbox {
  frames: (string | Buffer)[];
  bytes: number;
}

const outboxes = new WeakMap<WebSocket, Outbox>();

/** Options of every frame we send: text (also when given bytes), never compressed. */
const TEXT_FRAME = { binary: false, compress: false } as const;

/** Bytes of a frame's payload. Strings are counted as UTF-16 length: an estimate within 3×, enough for a cap. */
const sizeOf = (text: string | Buffer) => text.length;

/**
 * Sends a text frame if the socket is open (see the module comment for backpressure). `text`
 * may be the UTF-8 bytes of the text (a message fanned out to many sockets is encoded once).
 * Frames sent to a socket in one event-loop turn are written out together: on a
 * {@link WireSocket} (the servers' sockets) built by hand into one buffer, on any other
 * websocket through ws with the socket corked.
 */
export function sendText(ws: WebSocket, text: string | Buffer): void {
  if (ws.readyState !== WebSocket.OPEN) return;
  const box = outboxes.get(ws);
  if (box !== undefined) {
    box.frames.push(text);
    box.bytes += sizeOf(text);
    if (box.bytes + ws.bufferedAmount > MAX_BUFFERED_BYTES) dropSlowConsumer(ws);
    return;
  }
  if (ws instanceof WireSocket) {
    if (ws.turn.queued > QUEUE_ABOVE_BYTES) writeTurn(ws); // a big turn: let the socket say whether it keeps up
    if (ws.bufferedAmount > QUEUE_ABOVE_BYTES) startQueueing(ws, text);
    else queueFrame(ws, text);
    return;
  }
  if (ws.bufferedAmount > QUEUE_ABOVE_BYTES) {
    startQueueing(ws, text);
    return;
  }
  corkUntilImmediate(ws);
  ws.send(text, TEXT_FRAME);
}

/**
 * {@link sendText} of the UTF-8 text at [start, end) of `src`, a buffer the caller reuses: the
 * bytes are copied before this returns.
 */
export function sendBytes(ws: WebSocket, src: Buffer, start: number, end: number): void {
  if (ws instanceof WireSocket && ws.readyState === WebSocket.OPEN && !outboxes.has(ws) && ws.turn.queued <= QUEUE_ABOVE_BYTES && ws.bufferedAmount <= QUEUE_ABOVE_BYTES) {
    queueFrameBytes(ws, src, start, end);
    return;
  }
  sendText(ws, Buffer.from(src.subarray(start, end))); // every other case, on a copy
}

/** Bytes waiting in a socket's outbox (0 when it is writing directly); for tests and measurements. */
export function queuedBytes(ws: WebSocket): number {
  return outboxes.get(ws)?.bytes ?? 0;
}

function startQueueing(ws: WebSocket, text: string | Buffer): void {
  const socket = rawSocket(ws);
  if (socket === undefined) return;
  outboxes.set(ws, { frames: [text], bytes: sizeOf(text) });
  ws.pause(); // read no more requests from a client that does not read its answers
  socket.once('drain', () => flushOutbox(ws));
}

/** The socket drained: write the outbox out, up to the queueing bound again. */
function flushOutbox(ws: WebSocket): void {
  const box = outboxes.get(ws);
  if (box === undefined || ws.readyState !== WebSocket.OPEN) return;
  const wire = ws instanceof WireSocket ? ws : undefined;
  if (wire === undefined) corkUntilImmediate(ws);
  let queued = 0;
  let i = 0;
  for (; i < box.frames.length && ws.bufferedAmount + queued <= QUEUE_ABOVE_BYTES; i++) {
    const frame = box.frames[i]!;
    if (wire === undefined) ws.send(frame, TEXT_FRAME);
    else {
      queueFrame(wire, frame);
      queued = turnBytes(wire);
    }
    box.bytes -= sizeOf(frame);
  }
  if (wire !== undefined) writeTurn(wire);
  if (i === box.frames.length) {
    outboxes.delete(ws);
    ws.resume();
    return;
  }
  box.frames = box.frames.slice(i);
  rawSocket(ws)?.once('drain', () => flushOutbox(ws));
}

/** Drops a client that stopped reading. Cheap: its stream holds little, its outbox is released. */
function dropSlowConsumer(ws: WebSocket): void {
  outboxes.delete(ws);
  console.warn(`websocket dropped: more than ${MAX_BUFFERED_BYTES} bytes unread by the client`);
  ws.terminate();
}

/** `_socket` is ws's net.Socket; it has no public accessor. */
function rawSocket(ws: WebSocket): Duplex | undefined {
  return (ws as unknown as { _socket?: Duplex })._socket;
}

/** Sockets (not {@link WireSocket}s) corked in this event-loop turn, uncorked together in one setImmediate. */
const corked: Duplex[] = [];

/**
 * Corks the socket under `ws` until the end of this event-loop turn. Without it every frame is
 * its own `writev` system call (~75% of the server's time under market-data fan-out); corked,
 * the frames a socket gets in one turn (replies, feeds, stats, book updates) go out in one.
 */
function corkUntilImmediate(ws: WebSocket): void {
  const socket = rawSocket(ws);
  if (socket === undefined || socket.writableCorked > 0) return;
  socket.cork();
  if (corked.push(socket) === 1) setImmediate(uncorkAll);
}

function uncorkAll(): void {
  for (const socket of corked.splice(0)) if (!socket.destroyed) socket.uncork();
}
