import { JsonBytes } from './json-bytes.ts';
import { sendBytes } from './outbox.ts';
import type { WireSocket } from './wire-socket.ts';

/**
 * The hot replies of the order socket — `{"rid":N,"res":{"oid":"…"}}` to a place and
 * `{"rid":N,"res":{"cxl_rx":true}}` to a cancel — written as bytes and copied into the socket's
 * frames, with no reply string to build and then encode. Exactly the bytes of
 * `encodeOrderReply` (./wire-json.ts) for an integer rid ≥ 0 and a plain order id
 * (test/api/ws/feed-template.test.ts); anything else is left to it (false).
 */

const scratch = new JsonBytes(256);
const RID = new Uint8Array(Buffer.from('{"rid":', 'latin1'));
const RES_OID = new Uint8Array(Buffer.from(',"res":{"oid":"', 'latin1'));
const OID_END = new Uint8Array(Buffer.from('"}}', 'latin1'));
const RES_CXL = new Uint8Array(Buffer.from(',"res":{"cxl_rx":true}}', 'latin1'));

/** Writes the reply to a place (`oid`) or a cancel (`oid` undefined) after `w.reset()`; false unless rid is a non-negative safe integer and oid plain ASCII. */
export function writeHotReply(w: JsonBytes, rid: number, oid: string | undefined): boolean {
  w.reset();
  if (!(rid >= 0 && Number.isSafeInteger(rid))) return false;
  w.raw(RID);
  w.digits(rid);
  if (oid === undefined) {
    w.raw(RES_CXL);
    return true;
  }
  w.raw(RES_OID);
  if (!w.plain(oid)) return false;
  w.raw(OID_END);
  return true;
}

/** Sends the reply to a place (`oid`) or a cancel (`oid` undefined) if {@link writeHotReply} can write it; else false, nothing sent. */
export function sendHotReply(ws: WireSocket, rid: number, oid: string | undefined): boolean {
  if (!writeHotReply(scratch, rid, oid)) return false;
  sendBytes(ws, scratch.buf, 0, scratch.end);
  return true;
}
