import { describe, it, expect } from 'vitest';
import { toRestOrder } from '../../src/venue/wire-forms.ts';
import { T0_SEC, at, makeVenue, place } from './fixtures.ts';

describe('open orders, cancel all and the REST form', () => {
  it('lists open orders oldest first and cancel_all cancels them in that order, leaving none', () => {
    const { venue, clock, feeds, user } = makeVenue();
    const alice = user('alice');
    const ids: string[] = [];
    for (const [side, price] of [['B', '49000'], ['S', '51000'], ['B', '48000.5'], ['S', '52000']] as const) {
      ids.push(place(venue, alice, side, price, 1).id);
      clock.runUntil(clock.nowNs + 1_000n);
    }
    expect(venue.openOrders(alice).map((o) => o.id)).toEqual(ids);
    venue.cancelOrder(alice, ids[1]!);
    expect(venue.openOrders(alice).map((o) => o.id)).toEqual([ids[0], ids[2], ids[3]]);
    feeds.clear();

    const result = venue.cancelAll(alice);

    expect(result).toEqual({ successful: [ids[0], ids[2], ids[3]], failed: [] });
    expect(feeds.of(alice).map((f) => `${f.t}:${f.o?.oid}:${f.xr}`)).toEqual(
      [ids[0], ids[2], ids[3]].map((id) => `c:${id}:USER_REQUESTED`),
    );
    expect(venue.openOrders(alice)).toEqual([]);
    expect(alice.openOrdersIm).toBe(0n);
    expect(venue.market('BTCUSD-PERP')!.book.orderCount).toBe(0);
    expect(venue.cancelAll(alice)).toEqual({ successful: [], failed: [] });
  });

  it('shows a partly filled order in REST form with every documented field, typed as the document says', () => {
    const { venue, clock, user } = makeVenue();
    const maker = user('maker');
    const alice = user('alice');
    place(venue, maker, 'S', '50000', 1);
    place(venue, maker, 'S', '50010', 3);
    clock.runUntil(at(1) + 234_567_891n);

    // Buys 1 @ 50000 and 3 @ 50010, then rests 1 @ 50020.
    const order = place(venue, alice, 'B', '50020.0', 5);
    const [open] = venue.openOrders(alice);
    expect(open).toBe(order);
    const rest = toRestOrder(order);

    expect(Object.keys(rest).sort()).toEqual([
      'average_traded_price',
      'insert_epoch_nanos',
      'insert_epoch_seconds',
      'insert_time',
      'is_liquidation',
      'order_id',
      'price',
      'quantity',
      'remaining_quantity',
      'side',
      'state',
      'symbol',
      'time_in_force',
      'traded_quantity',
      'username',
    ]);
    expect(rest).toEqual({
      order_id: order.id,
      username: 'alice',
      symbol: 'BTCUSD-PERP',
      price: '50020',
      quantity: 5,
      traded_quantity: 4,
      average_traded_price: '50007.5', // (50000 + 3 × 50010) / 4
      remaining_quantity: 1,
      state: 'PARTIALLY_FILLED',
      side: 'B',
      time_in_force: 'GTC',
      is_liquidation: false,
      insert_time: '2024-01-01T00:00:01.234567891Z',
      insert_epoch_seconds: T0_SEC + 1,
      insert_epoch_nanos: 234_567_891,
    });
    for (const key of ['quantity', 'traded_quantity', 'remaining_quantity', 'insert_epoch_seconds', 'insert_epoch_nanos'] as const) {
      expect(Number.isInteger(rest[key]), key).toBe(true);
    }
    expect(rest.insert_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/);
  });

  it('shows average_traded_price 0 before any fill and keeps the REST form in step with the websocket form', () => {
    const { venue, feeds, user } = makeVenue();
    const alice = user('alice');
    const order = place(venue, alice, 'S', '50500', 2, { tif: 'GTC' });
    const rest = toRestOrder(order);
    const ws = feeds.of(alice)[0]!.o!;

    expect(rest.average_traded_price).toBe('0');
    expect([rest.order_id, rest.username, rest.symbol, rest.price, rest.quantity, rest.traded_quantity]).toEqual([ws.oid, ws.u, ws.s, ws.p, ws.q, ws.xq]);
    expect([rest.remaining_quantity, rest.state, rest.side, rest.time_in_force, rest.is_liquidation]).toEqual([ws.rq, ws.o, ws.d, ws.tif, ws.liq]);
    expect([rest.insert_epoch_seconds, rest.insert_epoch_nanos]).toEqual([ws.ts, ws.tn]);
  });
});
