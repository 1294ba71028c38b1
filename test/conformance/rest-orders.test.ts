import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BTC,
  expect422,
  expectDetail,
  expectShape,
  insertOrder,
  ORDER_ID,
  REST_ORDER,
  START_SEC,
  startConformance,
  type Conformance,
} from './harness.ts';

/** The four order endpoints of the document (REST), their 200 shapes and every 422 rule. */

let c: Conformance;
let alice: Record<string, string>;
let bob: Record<string, string>;
beforeAll(async () => {
  c = await startConformance();
  alice = await c.bearer('alice');
  bob = await c.bearer('bob');
});
afterAll(() => c.close());

async function insert(overrides: Record<string, unknown> = {}, headers = alice): Promise<string> {
  const res = await c.post('/orders/insert_order', insertOrder(overrides), headers);
  expect(res.status).toBe(200);
  return (await res.json()).order_id;
}
async function openOrders(user = 'alice', headers = alice): Promise<Record<string, unknown>[]> {
  const res = await c.post('/orders/get_open_orders', { username: user }, headers);
  expect(res.status).toBe(200);
  return (await res.json()).orders;
}
async function cancelAll(user: string, headers: Record<string, string>) {
  const res = await c.post('/orders/cancel_all', { username: user }, headers);
  expect(res.status).toBe(200);
  return res.json();
}

describe('POST /orders/insert_order', () => {
  it('answers 200 with exactly order_id, a string (O- + 26 ULID-style characters)', async () => {
    const res = await c.post('/orders/insert_order', insertOrder(), alice);
    expect(res.status).toBe(200);
    const body = await res.json();
    expectShape(body, { order_id: 'string' });
    expect(body.order_id).toMatch(ORDER_ID);
    await cancelAll('alice', alice);
  });

  it('requires every field: username, symbol, price, quantity, side, time_in_force, post_only (422 missing)', async () => {
    await expect422(await c.post('/orders/insert_order', {}, alice), [
      [['body', 'username'], 'missing'],
      [['body', 'symbol'], 'missing'],
      [['body', 'price'], 'missing'],
      [['body', 'quantity'], 'missing'],
      [['body', 'side'], 'missing'],
      [['body', 'time_in_force'], 'missing'],
      [['body', 'post_only'], 'missing'],
    ]);
  });

  it('checks username length 1 to 50 and pattern ^[-A-Za-z0-9_@.+]+$', async () => {
    await expect422(await c.post('/orders/insert_order', insertOrder({ username: '' }), alice), [[['body', 'username'], 'string_too_short']]);
    await expect422(await c.post('/orders/insert_order', insertOrder({ username: 'x'.repeat(51) }), alice), [[['body', 'username'], 'string_too_long']]);
    await expect422(await c.post('/orders/insert_order', insertOrder({ username: 'alice!' }), alice), [[['body', 'username'], 'string_pattern_mismatch']]);
  });

  it('checks symbol: a string of length 1 to 20 matching ^[-A-Z0-9]+$', async () => {
    await expect422(await c.post('/orders/insert_order', insertOrder({ symbol: 5 }), alice), [[['body', 'symbol'], 'string_type']]);
    await expect422(await c.post('/orders/insert_order', insertOrder({ symbol: '' }), alice), [[['body', 'symbol'], 'string_too_short']]);
    await expect422(await c.post('/orders/insert_order', insertOrder({ symbol: 'A'.repeat(21) }), alice), [[['body', 'symbol'], 'string_too_long']]);
    const [issue] = await expect422(await c.post('/orders/insert_order', insertOrder({ symbol: 'btcusd-perp' }), alice), [[['body', 'symbol'], 'string_pattern_mismatch']]);
    expect(issue!.ctx).toEqual({ pattern: '^[-A-Z0-9]+$' });
  });

  it('checks price: a string of length 1 to 10 matching ^\\d+\\.?\\d*$', async () => {
    await expect422(await c.post('/orders/insert_order', insertOrder({ price: 49000 }), alice), [[['body', 'price'], 'string_type']]);
    await expect422(await c.post('/orders/insert_order', insertOrder({ price: '' }), alice), [[['body', 'price'], 'string_too_short']]);
    await expect422(await c.post('/orders/insert_order', insertOrder({ price: '49000.00001' }), alice), [[['body', 'price'], 'string_too_long']]);
    for (const price of ['-1', '4.9e4', '.5', ' 49000']) {
      await expect422(await c.post('/orders/insert_order', insertOrder({ price }), alice), [[['body', 'price'], 'string_pattern_mismatch']]);
    }
  });

  it('checks quantity: an integer', async () => {
    await expect422(await c.post('/orders/insert_order', insertOrder({ quantity: 'one' }), alice), [[['body', 'quantity'], 'int_parsing']]);
    await expect422(await c.post('/orders/insert_order', insertOrder({ quantity: 1.5 }), alice), [[['body', 'quantity'], 'int_from_float']]);
    await expect422(await c.post('/orders/insert_order', insertOrder({ quantity: [1] }), alice), [[['body', 'quantity'], 'int_type']]);
    // An integer a JS number cannot hold exactly is refused, never rounded into the order.
    await expect422(await c.post('/orders/insert_order', insertOrder({ quantity: '100000000000000000000000' }), alice), [[['body', 'quantity'], 'int_parsing_size']]);
    await expect422(await c.post('/orders/insert_order', insertOrder({ quantity: 1e20 }), alice), [[['body', 'quantity'], 'int_parsing_size']]);
  });

  it('checks side (B or S), time_in_force (GTC or IOC) and post_only (boolean)', async () => {
    const detail = await expect422(await c.post('/orders/insert_order', insertOrder({ side: 'BUY', time_in_force: 'UNDEFINED', post_only: 'maybe' }), alice), [
      [['body', 'side'], 'enum'],
      [['body', 'time_in_force'], 'enum'],
      [['body', 'post_only'], 'bool_parsing'],
    ]);
    expect(detail[0]!.ctx).toEqual({ expected: "'B' or 'S'" });
    expect(detail[1]!.ctx).toEqual({ expected: "'GTC' or 'IOC'" });
    await expect422(await c.post('/orders/insert_order', insertOrder({ post_only: null }), alice), [[['body', 'post_only'], 'bool_type']]);
  });

  it('answers business-rule violations with 200 and an order id (the rejection is a feed, decisions.md)', async () => {
    for (const overrides of [{ symbol: 'XYZUSD-PERP' }, { quantity: 0 }, { price: '49000.3' }]) {
      const res = await c.post('/orders/insert_order', insertOrder(overrides), alice);
      expect(res.status).toBe(200);
      expect((await res.json()).order_id).toMatch(ORDER_ID);
    }
    expect(await openOrders()).toEqual([]);
  });

  it('answers a username that is not the token\'s user with 403', async () => {
    await expectDetail(await c.post('/orders/insert_order', insertOrder({ username: 'bob' }), alice), 403);
  });
});

describe('POST /orders/get_open_orders', () => {
  it('answers exactly orders: an array of Order with every field of the order table and its type', async () => {
    const id = await insert({ price: '49000.5', quantity: 3, side: 'B' });
    const res = await c.post('/orders/get_open_orders', { username: 'alice' }, alice);
    expect(res.status).toBe(200);
    const body = await res.json();
    expectShape(body, { orders: 'array' });
    expect(body.orders).toHaveLength(1);
    const order = body.orders[0];
    expectShape(order, REST_ORDER);
    expect(order).toMatchObject({
      order_id: id,
      username: 'alice',
      symbol: BTC,
      price: '49000.5',
      quantity: 3,
      traded_quantity: 0,
      average_traded_price: '0',
      remaining_quantity: 3,
      state: 'NEW',
      side: 'B',
      time_in_force: 'GTC',
      is_liquidation: false,
      insert_time: '2026-01-01T00:00:00.000000000Z',
      insert_epoch_seconds: START_SEC,
      insert_epoch_nanos: 0,
    });
    await cancelAll('alice', alice);
  });

  it('shows a partly filled order as PARTIALLY_FILLED with traded_quantity, average_traded_price and remaining_quantity', async () => {
    const id = await insert({ side: 'S', price: '50100', quantity: 5 });
    await insert({ username: 'bob', side: 'B', price: '50100', quantity: 2, time_in_force: 'IOC' }, bob);
    const [order] = await openOrders();
    expectShape(order, REST_ORDER);
    expect(order).toMatchObject({ order_id: id, state: 'PARTIALLY_FILLED', traded_quantity: 2, remaining_quantity: 3, average_traded_price: '50100' });
    await cancelAll('alice', alice);
  });

  it('requires username (422) and answers another user\'s name with 403', async () => {
    await expect422(await c.post('/orders/get_open_orders', {}, alice), [[['body', 'username'], 'missing']]);
    await expectDetail(await c.post('/orders/get_open_orders', { username: 'bob' }, alice), 403);
  });
});

describe('POST /orders/cancel_order', () => {
  it('answers 200 with an empty JSON object (CancelOrderResponse) and the order leaves the open orders', async () => {
    const id = await insert();
    const res = await c.post('/orders/cancel_order', { username: 'alice', order_id: id }, alice);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect(await openOrders()).toEqual([]);
  });

  it('answers {} for an unknown order too (the outcome is a Cancel Reject feed)', async () => {
    const res = await c.post('/orders/cancel_order', { username: 'alice', order_id: 'O-00000000000000000000000000' }, alice);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
  });

  it('does not cancel another user\'s order', async () => {
    const id = await insert({ username: 'bob' }, bob);
    expect((await c.post('/orders/cancel_order', { username: 'alice', order_id: id }, alice)).status).toBe(200);
    expect((await openOrders('bob', bob)).map((o) => o.order_id)).toEqual([id]);
    await cancelAll('bob', bob);
  });

  it('requires username and order_id, a string (422)', async () => {
    await expect422(await c.post('/orders/cancel_order', {}, alice), [
      [['body', 'username'], 'missing'],
      [['body', 'order_id'], 'missing'],
    ]);
    await expect422(await c.post('/orders/cancel_order', { username: 'alice', order_id: 12 }, alice), [[['body', 'order_id'], 'string_type']]);
  });
});

describe('POST /orders/cancel_all', () => {
  it('answers successful_cancellations (the canceled ids, oldest first) and failed_cancellations (array of string)', async () => {
    const ids = [await insert({ price: '49000' }), await insert({ price: '48000' }), await insert({ side: 'S', price: '52000' })];
    const body = await cancelAll('alice', alice);
    expectShape(body, { successful_cancellations: 'array', failed_cancellations: 'array' });
    expect(body.successful_cancellations).toEqual(ids);
    expect(body.failed_cancellations).toEqual([]);
    expect(await openOrders()).toEqual([]);
  });

  it('answers two empty lists when nothing is open', async () => {
    expect(await cancelAll('alice', alice)).toEqual({ successful_cancellations: [], failed_cancellations: [] });
  });

  it('requires username (422) and answers another user\'s name with 403', async () => {
    await expect422(await c.post('/orders/cancel_all', { username: 5 }, alice), [[['body', 'username'], 'string_type']]);
    await expectDetail(await c.post('/orders/cancel_all', { username: 'bob' }, alice), 403);
  });
});

describe('request size', () => {
  /** POSTs `body` over a real socket, declared by Content-Length or streamed chunked. */
  async function rawPost(path: string, body: string, chunked: boolean): Promise<{ status: number; body: string }> {
    const { request } = await import('node:http');
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...alice, 'Content-Type': 'application/json' };
      if (!chunked) headers['Content-Length'] = String(Buffer.byteLength(body));
      const req = request(c.server.url + path, { method: 'POST', headers }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      // Chunked: several writes, so no length is known up front.
      for (let i = 0; i < body.length; i += 16_384) req.write(body.slice(i, i + 16_384));
      req.end();
    });
  }

  it('refuses a body over 64 KiB with 413 {"detail"}, whether declared by Content-Length or sent chunked', async () => {
    const big = JSON.stringify(insertOrder({ pad: 'x'.repeat(70_000) }));
    for (const chunked of [false, true]) {
      const res = await rawPost('/orders/insert_order', big, chunked);
      expect(res.status, chunked ? 'chunked' : 'content-length').toBe(413);
      expect(JSON.parse(res.body)).toEqual({ detail: 'Request body too large' });
    }
    const open = await c.post('/orders/get_open_orders', { username: 'alice' }, alice);
    expect(open.status).toBe(200);
  });

  it('accepts a chunked body within the limit', async () => {
    const res = await rawPost('/orders/insert_order', JSON.stringify(insertOrder({ price: '40000' })), true);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toHaveProperty('order_id');
  });
});
