import type { Duplex } from 'node:stream';
import { WebSocket, type RawData } from 'ws';
import { isNestedDeeperThan, MAX_JSON_DEPTH } from '../json-depth.ts';

/**
 * A request the socket refuses with an error envelope (`err` on the order socket, `error` on
 * the market-data socket). Codes follow decisions.md: 400 bad request, 401 not logged in or bad
 * token, 404 unknown symbol / subscription, 409 already logged in / subscribed.
 */
export class WsRequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A request frame: a JSON object. */
export type Frame = Record<string, unknown>;

/**
 * Unsent data above which a socket's requests stop being read until the data has been written
 * out: a client that pipelines thousands of orders is slowed to the pace it reads its answers,
 * instead of making the server buffer them.
 */
export const PAUSE_BUFFERED_BYTES = 1024 * 1024;

/**
 * Unsent data above which a socket is dropped as a slow consumer. Reading is paused long before
 * this, so only pushed output (feeds of other users' actions, market data, heartbeats) to a
 * client that stopped reading gets here; without a bound it would be buffered forever.
 */
export const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

/** Largest request frame accepted (requests are small; this bounds what a client can make us parse). */
export const MAX_REQUEST_BYTES = 64 * 1024;

/** Why a frame was refused before dispatch (sent with code 400 and a null request id). */
export const NOT_AN_OBJECT = 'a request must be a JSON object';
export const TOO_DEEP = `a request must not nest deeper than ${MAX_JSON_DEPTH} levels`;

/**
 * The frame as a JSON object, or the reason it is refused: not JSON, not an object, or nested
 * deeper than {@link MAX_JSON_DEPTH} (which nothing valid is, and which would overflow the
 * stack when echoed).
 */
export function readFrame(data: RawData): { frame: Frame } | { refused: string } {
  const frame = parseFrame(data);
  if (frame === undefined) return { refused: NOT_AN_OBJECT };
  return isNestedDeeperThan(frame) ? { refused: TOO_DEEP } : { frame };
}

/** The frame as a JSON object, or undefined when it is not JSON or not an object. */
export function parseFrame(data: RawData): Frame | undefined {
  const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Frame) : undefined;
}

/**
 * The request id of a frame under `key`: an integer is echoed; a missing id or one of another
 * type is a 400 (the error envelope then echoes the id when it is a string or number, else null,
 * so a client can still correlate it).
 */
export function requestIdOf(frame: Frame, key: string): { id: number | string | null; error?: WsRequestError } {
  const raw = frame[key];
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return { id: raw };
  const id = typeof raw === 'string' || (typeof raw === 'number' && Number.isFinite(raw)) ? raw : null;
  return { id, error: new WsRequestError(400, raw === undefined ? `${key} is required` : `${key} must be an integer`) };
}

/**
 * Sends a text frame if the socket is open, with backpressure: past
 * {@link PAUSE_BUFFERED_BYTES} of unsent data the socket's reading pauses until this frame is
 * written out; past {@link MAX_BUFFERED_BYTES} the socket is terminated (a client that does not read).
 *
 * `text` may be the UTF-8 bytes of the text (a message fanned out to many sockets is encoded
 * once). Frames sent to a socket in one event-loop turn are written out together (see
 * {@link corkUntilImmediate}).
 */
export function sendText(ws: WebSocket, text: string | Buffer): void {
  if (ws.readyState !== WebSocket.OPEN) return;
  const buffered = ws.bufferedAmount;
  if (buffered > MAX_BUFFERED_BYTES) {
    console.warn(`websocket dropped: more than ${MAX_BUFFERED_BYTES} bytes unread by the client`);
    ws.terminate();
    return;
  }
  corkUntilImmediate(ws);
  if (buffered > PAUSE_BUFFERED_BYTES && !ws.isPaused) {
    ws.pause();
    ws.send(text, TEXT_FRAME, () => ws.resume());
  } else {
    ws.send(text, TEXT_FRAME);
  }
}

/** Options of every frame we send: text (also when given bytes), never compressed. */
const TEXT_FRAME = { binary: false, compress: false } as const;

/** Sockets corked in this event-loop turn, uncorked together in one setImmediate. */
const corked: Duplex[] = [];

/**
 * Corks the socket under `ws` until the end of this event-loop turn. Without it every frame is
 * its own `writev` system call (~75% of the server's time under market-data fan-out); corked,
 * the frames a socket gets in one turn (replies, feeds, stats, book updates) go out in one.
 */
function corkUntilImmediate(ws: WebSocket): void {
  // `_socket` is ws's net.Socket; it has no public accessor.
  const socket = (ws as unknown as { _socket?: Duplex })._socket;
  if (socket === undefined || socket.writableCorked > 0) return;
  socket.cork();
  if (corked.push(socket) === 1) setImmediate(uncorkAll);
}

function uncorkAll(): void {
  for (const socket of corked.splice(0)) if (!socket.destroyed) socket.uncork();
}

/** Turns anything a handler threw into an error code and message (never a stack trace; unexpected errors go to stderr). */
export function errorOf(e: unknown): { code: number; message: string } {
  if (e instanceof WsRequestError) return { code: e.code, message: e.message };
  console.error('websocket request failed:', e);
  return { code: 500, message: 'internal error' };
}
