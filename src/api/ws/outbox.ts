import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';
import { queueFrame, queueFrameBytes, WireSocket, writeTurn, type Outbox } from './wire-socket.ts';

/**
 * Output to websockets with backpressure that never stalls the server.
 *
 * Frames go into the socket's turn (./wire-socket.ts: one buffer, one write per socket per
 * event-loop turn). A socket whose unsent data passes {@link QUEUE_ABOVE_BYTES} stops getting
 * writes: further frames wait in its own outbox (a plain array) and its requests stop being
 * read, until the socket drains; then the outbox is written out. Past {@link MAX_BUFFERED_BYTES}
 * of unsent + queued data the client is a slow consumer and is dropped.
 *
 * Why an outbox instead of writing everything to the socket: each chunk written is an entry in
 * node's stream buffer, and destroying a stream settles every pending chunk with its own Error
 * object. With tens of MB buffered that was seconds of synchronous work per dropped socket
 * (issue 17: dropping 100 slow consumers froze the server for 10–15 s). Here a socket's stream
 * holds at most about QUEUE_ABOVE_BYTES when it is dropped, and the outbox is simply released.
 *
 * Every server socket is a {@link WireSocket} (./socket-server.ts makes them), so there is one
 * path: the turn, or the outbox.
 */

/** Unsent bytes in a socket above which its frames are queued in its outbox instead. */
export const QUEUE_ABOVE_BYTES = 256 * 1024;

/** Unsent + queued bytes above which a socket is dropped as a slow consumer. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** Bytes of a frame's payload. Strings are counted as UTF-16 length: an estimate within 3×, enough for a cap. */
const sizeOf = (text: string | Buffer) => text.length;

/**
 * Sends a text frame if the socket is open (see the module comment for backpressure). `text`
 * may be the UTF-8 bytes of the text (a message fanned out to many sockets is encoded once).
 * The frames a socket gets in one event-loop turn leave together, built by hand into one buffer.
 */
export function sendText(ws: WireSocket, text: string | Buffer): void {
  if (ws.readyState !== WebSocket.OPEN) return;
  if (ws.outbox !== undefined) toOutbox(ws, ws.outbox, text);
  else if (turnHasRoom(ws)) queueFrame(ws, text);
  else startQueueing(ws, text);
}

/**
 * {@link sendText} of the UTF-8 text at [start, end) of `src`, a buffer the caller reuses: the
 * bytes are copied before this returns.
 */
export function sendBytes(ws: WireSocket, src: Buffer, start: number, end: number): void {
  if (takesFrame(ws)) queueFrameBytes(ws, src, start, end);
  else if (ws.readyState === WebSocket.OPEN) sendText(ws, Buffer.from(src.subarray(start, end))); // the outbox keeps it: a copy
}

/** Whether a frame sent now goes straight into the socket's turn: it is open, keeping up, and has no outbox. */
export function takesFrame(ws: WireSocket): boolean {
  // Hot path: a later frame of a turn whose first frame found the socket open and keeping up.
  const queued = ws.turn.queued;
  if (queued !== 0 && queued <= QUEUE_ABOVE_BYTES && ws.outbox === undefined) return true;
  return ws.readyState === WebSocket.OPEN && ws.outbox === undefined && turnHasRoom(ws);
}

/** Bytes waiting in a socket's outbox (0 when it is writing directly); for tests and measurements. */
export function queuedBytes(ws: WireSocket): number {
  return ws.outbox?.bytes ?? 0;
}

/** Whether the socket takes this frame into its turn: it keeps up. A big turn is written first, so the socket can say so. */
function turnHasRoom(ws: WireSocket): boolean {
  if (ws.turn.queued > QUEUE_ABOVE_BYTES) writeTurn(ws);
  return ws.bufferedAmount <= QUEUE_ABOVE_BYTES;
}

function toOutbox(ws: WireSocket, box: Outbox, text: string | Buffer): void {
  box.frames.push(text);
  box.bytes += sizeOf(text);
  if (box.bytes + ws.bufferedAmount > MAX_BUFFERED_BYTES) dropSlowConsumer(ws);
}

function startQueueing(ws: WireSocket, text: string | Buffer): void {
  const socket = rawSocket(ws);
  if (socket === undefined) return;
  ws.outbox = { frames: [text], bytes: sizeOf(text) };
  ws.pause(); // read no more requests from a client that does not read its answers
  socket.once('drain', () => flushOutbox(ws));
}

/** The socket drained: write the outbox out, up to the queueing bound again. */
function flushOutbox(ws: WireSocket): void {
  const box = ws.outbox;
  if (box === undefined || ws.readyState !== WebSocket.OPEN) return;
  let i = 0;
  for (; i < box.frames.length && ws.bufferedAmount + ws.turn.queued <= QUEUE_ABOVE_BYTES; i++) {
    const frame = box.frames[i]!;
    queueFrame(ws, frame);
    box.bytes -= sizeOf(frame);
  }
  writeTurn(ws);
  if (i === box.frames.length) {
    ws.outbox = undefined;
    ws.resume();
    return;
  }
  box.frames = box.frames.slice(i);
  rawSocket(ws)?.once('drain', () => flushOutbox(ws));
}

/** Drops a client that stopped reading. Cheap: its stream holds little, its outbox is released. */
function dropSlowConsumer(ws: WireSocket): void {
  ws.outbox = undefined;
  console.warn(`websocket dropped: more than ${MAX_BUFFERED_BYTES} bytes unread by the client`);
  ws.terminate();
}

/** `_socket` is ws's net.Socket; it has no public accessor. */
function rawSocket(ws: WebSocket): Duplex | undefined {
  return (ws as unknown as { _socket?: Duplex })._socket;
}
