import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { sendText } from '../../../src/api/ws/frames.ts';

describe('sendText', () => {
  let wss: WebSocketServer | undefined;
  afterEach(async () => {
    for (const ws of wss?.clients ?? []) ws.terminate();
    await new Promise<void>((resolve) => (wss === undefined ? resolve() : wss.close(() => resolve())));
    wss = undefined;
  });

  it('delivers strings and encoded bytes sent in one turn as text frames, in order', async () => {
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => wss!.once('listening', () => resolve()));
    const count = 500;
    wss.on('connection', (ws) => {
      // All in one turn: the socket is corked until setImmediate, then written out together.
      for (let i = 0; i < count; i++) sendText(ws, i % 2 === 0 ? `{"n":${i}}` : Buffer.from(`{"n":${i},"é":"ü"}`));
    });
    const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    const got: { n: number; binary: boolean }[] = await new Promise((resolve, reject) => {
      const out: { n: number; binary: boolean }[] = [];
      client.on('error', reject);
      client.on('message', (data, isBinary) => {
        out.push({ n: (JSON.parse(data.toString('utf8')) as { n: number }).n, binary: isBinary });
        if (out.length === count) resolve(out);
      });
    });
    client.close();
    expect(got.map((m) => m.n)).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(got.some((m) => m.binary)).toBe(false);
  });
});
