import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';
import type { OutputGate } from '../journal/output-gate.ts';
import { TurnSlab } from '../turn-slab.ts';

/**
 * Text frames of one event-loop turn, built by hand into one buffer per socket and written with
 * one `write` at the end of the turn.
 *
 * Why not `ws.send`: ws frames every message on its own (a header buffer and the payload, two
 * chunks in the socket's queue, a `writev` array entry each, options objects per call). Under
 * order entry a socket gets three frames per order and hundreds of orders per turn; built here,
 * a frame is its header (2, 4 or 10 bytes: server frames are unmasked) and its UTF-8 payload
 * appended to the socket's slab, and the turn leaves as one Buffer. The bytes on the wire are
 * exactly the frames ws would send (FIN, text opcode, no compression: the servers never
 * negotiate per-message deflate for output we send).
 *
 * Ordering with ws's own output: ws still writes control frames (close, ping, pong) itself,
 * straight to the socket. {@link WireSocket} writes out the turn's pending frames before each
 * of them, so a close frame never overtakes the replies sent before it.
 *
 * The durability gate (src/api/journal/output-gate.ts; the server sets {@link WireSocket.gate}
 * with a journal): a turn's bytes, and control frames, leave only when the gate is open;
 * otherwise they are held and released in order once the sync covering them completes.
 */

/** Frames held back from a socket that does not keep up, and their size (./outbox.ts). */
export interface Outbox {
  frames: (string | Buffer)[];
  bytes: number;
}

/** Smallest slab a socket gets; a socket's slab grows to twice what its busiest turn needed. */
const MIN_SLAB_BYTES = 8 * 1024;

/** A server-side websocket whose text frames can be queued for the turn ({@link queueFrame}). */
export class WireSocket extends WebSocket {
  /** This turn's frames, not yet written. */
  readonly turn = new TurnSlab(MIN_SLAB_BYTES);
  /** Asked before anything is written (the journal's durability gate); none: always open. */
  gate: OutputGate | undefined = undefined;
  /** Frames waiting for a socket that does not keep up (./outbox.ts); undefined while it does. */
  outbox: Outbox | undefined = undefined;

  override close(code?: number, data?: string | Buffer): void {
    this.afterTurn(() => super.close(code, data));
  }

  override ping(data?: unknown, mask?: boolean, cb?: (err: Error) => void): void {
    this.afterTurn(() => super.ping(data, mask, cb));
  }

  override pong(data?: unknown, mask?: boolean, cb?: (err: Error) => void): void {
    this.afterTurn(() => super.pong(data, mask, cb));
  }

  /** A control frame ws writes itself: after this turn's frames, and behind the gate's held output (never overtaking replies held before it). */
  private afterTurn(send: () => void): void {
    writeTurn(this);
    const gate = this.gate;
    if (gate === undefined || gate.open) send();
    else gate.hold(send);
  }
}

/** Header bytes of a server frame carrying `n` payload bytes (no mask). */
const headerBytes = (n: number): number => (n < 126 ? 2 : n < 65536 ? 4 : 10);

/** Sockets with frames queued in this turn, written together in one setImmediate. */
const pending: WireSocket[] = [];

/**
 * Appends one text frame carrying `text` (or its UTF-8 bytes) to the socket's turn. The caller
 * checked that the socket is open.
 */
export function queueFrame(ws: WireSocket, text: string | Buffer): void {
  if (typeof text !== 'string') return queueFrameBytes(ws, text, 0, text.length);
  const buf = ws.turn.reserve(10 + text.length * 3); // UTF-8 is at most 3 bytes per UTF-16 unit and at least 1
  const at = ws.turn.end;
  const guess = headerBytes(text.length); // right unless the UTF-8 is longer than the string and crosses 126 or 65536
  const bytes = buf.write(text, at + guess);
  const header = headerBytes(bytes);
  if (header !== guess) buf.copyWithin(at + header, at + guess, at + guess + bytes);
  writeHeader(buf, at, bytes, header);
  queued(ws, at + header + bytes);
}

/** Appends one text frame whose payload is the UTF-8 at [start, end) of `src` (copied now). */
export function queueFrameBytes(ws: WireSocket, src: Buffer, start: number, end: number): void {
  const bytes = end - start;
  const buf = ws.turn.reserve(10 + bytes);
  const at = ws.turn.end;
  const header = headerBytes(bytes);
  writeHeader(buf, at, bytes, header);
  src.copy(buf, at + header, start, end);
  queued(ws, at + header + bytes);
}

/**
 * Room for one frame of at most 125 payload bytes at the end of the socket's turn, for a writer
 * that puts its payload straight into the slab: the payload goes from `ws.turn.end + 2` (after
 * a 2-byte header), then {@link appendShortFrame} with where it ends. The caller checked the
 * socket takes frames (./outbox.ts `takesFrame`).
 */
export function shortFrameRoom(ws: WireSocket, maxPayload: number): Buffer {
  return ws.turn.reserve(2 + maxPayload);
}

/** Completes the frame whose payload was written after {@link shortFrameRoom}, ending at `payloadEnd` (< 126 bytes). */
export function appendShortFrame(ws: WireSocket, payloadEnd: number): void {
  const at = ws.turn.end;
  const buf = ws.turn.buf!;
  buf[at] = 0x81; // FIN + text
  buf[at + 1] = payloadEnd - at - 2;
  queued(ws, payloadEnd);
}

function writeHeader(buf: Buffer, at: number, bytes: number, header: number): void {
  buf[at] = 0x81; // FIN + text
  if (header === 2) buf[at + 1] = bytes;
  else if (header === 4) {
    buf[at + 1] = 126;
    buf.writeUInt16BE(bytes, at + 2);
  } else {
    buf[at + 1] = 127;
    buf.writeUInt32BE(0, at + 2); // frames here are far below 4 GiB
    buf.writeUInt32BE(bytes, at + 6);
  }
}

/** The turn now ends at `end`; the first frame of a turn puts the socket on the turn's list. */
function queued(ws: WireSocket, end: number): void {
  if (ws.turn.queued === 0 && pending.push(ws) === 1) setImmediate(writeTurns);
  ws.turn.end = end;
}

/** End of the turn: every socket's queued frames, one write each. */
function writeTurns(): void {
  for (const ws of pending.splice(0)) writeTurn(ws);
}

/**
 * Hands the socket's queued frames to its stream now (before a control frame, or when the
 * outbox needs to know what the socket holds) — or, while its gate is closed, once the gate
 * releases them. Frames of a socket that is no longer open are dropped, as ws drops a send
 * after close.
 */
export function writeTurn(ws: WireSocket): void {
  const bytes = ws.turn.take();
  if (bytes === undefined) return;
  const gate = ws.gate;
  if (gate === undefined || gate.open) writeBytes(ws, bytes);
  else gate.hold(() => writeHeldBytes(ws, bytes));
}

/**
 * A sync releases every turn held for it at once: a socket's held turns are corked together and
 * leave in one `writev` after the release (not one system call per turn).
 */
function writeHeldBytes(ws: WireSocket, bytes: Buffer): void {
  const socket = (ws as unknown as { _socket?: Duplex })._socket;
  if (socket !== undefined && socket.writableCorked === 0 && !socket.destroyed) {
    socket.cork();
    process.nextTick(uncork, socket);
  }
  writeBytes(ws, bytes);
}

const uncork = (socket: Duplex): void => socket.uncork();

function writeBytes(ws: WireSocket, bytes: Buffer): void {
  const socket = (ws as unknown as { _socket?: Duplex })._socket;
  if (ws.readyState !== WebSocket.OPEN || socket === undefined || socket.destroyed) return;
  socket.write(bytes);
}
