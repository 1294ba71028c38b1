import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderBook } from '../../src/book/order-book.ts';
import { TickSize } from '../../src/core/price.ts';
import { CapturedSide } from '../../src/sim/lazy-book-levels.ts';
import { sideTicks } from '../../src/strategy/book-ticks.ts';
import { bookUpdate } from '../../src/venue/wire-forms.ts';
import type { Market } from '../../src/venue/market.ts';

const tick = new TickSize('0.1');

/** A book with one order per (side, price, lots) given; asks are placed above every bid. */
function bookOf(bids: [number, number][], asks: [number, number][]): OrderBook {
  const book = new OrderBook();
  let id = 1;
  for (const [p, q] of bids) book.place({ orderId: id++, ownerId: 1, side: 'B', priceTicks: 1_000 + p, qtyLots: q, tif: 'GTC', postOnly: false }, []);
  for (const [p, q] of asks) book.place({ orderId: id++, ownerId: 1, side: 'S', priceTicks: 5_000 + p, qtyLots: q, tif: 'GTC', postOnly: false }, []);
  return book;
}

/** The eager rendering the websocket sends (every level as text), for the same book. */
function eager(book: OrderBook) {
  const market = { symbol: 'X', book, instrument: { tick } } as unknown as Market;
  return bookUpdate(market, 'LEVEL_2', 0, 0);
}

const sides = fc.tuple(fc.array(fc.tuple(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 1, max: 50 })), { maxLength: 40 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 1, max: 50 })), { maxLength: 40 }));

describe('lazily rendered LEVEL_2 levels', () => {
  it('read as the eager rendering does: JSON, indexing, iteration, map, spread, length', () => {
    fc.assert(
      fc.property(sides, ([bids, asks]) => {
        const book = bookOf(bids, asks);
        const want = eager(book);
        const b = CapturedSide.of(book, 'B').levels(tick);
        const a = CapturedSide.of(book, 'S').levels(tick);
        expect(JSON.stringify([b, a])).toBe(JSON.stringify([want.b, want.a]));
        expect(Array.isArray(b)).toBe(true);
        expect(b.length).toBe(want.b.length);
        expect([...a]).toEqual(want.a);
        expect(b.map((l) => l.p)).toEqual(want.b.map((l) => l.p));
        for (let i = 0; i < want.a.length; i++) expect(a[i]).toEqual(want.a[i]);
        expect(b[want.b.length]).toBeUndefined();
        expect(0 in b).toBe(want.b.length > 0);
      }),
      { numRuns: 200 },
    );
  });

  it('renders only the levels read, once each, into the same object on every read', () => {
    const book = bookOf(
      Array.from({ length: 2_000 }, (_, i): [number, number] => [i, 1 + (i % 7)]),
      [[0, 3]],
    );
    let rendered = 0;
    const counting = Object.assign(Object.create(tick) as TickSize, {
      toPrice: (t: number) => {
        rendered++;
        return tick.toPrice(t);
      },
    });
    const b = CapturedSide.of(book, 'B').levels(counting);
    expect(b.length).toBe(2_000);
    expect(rendered).toBe(0);
    expect(b[0]).toBe(b[0]);
    expect(b[0]).toEqual({ p: tick.toPrice(2_999), q: 1 + (1_999 % 7) });
    for (const level of b) if (level.q > 0) break; // the strategy's touch loop
    expect(b.find((l) => l.q === 3)!.p).toBe(tick.toPrice(2_997));
    expect(rendered).toBe(3);
    JSON.stringify(b);
    expect(rendered).toBe(2_000);
  });

  it('turns into a plain array on a write: sort, push and assignment see every level', () => {
    fc.assert(
      fc.property(sides, ([bids, asks]) => {
        const book = bookOf(bids, asks);
        const want = eager(book);
        const b = CapturedSide.of(book, 'B').levels(tick);
        b.sort((x, y) => x.q - y.q || Number(x.p) - Number(y.p));
        expect(b).toEqual([...want.b].sort((x, y) => x.q - y.q || Number(x.p) - Number(y.p)));
        const a = CapturedSide.of(book, 'S').levels(tick);
        a.push({ p: '1', q: 1 });
        a[0] = { p: '2', q: 2 };
        expect(a.length).toBe(want.a.length + 1);
        expect(a.slice(1, -1)).toEqual(want.a.slice(1));
        expect(Object.keys(a).length).toBe(want.a.length + 1);
      }),
      { numRuns: 100 },
    );
  });

  it('compares captures by prices and quantities: equal books are equal, any change is not', () => {
    fc.assert(
      fc.property(sides, fc.nat(), ([bids], k) => {
        const one = CapturedSide.of(bookOf(bids, []), 'B');
        expect(one.equals(CapturedSide.of(bookOf(bids, []), 'B'))).toBe(true);
        if (bids.length === 0) return;
        const changed = bids.map(([p, q], i): [number, number] => (i === k % bids.length ? [p, q + 1] : [p, q]));
        expect(one.equals(CapturedSide.of(bookOf(changed, []), 'B'))).toBe(false);
        expect(one.equals(CapturedSide.of(bookOf([...bids, [501, 1]], []), 'B'))).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('offer their prices in ticks and quantities in lots, the same levels the text lists, without rendering any', () => {
    fc.assert(
      fc.property(sides, ([bids, asks]) => {
        const book = bookOf(bids, asks);
        const want = eager(book);
        for (const [side, levels] of [['B', want.b], ['S', want.a]] as const) {
          const view = CapturedSide.of(book, side).levels(tick);
          const ticks = sideTicks(view)!;
          expect(ticks.length).toBe(levels.length);
          expect(Array.from({ length: ticks.length }, (_, i) => [ticks.priceTicks[i], ticks.qtyLots[i]])).toEqual(levels.map((l) => [tick.toTicks(l.p), l.q]));
          expect(JSON.stringify(view)).toBe(JSON.stringify(levels)); // the symbol key is not part of the wire form
        }
      }),
      { numRuns: 200 },
    );
  });

  it('offer the same ticks whether the side is among the last few made or long evicted from them, and none once written to', () => {
    // sideTicks finds the sides made last by identity (book-ticks.ts), older ones through the
    // proxy's key: both must give the capture, and nothing after a write.
    fc.assert(
      fc.property(fc.array(sides, { minLength: 1, maxLength: 80 }), fc.array(fc.boolean(), { minLength: 80, maxLength: 80 }), (books, writes) => {
        const made = books.map(([bids]) => {
          const capture = CapturedSide.of(bookOf(bids, []), 'B');
          return { capture, view: capture.levels(tick) };
        });
        made.forEach(({ view }, i) => {
          if (writes[i]) view.push({ p: '1', q: 1 });
        });
        // Newest first, then oldest first: each path is taken before and after the other.
        for (const i of [...made.keys()].reverse().concat([...made.keys()])) {
          const { capture, view } = made[i]!;
          const ticks = sideTicks(view);
          if (writes[i]) expect(ticks).toBeUndefined();
          else expect(ticks).toBe(capture);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('stop offering ticks once written to, and a plain array never offers them', () => {
    const book = bookOf([[1, 2], [3, 4]], [[0, 1]]);
    const view = CapturedSide.of(book, 'B').levels(tick);
    expect(sideTicks(view)).toBeDefined();
    view.reverse();
    expect(sideTicks(view)).toBeUndefined();
    expect(sideTicks(eager(book).b)).toBeUndefined();
  });
});
