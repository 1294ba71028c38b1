import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import * as wsModule from 'ws';
import { WebSocket, WebSocketServer } from 'ws';
import { sendText } from '../../../src/api/ws/frames.ts';
import { appendShortFrame, queueFrame, shortFrameRoom, WireSocket } from '../../../src/api/ws/wire-socket.ts';

/** ws's frame builder (exported by ws, not declared by its types). */
const { Sender } = wsModule as unknown as { Sender: { frame(data: Buffer, options: Record<string, unknown>): Buffer[] } };

/** What ws itself would put on the wire for one unmasked, uncompressed, final text frame. */
const wsFrame = (payload: string | Buffer): Buffer =>
  Buffer.concat(Sender.frame(typeof payload === 'string' ? Buffer.from(payload) : payload, { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false }));

/** A server-side socket with no connection (ws's own signature for it, which its types do not declare). */
const unconnected = (): WireSocket => new (WireSocket as unknown as new (a: null, p: undefined, o: object) => WireSocket)(null, undefined, {});

/** Queued bytes of a socket that is not connected (its turn is never written). */
const queuedOf = (ws: WireSocket): Buffer => ws.turn.buf!.subarray(ws.turn.start, ws.turn.end);

/** Strings and byte payloads whose lengths straddle the 126 and 65,536 header boundaries, in any Unicode. */
const payload = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.integer({ min: 20, max: 140 }).map((n) => 'x'.repeat(n)),
  fc.tuple(fc.integer({ min: 21_800, max: 21_900 }), fc.constantFrom('é', '€', '😀')).map(([n, c]) => c.repeat(n).slice(0, n)),
  fc.integer({ min: 65_530, max: 65_540 }).map((n) => 'y'.repeat(n)),
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
);

describe('WireSocket frames', () => {
  it('are byte for byte the frames ws sends, for any text or bytes, many to a turn', () => {
    fc.assert(
      fc.property(fc.array(payload, { minLength: 1, maxLength: 8 }), (payloads) => {
        const ws = unconnected();
        for (const p of payloads) queueFrame(ws, p);
        expect(queuedOf(ws).equals(Buffer.concat(payloads.map(wsFrame)))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('are the frames ws sends when short payloads are written in place between queued frames', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(payload, fc.string({ maxLength: 125 })), { minLength: 1, maxLength: 6 }), (pairs) => {
        const ws = unconnected();
        for (const [queuedPayload, inPlace] of pairs) {
          queueFrame(ws, queuedPayload);
          const bytes = Buffer.from(inPlace, 'latin1'); // ≤ 125 bytes
          const buf = shortFrameRoom(ws, bytes.length);
          bytes.copy(buf, ws.turn.end + 2);
          appendShortFrame(ws, ws.turn.end + 2 + bytes.length);
        }
        const expected = pairs.flatMap(([q, p]) => [wsFrame(q), wsFrame(Buffer.from(p, 'latin1'))]);
        expect(queuedOf(ws).equals(Buffer.concat(expected))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the turn whole when the slab grows mid-turn', () => {
    const ws = unconnected();
    const texts = Array.from({ length: 2_000 }, (_, i) => `{"n":${i},"pad":"${'z'.repeat(i % 300)}"}`);
    for (const t of texts) queueFrame(ws, t);
    expect(queuedOf(ws).equals(Buffer.concat(texts.map(wsFrame)))).toBe(true);
  });
});

describe('WireSocket on a real connection', () => {
  let wss: WebSocketServer | undefined;
  afterEach(async () => {
    for (const ws of wss?.clients ?? []) ws.terminate();
    await new Promise<void>((resolve) => (wss === undefined ? resolve() : wss.close(() => resolve())));
    wss = undefined;
  });

  const serve = async (onConnection: (ws: WireSocket) => void): Promise<string> => {
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0, WebSocket: WireSocket });
    await new Promise<void>((resolve) => wss!.once('listening', () => resolve()));
    wss.on('connection', (ws) => onConnection(ws as WireSocket));
    return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  };

  it('delivers the frames of a turn in order as text, then the close frame after them', async () => {
    const count = 3_000;
    const url = await serve((ws) => {
      for (let i = 0; i < count; i++) sendText(ws, i % 3 === 0 ? Buffer.from(`{"n":${i},"é":"ü"}`) : `{"n":${i}}`);
      ws.close(4000, 'done'); // same turn: the queued frames must leave before the close frame
    });
    const client = new WebSocket(url);
    const { got, code } = await new Promise<{ got: { n: number; binary: boolean }[]; code: number }>((resolve, reject) => {
      const out: { n: number; binary: boolean }[] = [];
      client.on('error', reject);
      client.on('message', (data: Buffer, isBinary) => out.push({ n: (JSON.parse(data.toString('utf8')) as { n: number }).n, binary: isBinary }));
      client.on('close', (c) => resolve({ got: out, code: c }));
    });
    expect(code).toBe(4000);
    expect(got.map((m) => m.n)).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(got.some((m) => m.binary)).toBe(false);
  });

  it('writes the frames queued before a ping ahead of the ping', async () => {
    let server: WireSocket | undefined;
    const url = await serve((ws) => (server = ws));
    const client = new WebSocket(url);
    await new Promise((resolve) => client.once('open', resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    const seen: string[] = [];
    client.on('message', (d: Buffer) => seen.push(d.toString()));
    const pinged = new Promise<void>((resolve) => client.once('ping', () => (seen.push('ping'), resolve())));
    sendText(server!, '{"before":"ping"}');
    server!.ping(); // ws writes the ping at once; the queued frame must go first
    sendText(server!, '{"after":"ping"}');
    await pinged;
    await new Promise<void>((resolve) => (seen.length === 3 ? resolve() : client.once('message', () => resolve())));
    expect(seen).toEqual(['{"before":"ping"}', 'ping', '{"after":"ping"}']);
  });
});
