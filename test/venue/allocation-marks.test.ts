import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { liveSlots } from '../../src/venue/order-scans.ts';
import { OrderStore } from '../../src/venue/order-store.ts';

/**
 * A failed command's orders are given back by the store's marks (`markAllocations` at the
 * command's start, `undoAllocations` on failure), not by an undo entry per order: the store is
 * then as a twin's that never ran the command — the same records in use, the same engine ids
 * found, and the next orders get the same slots — whatever mix of freed and fresh slots and
 * scratch records the command used.
 */

type Step = { kind: 'place'; n: number } | { kind: 'end'; pick: number } | { kind: 'failed'; n: number; scratch: boolean };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('place' as const), n: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('end' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('failed' as const), n: fc.integer({ min: 0, max: 5 }), scratch: fc.boolean() }),
);

const time = { nowSec: 1_700_000_000, nowNanos: 5 };

describe('the order store\'s allocation marks', () => {
  it('leave a failed command\'s store as a twin\'s that never ran it: same live records, ids and next slots (300 streams)', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 40 }), (steps) => {
        const store = new OrderStore();
        const twin = new OrderStore();
        let seq = 0;
        let epoch = 1;
        const live: number[] = [];
        const place = (s: OrderStore, id: number) => s.allocate(id, id % 7, 0, 0, 100, 1, time);
        for (const step of steps) {
          if (step.kind === 'place') {
            for (let i = 0; i < step.n; i++) {
              seq++;
              store.markAllocations(++epoch);
              twin.markAllocations(epoch);
              const slot = place(store, seq);
              expect(place(twin, seq)).toBe(slot);
              live.push(seq);
            }
          } else if (step.kind === 'end' && live.length > 0) {
            const id = live.splice(step.pick % live.length, 1)[0]!;
            const slot = store.slotOf(id);
            expect(twin.slotOf(id)).toBe(slot);
            store.free(slot);
            twin.free(slot);
          } else if (step.kind === 'failed') {
            // Only `store` runs the command; its ids are rewound as the command log does.
            store.markAllocations(++epoch);
            for (let i = 0; i < step.n; i++) place(store, seq + 1 + i);
            if (step.scratch) store.scratch(seq + 1 + step.n, 3, 0, 2, 100, 1, time);
            store.undoAllocations();
            store.endScratch();
          }
          expect(liveSlots(store)).toEqual(liveSlots(twin));
          for (const id of live) expect(store.slotOf(id)).toBe(twin.slotOf(id));
          expect(store.slotOf(seq + 1)).toBe(-1);
        }
        // The next orders land where the twin's do.
        for (let i = 1; i <= 6; i++) expect(place(store, seq + i)).toBe(place(twin, seq + i));
        expect(store.slotsEverUsed).toBe(twin.slotsEverUsed);
      }),
      { numRuns: 300, seed: 15 },
    );
  });
});
