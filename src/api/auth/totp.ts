import { createHmac, timingSafeEqual } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Decodes RFC 4648 base32 (case-insensitive, padding and spaces ignored); undefined if invalid. */
export function decodeBase32(text: string): Buffer | undefined {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  if (clean.length === 0) return undefined;
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const v = BASE32.indexOf(ch);
    if (v < 0) return undefined;
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 6238 TOTP code (HMAC-SHA1, 30 s step, 6 digits) for a time in Unix milliseconds. */
export function totpCode(secret: Buffer, timeMs: number, digits = 6, stepSec = 30): string {
  const counter = Math.floor(timeMs / 1000 / stepSec);
  const msg = Buffer.alloc(8);
  msg.writeUInt32BE(Math.floor(counter / 2 ** 32), 0);
  msg.writeUInt32BE(counter >>> 0, 4);
  const mac = createHmac('sha1', secret).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

/** True when `code` is the TOTP of the current step or one step either side (clock drift). */
export function verifyTotp(secret: Buffer, code: string, timeMs: number): boolean {
  return totpStep(secret, code, timeMs) !== undefined;
}

/**
 * The time step (Unix seconds / 30) whose code `code` is, among the current step and one
 * either side (clock drift); undefined when it is none of them. A caller that remembers the
 * last step it accepted per user makes codes single-use (RFC 6238 §5.2).
 */
export function totpStep(secret: Buffer, code: string, timeMs: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  let step: number | undefined;
  for (const drift of [-1, 0, 1]) {
    const atMs = timeMs + drift * 30_000;
    // Check every window without early exit, in constant time per comparison.
    if (timingSafeEqual(Buffer.from(totpCode(secret, atMs)), Buffer.from(code))) step = Math.floor(atMs / 30_000);
  }
  return step;
}
