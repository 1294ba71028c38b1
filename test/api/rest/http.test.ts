import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Exchange } from '../../../src/api/exchange.ts';
import { createRestApp } from '../../../src/api/rest/app.ts';
import { parseScenario } from '../../../src/scenario/load.ts';
import { ADMIN, json, restFixture } from './fixtures.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('HTTP conventions', () => {
  it('answers an unknown route with 404 {"detail": "Not Found"}', async () => {
    const f = await restFixture();
    const res = await f.get('/orders/nope');
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ detail: 'Not Found' });
  });

  it('answers a known route with the wrong method with 405 and an Allow header', async () => {
    const f = await restFixture();
    const res = await f.get('/orders/insert_order');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await json(res)).toEqual({ detail: 'Method Not Allowed' });
    const put = await f.app.request('/auth/instruments/BTCUSD-PERP', { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers an unexpected failure with a bare 500 and no stack trace', async () => {
    const f = await restFixture();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(f.exchange.venue, 'openOrders').mockImplementation(() => {
      throw new Error('secret internals at venue.ts:42');
    });
    const res = await f.post('/orders/get_open_orders', { username: 'alice' }, await f.bearer());
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ detail: 'Internal Server Error' });
    expect(text).not.toContain('venue.ts');
    expect(console.error).toHaveBeenCalled();
  });

  it('answers 400 for a body that is not UTF-8, as FastAPI does', async () => {
    const f = await restFixture();
    const res = await f.app.request('/auth/get_user_token', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: new Uint8Array([0x7b, 0xff, 0x7d]) });
    expect(res.status).toBe(400);
    expect(typeof (await json(res)).detail).toBe('string');
  });

  it('answers every response as JSON', async () => {
    const f = await restFixture();
    for (const res of [await f.get('/nope'), await f.get('/auth/instruments'), await f.post('/settlement/get_mtm_prices', {})]) {
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });
});

describe('sim time', () => {
  it('brings sim time up to the wall-clock pace before answering', async () => {
    const wall = { ms: 1_000_000 };
    const scenario = parseScenario(JSON.parse(readFileSync(fileURLToPath(new URL('../../../scenarios/empty.json', import.meta.url)), 'utf8')));
    const exchange = await Exchange.create(scenario, { speed: 1, scryptCost: 1024, adminToken: 'test-admin', wallNow: () => wall.ms });
    const app = createRestApp(exchange);
    // Anchor the pace, then stop the background timer so only the handlers move time.
    exchange.driver.start();
    exchange.driver.stop();
    {
      wall.ms += 125_000; // 125 s of wall time at speed 1: two mark records are due
      const res = await app.request('/settlement/get_mtm_prices', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ symbol: 'ETHUSD-PERP', start_time: '2026-01-01', end_time: '2026-01-02' }),
      });
      expect((await json(res)).map((r: { timestamp: string }) => r.timestamp)).toEqual(['2026-01-01T00:01:00.000000000Z', '2026-01-01T00:02:00.000000000Z']);
      expect((await json(await app.request('/admin/clock', { headers: ADMIN }))).now_ns).toBe('1767225725000000000');
    }
  });
});
