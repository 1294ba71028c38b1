import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OrderBook } from '../../src/book/order-book.ts';
import type { BookEvent, PlaceCommand } from '../../src/book/events.ts';
import { ReferenceBook } from './reference-book.ts';
import type { LevelSlots } from '../../src/book/price-levels.ts';

// A level's queue is a chain of 63-entry chunks of one shared array: it takes a chunk when its
// tail fills one, gives a chunk back when its head leaves it, drops canceled entries when
// matching reaches them, is compacted when they outnumber the live ones (giving back the chunks
// it no longer needs), and frees every record left when the level empties. Concentrating the
// orders on two prices makes every one of those happen many times, in every order.

type Step =
  | { op: 'rest'; count: number; qtyLots: number; price: number }
  | { op: 'take'; qtyLots: number }
  | { op: 'cancel'; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({ count: fc.integer({ min: 1, max: 90 }), qtyLots: fc.integer({ min: 1, max: 4 }), price: fc.constantFrom(100, 101) })
      .map((r): Step => ({ op: 'rest', ...r })),
  },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 120 }).map((qtyLots): Step => ({ op: 'take', qtyLots })) },
  { weight: 5, arbitrary: fc.nat().map((pick): Step => ({ op: 'cancel', pick })) },
);

function sell(orderId: number, priceTicks: number, qtyLots: number): PlaceCommand {
  return { orderId, ownerId: 1 + (orderId % 3), side: 'S', priceTicks, qtyLots, tif: 'GTC', postOnly: false };
}

describe('deep queues at one level', () => {
  it('keep time priority through wrap-around, growth, compaction and emptying (against the naive book)', () => {
    let deepest = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 80 }), (steps) => {
        const book = new OrderBook();
        const ref = new ReferenceBook();
        const live: number[] = [];
        let nextId = 1;
        const both = (run: (b: OrderBook | ReferenceBook) => BookEvent[]): void => {
          expect(run(book)).toEqual(run(ref));
        };
        for (const s of steps) {
          if (s.op === 'rest') {
            for (let k = 0; k < s.count; k++) {
              const cmd = sell(nextId, s.price, s.qtyLots);
              live.push(nextId++);
              both((b) => b.place(cmd, []));
            }
          } else if (s.op === 'take') {
            const cmd: PlaceCommand = { orderId: nextId++, ownerId: 9, side: 'B', priceTicks: 101, qtyLots: s.qtyLots, tif: 'IOC', postOnly: false };
            both((b) => b.place(cmd, []));
          } else if (live.length > 0) {
            // Cancels from anywhere in the queue (filled ids miss on both books alike).
            const at = s.pick % live.length;
            const orderId = live[at]!;
            live.splice(at, 1);
            both((b) => b.cancel(orderId, []));
          }
          const l3 = book.l3();
          expect(l3).toEqual(ref.l3());
          for (const level of l3.asks) deepest = Math.max(deepest, level.orders.length);
        }
        expect(book.orderCount).toBe(ref.l3().asks.reduce((n, l) => n + l.orders.length, 0));
      }),
      // Seeded: the same cases every run, so the depth reached below is fixed.
      { numRuns: 120, seed: 0x9e11 },
    );
    // The queues must get deep enough to span several chunks.
    expect(deepest).toBeGreaterThan(3 * 63);
  });

  it('give their chunks back: queues filled and emptied again and again do not grow the shared array', () => {
    const book = new OrderBook();
    const slabLength = (): number => (book as unknown as { levels: LevelSlots }).levels.slab.length;
    let nextId = 1;
    // One round: 500 orders on each of 20 prices (about 160 chunks), a tenth canceled, the rest
    // taken by one IOC order. Matching, compaction and emptied levels each give chunks back.
    const round = (): void => {
      const ids: number[] = [];
      for (let k = 0; k < 500; k++) {
        for (let p = 0; p < 20; p++) {
          ids.push(nextId);
          book.place(sell(nextId++, 100 + p, 1));
        }
      }
      for (let k = 0; k < ids.length; k += 10) book.cancel(ids[k]!);
      const events = book.place({ orderId: nextId++, ownerId: 9, side: 'B', priceTicks: 119, qtyLots: 10_000, tif: 'IOC', postOnly: false });
      expect(events.filter((e) => e.kind === 'trade')).toHaveLength(9_000);
      expect(book.orderCount).toBe(0);
    };
    round();
    const afterOne = slabLength();
    for (let r = 0; r < 20; r++) round();
    expect(slabLength()).toBe(afterOne);
  });
});
