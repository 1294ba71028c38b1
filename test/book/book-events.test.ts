import { describe, it, expect } from 'vitest';
import { OrderBook } from '../../src/book/order-book.ts';
import { BookEvents, EV_CANCEL_REJECTED, EV_RESTED, EV_TRADE } from '../../src/book/book-events.ts';
import type { BookEvent, PlaceCommand } from '../../src/book/events.ts';
import { RandomStream } from '../../src/random/random-stream.ts';

function order(orderId: number, ownerId: number, side: 'B' | 'S', priceTicks: number, qtyLots: number, extra: Partial<PlaceCommand> = {}): PlaceCommand {
  return { orderId, ownerId, side, priceTicks, qtyLots, tif: 'GTC', postOnly: false, ...extra };
}

describe('BookEvents', () => {
  it('records the same events as the value API, command after command, without clearing', () => {
    // Two books with self-trade prevention on, fed the same seeded commands: one returns
    // values, the other appends records to one buffer that is never cleared.
    const valueBook = new OrderBook({ selfTrade: 'cancel-resting' });
    const recordBook = new OrderBook({ selfTrade: 'cancel-resting' });
    const records = new BookEvents();
    const values: BookEvent[] = [];
    const rng = new RandomStream('test/book-events');
    for (let id = 1; id <= 3000; id++) {
      const r = rng.next();
      if (r < 0.6) {
        const cmd = order(id, rng.int(1, 3), rng.chance(0.5) ? 'B' : 'S', 1000 + rng.int(-5, 5), rng.int(1, 8), {
          tif: rng.chance(0.15) ? 'IOC' : 'GTC',
          postOnly: rng.chance(0.1),
        });
        valueBook.place(cmd, values);
        recordBook.placeInto(cmd, records);
      } else if (r < 0.85) {
        const target = rng.int(1, id);
        valueBook.cancel(target, values);
        recordBook.cancelInto(target, records);
      } else {
        const target = rng.int(1, id);
        const by = rng.int(1, 6);
        valueBook.reduce(target, by, values);
        recordBook.reduceInto(target, by, records);
      }
    }
    expect(records.length).toBe(values.length);
    expect(records.toArray()).toEqual(values);
    const kinds = new Set(values.map((e) => e.kind));
    // The stream exercised every kind of outcome, so the comparison covered each record layout.
    expect([...kinds].sort()).toEqual(['cancel-rejected', 'canceled', 'expired', 'reduced', 'rejected', 'rested', 'trade']);
    expect(values.some((e) => e.kind === 'canceled' && e.reason === 'SELF_TRADE')).toBe(true);
  });

  it('reads fields through its accessors and reuses its records after clear', () => {
    const book = new OrderBook();
    const events = new BookEvents();
    book.placeInto(order(1, 7, 'S', 100, 5), events);
    expect(events.length).toBe(1);
    expect([events.kind(0), events.orderId(0), events.side(0), events.priceTicks(0), events.qtyLots(0)]).toEqual([EV_RESTED, 1, 'S', 100, 5]);
    const rested = events.at(0);

    events.clear();
    expect(events.length).toBe(0);
    book.placeInto(order(2, 8, 'B', 101, 2), events);
    expect(events.length).toBe(1);
    expect(events.kind(0)).toBe(EV_TRADE);
    expect([events.makerId(0), events.makerOwnerId(0), events.takerId(0), events.takerOwnerId(0), events.side(0)]).toEqual([1, 7, 2, 8, 'B']);
    expect([events.priceTicks(0), events.qtyLots(0), events.makerRemainingLots(0), events.takerRemainingLots(0)]).toEqual([100, 2, 3, 0]);
    // A value taken out earlier is a copy: the record it came from has been overwritten since.
    expect(rested).toEqual({ kind: 'rested', orderId: 1, side: 'S', priceTicks: 100, qtyLots: 5 });

    events.clear();
    book.cancelInto(99, events);
    expect(events.kind(0)).toBe(EV_CANCEL_REJECTED);
    expect(() => events.at(1)).toThrow(RangeError);
  });

  it('grows past its initial size for a sweep with many fills', () => {
    const book = new OrderBook();
    const events = new BookEvents();
    for (let id = 1; id <= 200; id++) book.placeInto(order(id, 1, 'S', 100 + (id % 7), 1), events);
    events.clear();
    book.placeInto(order(1000, 2, 'B', 200, 250, { tif: 'IOC' }), events);
    expect(events.length).toBe(201); // 200 trades, then the expired remainder
    const all = events.toArray();
    expect(all.filter((e) => e.kind === 'trade')).toHaveLength(200);
    expect(all[200]).toEqual({ kind: 'expired', orderId: 1000, qtyLots: 50 });
    expect(book.orderCount).toBe(0);
  });
});
