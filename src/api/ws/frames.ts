import type { RawData } from 'ws';
import { isNestedDeeperThan, MAX_JSON_DEPTH } from '../json-depth.ts';
import { COMMAND_ROLLED_BACK, CommandFailedError } from '../../venue/command-log.ts';
import { JournalStoppedError } from '../journal/output-gate.ts';

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

export { MAX_BUFFERED_BYTES, QUEUE_ABOVE_BYTES, sendText } from './outbox.ts';

/** Turns anything a handler threw into an error code and message (never a stack trace; unexpected errors go to stderr). */
export function errorOf(e: unknown): { code: number; message: string } {
  if (e instanceof WsRequestError) return { code: e.code, message: e.message };
  if (e instanceof CommandFailedError) {
    console.error('websocket command rolled back:', e);
    return { code: 500, message: COMMAND_ROLLED_BACK };
  }
  if (e instanceof JournalStoppedError) return { code: 503, message: e.message }; // said once already; the server is closing
  console.error('websocket request failed:', e);
  return { code: 500, message: 'internal error' };
}
