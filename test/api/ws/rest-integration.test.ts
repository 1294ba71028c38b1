import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from './helpers.ts';

let fx: Fixture;
beforeEach(async () => {
  fx = await startFixture({ appPort: 0 });
});
afterEach(async () => {
  await fx.close();
});

async function post(url: string, body: unknown, token?: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('server with the REST app', () => {
  it('serves REST tokens that the order and market-data websockets accept', async () => {
    const { status, json } = await post(`${fx.server.url}/auth/get_user_token`, { username: 'bob', password: 'bob-password', expiration_seconds: 60 });
    expect(status).toBe(200);
    const ws = await fx.open('/orders');
    expect((await ws.request({ rid: 1, t: 'a', u: 'bob', k: json.token })).res.li).toBe('bob');
    const md = await fx.open('/md/ws');
    expect((await md.request({ request_id: 1, type: 'login', username: 'bob', token: json.token }, 'request_id')).result).toEqual({ logged_in: 'bob' });
  });

  it('pushes feeds and exactly one book update per subscriber for an order inserted over REST', async () => {
    const orders = await fx.orderSocket('alice');
    const md1 = await fx.mdSocket();
    const md2 = await fx.mdSocket();
    for (const md of [md1, md2]) {
      await md.request({ request_id: 1, type: 'subscribe', symbol: 'BTCUSD-PERP', level: 'LEVEL_2' }, 'request_id');
      await md.next();
      await md.next();
    }
    const body = { username: 'alice', symbol: 'BTCUSD-PERP', price: '49000', quantity: 2, side: 'B', time_in_force: 'GTC', post_only: false };
    const { status, json } = await post(`${fx.server.url}/orders/insert_order`, body, fx.tokens.alice);
    expect(status).toBe(200);
    expect(await orders.next()).toMatchObject({ t: 'n', o: { oid: json.order_id, p: '49000', q: 2 } });
    for (const md of [md1, md2]) {
      expect(await md.next()).toMatchObject({ t: '2', b: [{ p: '49000', q: 2 }], a: [] });
      expect(await md.drain()).toEqual([]);
    }
  });

  it('serves the /api endpoints on appUrl only when an app port is given', async () => {
    const headers = { authorization: `Bearer ${fx.tokens.alice}` };
    const onApp = await fetch(`${fx.server.appUrl}/api/risk-snapshot`, { headers });
    expect(onApp.status).toBe(200);
    expect(Object.keys((await onApp.json()) as object)).toEqual(['risk_snapshot']);
    const onBase = await fetch(`${fx.server.url}/api/risk-snapshot`, { headers });
    expect(onBase.status).toBe(404);
    await onBase.body?.cancel();
  });
});
