import { JsonBytes } from './json-bytes.ts';
import { sendBytes, takesFrame } from './outbox.ts';
import { appendShortFrame, shortFrameRoom, type WireSocket } from './wire-socket.ts';

/**
 * The hot replies of the order socket — `{"rid":N,"res":{"oid":"…"}}` to a place and
 * `{"rid":N,"res":{"cxl_rx":true}}` to a cancel — written as bytes straight into the socket's
 * turn (no reply string to build and encode, no copy), or into a scratch buffer and copied when
 * the socket's output is queued in its outbox. Exactly the bytes of `encodeOrderReply`
 * (./wire-json.ts) for an integer rid ≥ 0 and a plain order id (test/api/ws/feed-template.test.ts);
 * anything else is left to it (false).
 */

const scratch = new JsonBytes(256);
const RID = new Uint8Array(Buffer.from('{"rid":', 'latin1'));
const RES_OID = new Uint8Array(Buffer.from(',"res":{"oid":"', 'latin1'));
const OID_END = new Uint8Array(Buffer.from('"}}', 'latin1'));
const RES_CXL = new Uint8Array(Buffer.from(',"res":{"cxl_rx":true}}', 'latin1'));
/** Longest order id written straight into a frame: the reply stays under 126 bytes (a 2-byte header). */
const MAX_DIRECT_OID = 80;
/** Bytes of a reply besides its order id: keys, punctuation and ≤ 16 digits of rid. */
const REPLY_ROOM = 48;

/**
 * Writes the reply to a place (`oid`) or a cancel (`oid` undefined) into `buf` at `at`, which
 * has room for REPLY_ROOM + oid.length bytes; returns where it ends, or -1 (nothing usable
 * written) unless rid is a non-negative safe integer and oid plain ASCII.
 */
function writeReply(buf: Uint8Array, at: number, rid: number, oid: string | undefined): number {
  if (!(rid >= 0 && Number.isSafeInteger(rid))) return -1;
  at = put(buf, at, RID);
  let count = 1;
  for (let x = rid; x >= 10; x = Math.floor(x / 10)) count++;
  for (let i = at + count - 1, v = rid; i >= at; i--, v = Math.floor(v / 10)) buf[i] = 0x30 + (v % 10);
  at += count;
  if (oid === undefined) return put(buf, at, RES_CXL);
  at = put(buf, at, RES_OID);
  for (let i = 0; i < oid.length; i++) {
    const c = oid.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return -1;
    buf[at++] = c;
  }
  return put(buf, at, OID_END);
}

function put(buf: Uint8Array, at: number, bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) buf[at + i] = bytes[i]!;
  return at + bytes.length;
}

/** The reply to a place (`oid`) or a cancel (`oid` undefined) in `w` (reset first); false, as {@link writeReply}. */
export function writeHotReply(w: JsonBytes, rid: number, oid: string | undefined): boolean {
  w.reset();
  const room = REPLY_ROOM + (oid?.length ?? 0);
  if (w.buf.length < room) w.grow(room);
  const end = writeReply(w.buf, 0, rid, oid);
  if (end < 0) return false;
  w.end = end;
  return true;
}

/** Sends the reply to a place (`oid`) or a cancel (`oid` undefined) if {@link writeReply} can write it; else false, nothing sent. */
export function sendHotReply(ws: WireSocket, rid: number, oid: string | undefined): boolean {
  if ((oid === undefined || oid.length <= MAX_DIRECT_OID) && takesFrame(ws)) {
    const buf = shortFrameRoom(ws, REPLY_ROOM + (oid?.length ?? 0));
    const end = writeReply(buf, ws.turn.end + 2, rid, oid); // the payload after a 2-byte header: the reply is < 126 bytes
    if (end < 0) return false;
    appendShortFrame(ws, end);
    return true;
  }
  if (!writeHotReply(scratch, rid, oid)) return false;
  sendBytes(ws, scratch.buf, 0, scratch.end);
  return true;
}
