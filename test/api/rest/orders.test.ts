import { describe, expect, it } from 'vitest';
import { json, order, restFixture } from './fixtures.ts';

describe('order endpoints', () => {
  it('places an order, lists it in REST form, then cancels it, matching the venue at each step', async () => {
    const f = await restFixture();
    const auth = await f.bearer();
    const alice = f.exchange.venue.account('alice')!;

    const placed = await f.post('/orders/insert_order', order({ price: '49000.5', quantity: 3 }), auth);
    expect(placed.status).toBe(200);
    const { order_id } = await json(placed);
    expect(order_id).toMatch(/^O-[0-9A-Z]{26}$/);
    expect(f.exchange.venue.findOpenOrder(alice, order_id)).toBeDefined();
    expect(f.feeds.map((x) => x.feed.t)).toEqual(['n']);

    const listed = await json(await f.post('/orders/get_open_orders', { username: 'alice' }, auth));
    expect(listed).toEqual({
      orders: [
        {
          order_id,
          username: 'alice',
          symbol: 'BTCUSD-PERP',
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
          insert_epoch_seconds: 1_767_225_600,
          insert_epoch_nanos: 0,
        },
      ],
    });

    const canceled = await f.post('/orders/cancel_order', { username: 'alice', order_id }, auth);
    expect(canceled.status).toBe(200);
    expect(await json(canceled)).toEqual({});
    expect(f.exchange.venue.openOrders(alice)).toHaveLength(0);
    expect(f.feeds.at(-1)!.feed).toMatchObject({ t: 'c', xr: 'USER_REQUESTED', o: { oid: order_id, o: 'CANCELED' } });
    expect(await json(await f.post('/orders/get_open_orders', { username: 'alice' }, auth))).toEqual({ orders: [] });
  });

  it('answers 200 with an order id for a business-rule violation, which arrives as a reject feed', async () => {
    const f = await restFixture();
    const res = await f.post('/orders/insert_order', order({ price: '49000.3' }), await f.bearer());
    expect(res.status).toBe(200);
    const { order_id } = await json(res);
    expect(f.feeds).toEqual([{ user: 'alice', feed: expect.objectContaining({ t: 'j', r: 'INVALID_PRICE_INCREMENT', o: expect.objectContaining({ oid: order_id }) }) }]);
    expect(f.exchange.venue.openOrders(f.exchange.venue.account('alice')!)).toHaveLength(0);
  });

  it('refuses a quantity beyond the safe integers with 422 (as the websocket does), never rounding it into an order', async () => {
    const f = await restFixture();
    f.exchange.venue.adjustCash(f.exchange.venue.account('alice')!, 10n ** 40n);
    const res = await f.post('/orders/insert_order', order({ quantity: 1e20 }), await f.bearer());
    expect(res.status).toBe(422);
    expect((await json(res)).detail[0]).toMatchObject({ type: 'int_parsing_size', loc: ['body', 'quantity'] });
    expect(f.feeds).toEqual([]);
  });

  it('answers {} when cancelling another user\'s order, which stays open, with a Cancel Reject feed', async () => {
    const f = await restFixture();
    const { order_id } = await json(await f.post('/orders/insert_order', order({ username: 'bob', side: 'S', price: '51000' }), await f.bearer('bob')));
    const res = await f.post('/orders/cancel_order', { username: 'alice', order_id }, await f.bearer('alice'));
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({});
    expect(f.exchange.venue.findOpenOrder(f.exchange.venue.account('bob')!, order_id)).toBeDefined();
    expect(f.feeds.at(-1)).toEqual({ user: 'alice', feed: expect.objectContaining({ t: 'e', oid: order_id, r: 'UNKNOWN_ORDER' }) });
  });

  it('requires order_id on cancel_order', async () => {
    const f = await restFixture();
    const res = await f.post('/orders/cancel_order', { username: 'alice' }, await f.bearer());
    expect(res.status).toBe(422);
    expect((await json(res)).detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'order_id'] });
  });

  it('cancels every open order with cancel_all and lists the ids', async () => {
    const f = await restFixture();
    const auth = await f.bearer();
    const ids: string[] = [];
    for (const price of ['49000', '48000', '47000']) ids.push((await json(await f.post('/orders/insert_order', order({ price }), auth))).order_id);
    const res = await f.post('/orders/cancel_all', { username: 'alice' }, auth);
    expect(await json(res)).toEqual({ successful_cancellations: ids, failed_cancellations: [] });
    expect(f.exchange.venue.openOrders(f.exchange.venue.account('alice')!)).toHaveLength(0);
    expect(f.feeds.filter((x) => x.feed.t === 'c')).toHaveLength(3);
  });

  it('answers two empty lists from cancel_all when nothing is open', async () => {
    const f = await restFixture();
    expect(await json(await f.post('/orders/cancel_all', { username: 'alice' }, await f.bearer()))).toEqual({
      successful_cancellations: [],
      failed_cancellations: [],
    });
  });

  it('shows fills in the REST form of a partly filled order', async () => {
    const f = await restFixture();
    await f.post('/orders/insert_order', order({ username: 'bob', side: 'S', price: '50000', quantity: 2 }), await f.bearer('bob'));
    const auth = await f.bearer('alice');
    await f.post('/orders/insert_order', order({ price: '50000', quantity: 5 }), auth);
    const [o] = (await json(await f.post('/orders/get_open_orders', { username: 'alice' }, auth))).orders;
    expect(o).toMatchObject({ quantity: 5, traded_quantity: 2, remaining_quantity: 3, average_traded_price: '50000', state: 'PARTIALLY_FILLED' });
  });
});
