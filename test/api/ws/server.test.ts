import { describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { startFixture, START_SEC } from './helpers.ts';

/** Active TCP handles (servers, sockets) of the process, by kind. */
function tcpHandles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) {
    if (kind.startsWith('TCP')) counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

describe('server', () => {
  it('sends heartbeats in sim time on both websockets, logged in or not', async () => {
    const fx = await startFixture({ heartbeatMs: 50 });
    try {
      const orders = await fx.open('/orders');
      const md = await fx.mdSocket();
      const isBeat = (m: { t?: string }) => m.t === 'h';
      expect(await orders.next(isBeat)).toEqual({ t: 'h', ts: START_SEC, tn: 0 });
      expect(await md.next(isBeat)).toEqual({ t: 'h', ts: START_SEC, tn: 0 });
      fx.exchange.driver.advance(3600.25);
      const later = (m: { t?: string; ts?: number }) => m.t === 'h' && m.ts !== START_SEC;
      expect(await orders.next(later)).toEqual({ t: 'h', ts: START_SEC + 3600, tn: 250_000_000 });
      expect(await md.next(later)).toEqual({ t: 'h', ts: START_SEC + 3600, tn: 250_000_000 });
    } finally {
      await fx.close();
    }
  });

  it('refuses websocket upgrades on other paths with 404', async () => {
    const fx = await startFixture();
    try {
      const status = await new Promise<number | undefined>((resolve) => {
        const ws = new WebSocket(`${fx.server.wsUrl}/ws`);
        ws.on('unexpected-response', (_req, res) => {
          resolve(res.statusCode);
          ws.terminate();
        });
        ws.on('error', () => resolve(undefined));
        ws.on('open', () => resolve(101));
      });
      expect(status).toBe(404);
    } finally {
      await fx.close();
    }
  });

  it('serves url, wsUrl and appUrl on the bound ports, the app on its own port when asked', async () => {
    const fx = await startFixture({ appPort: 0 });
    try {
      expect(fx.server.url).toBe(`http://127.0.0.1:${fx.server.port}`);
      expect(fx.server.wsUrl).toBe(`ws://127.0.0.1:${fx.server.port}`);
      expect(fx.server.appUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(fx.server.appUrl).not.toBe(fx.server.url);
      const status = await new Promise<number | undefined>((resolve) => {
        const ws = new WebSocket(`${fx.server.appUrl.replace('http', 'ws')}/orders`);
        ws.on('unexpected-response', (_req, res) => {
          resolve(res.statusCode);
          ws.terminate();
        });
        ws.on('error', () => resolve(undefined));
        ws.on('open', () => resolve(101));
      });
      expect(status).toBe(404);
    } finally {
      await fx.close();
    }
  });

  it('leaves no intervals, servers or sockets behind after close, and closes client sockets with 1001', async () => {
    await new Promise((resolve) => setTimeout(resolve, 50)); // let earlier tests' sockets finish closing
    const before = tcpHandles();
    const setSpy = vi.spyOn(globalThis, 'setInterval');
    const clearSpy = vi.spyOn(globalThis, 'clearInterval');
    try {
      const fx = await startFixture({ heartbeatMs: 20, exchange: { manual: false } });
      const orders = await fx.orderSocket('alice');
      const md = await fx.mdSocket();
      const created = setSpy.mock.results.map((r) => r.value as unknown);
      expect(created.length).toBeGreaterThanOrEqual(3); // two heartbeats and the clock driver's pacing
      const closed = new Promise<number>((resolve) => orders.ws.once('close', (code) => resolve(code)));
      await fx.server.close();
      expect(await closed).toBe(1001);
      expect(md.isOpen).toBe(false);
      const cleared = new Set(clearSpy.mock.calls.map((c) => c[0] as unknown));
      expect(created.filter((t) => !cleared.has(t))).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const after = tcpHandles();
      for (const kind of Object.keys(after)) expect(after[kind], kind).toBeLessThanOrEqual(before[kind] ?? 0);
      await fx.close(); // idempotent
    } finally {
      setSpy.mockRestore();
      clearSpy.mockRestore();
    }
  });
});
