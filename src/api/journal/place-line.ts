import type { OrderRequest } from '../../venue/venue.ts';

/**
 * The journal line of a `place` entry, built by hand: exactly `JSON.stringify` of the entry
 * `{k: 'place', u, s, d, p, q, tif, po, t}` (test/hardening/journal-line.test.ts), without
 * making the object first. Order entry writes it straight into the journal's group buffer
 * ({@link writePlaceLine}); {@link placeLine} is the same line as a string, for the values
 * that path does not take.
 */

/** One value as JSON (each field of a hand-built line: what `JSON.stringify` of the entry would write). */
const json = JSON.stringify;

/** Texts `JSON.stringify` writes unchanged between quotes. */
const PLAIN_PRICE = /^[0-9.eE+-]*$/;

/** The place line as a string; the part up to the price is kept per user, symbol and side. */
export function placeLine(username: string, req: OrderRequest, tText: string): string {
  const price = req.price;
  const q = req.quantity;
  const tif = req.timeInForce;
  return (
    linePrefix(username, req.symbol, req.side) +
    (PLAIN_PRICE.test(price) ? `"${price}"` : json(price)) +
    `,"q":${typeof q === 'number' && Number.isFinite(q) ? q : json(q)},"tif":${tif === 'GTC' ? '"GTC"' : tif === 'IOC' ? '"IOC"' : json(tif)}` +
    `,"po":${req.postOnly === false ? 'false' : req.postOnly === true ? 'true' : json(req.postOnly)},"t":"${tText}"}` // tText: decimal digits (a bigint's String), nothing to escape
  );
}

/** Longest price the in-place writer takes (longer ones go through {@link placeLine}). */
const MAX_PLAIN_PRICE = 64;
/** `,"q":` and the quantity's digits (a safe integer: a sign and at most 16 digits). */
const Q_BYTES = 5 + 17;
const Q_KEY = Buffer.from(',"q":');
/** `,"tif":…,"po":…,"t":"` by time in force (GTC 0, IOC 1) and post-only (0, 1). */
const MIDDLES = [',"tif":"GTC","po":false,"t":"', ',"tif":"GTC","po":true,"t":"', ',"tif":"IOC","po":false,"t":"', ',"tif":"IOC","po":true,"t":"'].map((m) => Buffer.from(m));
const MAX_MIDDLE_BYTES = Math.max(...MIDDLES.map((m) => m.length));

/**
 * Writes the place line at `at` in `buf` (room for {@link placeLineMaxBytes} bytes) and returns
 * where it ends — or -1 (what it wrote in the room is not part of any line) for values it does not take (a price that would need
 * escaping or is long, a quantity that is not a safe integer, an unknown time in force or
 * post-only flag, an uncached user/symbol/side): the caller then uses {@link placeLine}.
 * `tBytes` is the sim time's decimal digits (ASCII). No string or object is made per order.
 */
export function writePlaceLine(buf: Buffer, at: number, username: string, req: OrderRequest, tBytes: Buffer): number {
  const price = req.price;
  const q = req.quantity;
  const tif = req.timeInForce;
  const po = req.postOnly;
  if (price.length > MAX_PLAIN_PRICE || !Number.isSafeInteger(q) || (tif !== 'GTC' && tif !== 'IOC') || typeof po !== 'boolean') return -1;
  const prefix = prefixBytes(username, req.symbol, req.side);
  if (prefix === undefined) return -1;
  let end = copyBytes(buf, at, prefix);
  buf[end++] = 0x22; // "
  for (let i = 0; i < price.length; i++) {
    const c = price.charCodeAt(i);
    if (!PLAIN_CHAR[c]) return -1; // would need escaping, or is not ASCII (the bytes written so far are not part of the line)
    buf[end++] = c;
  }
  buf[end++] = 0x22;
  end = writeInteger(buf, copyBytes(buf, end, Q_KEY), q);
  end = copyBytes(buf, end, MIDDLES[(tif === 'IOC' ? 2 : 0) + (po ? 1 : 0)]!);
  end = copyBytes(buf, end, tBytes);
  buf[end++] = 0x22;
  buf[end++] = 0x7d; // }
  return end;
}

/** The characters of {@link PLAIN_PRICE}, by char code. */
const PLAIN_CHAR = new Uint8Array(128);
for (const c of '0123456789.eE+-') PLAIN_CHAR[c.charCodeAt(0)] = 1;

/** Copies a short buffer byte by byte: for the tens of bytes here, cheaper than a native `copy` or `set` call. */
function copyBytes(buf: Buffer, at: number, src: Buffer): number {
  for (let i = 0; i < src.length; i++) buf[at + i] = src[i]!;
  return at + src.length;
}

/** Room {@link writePlaceLine} may need (an upper bound, before it knows the user's prefix). */
export function placeLineMaxBytes(username: string, req: OrderRequest, tBytes: Buffer): number {
  // the prefix: its keys (~30 bytes) and JSON-escaped user, symbol and side (at most 6 bytes per UTF-16 unit)
  return 40 + 6 * (username.length + req.symbol.length + req.side.length) + 2 + MAX_PLAIN_PRICE + Q_BYTES + MAX_MIDDLE_BYTES + tBytes.length + 2;
}

/** Writes a safe integer's decimal digits (as `String(n)` would) at `at`; returns where they end. */
function writeInteger(buf: Buffer, at: number, n: number): number {
  if (n < 0) {
    buf[at++] = 0x2d; // -
    n = -n;
  }
  let digits = 1;
  for (let p = 10; p <= n; p *= 10) digits++;
  const end = at + digits;
  for (let i = end - 1; i >= at; i--) {
    buf[i] = 0x30 + (n % 10);
    n = Math.floor(n / 10);
  }
  return end;
}

/** `{"k":"place","u":…,"s":…,"d":…,"p":` by user, then symbol, then side; bounded, since symbols come from clients. */
const prefixes = new Map<string, Map<string, { text: string; bytes: Buffer }[]>>();
const MAX_PREFIXES = 4096;
let prefixCount = 0;

function prefixEntry(username: string, symbol: string, side: string): { text: string; bytes: Buffer } | undefined {
  const sideIndex = side === 'B' ? 0 : side === 'S' ? 1 : -1;
  if (sideIndex < 0) return undefined;
  let byUser = prefixes.get(username);
  const known = byUser?.get(symbol)?.[sideIndex];
  if (known !== undefined) return known;
  if (prefixCount >= MAX_PREFIXES) return undefined;
  if (byUser === undefined) prefixes.set(username, (byUser = new Map()));
  const pair = ['B', 'S'].map((d) => {
    const text = `{"k":"place","u":${json(username)},"s":${json(symbol)},"d":"${d}","p":`;
    return { text, bytes: Buffer.from(text) };
  });
  byUser.set(symbol, pair);
  prefixCount += 2;
  return pair[sideIndex];
}

function prefixBytes(username: string, symbol: string, side: string): Buffer | undefined {
  return prefixEntry(username, symbol, side)?.bytes;
}

function linePrefix(username: string, symbol: string, side: string): string {
  return prefixEntry(username, symbol, side)?.text ?? `{"k":"place","u":${json(username)},"s":${json(symbol)},"d":${json(side)},"p":`;
}
