import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InFlightRing } from '../../src/sim/in-flight-ring.ts';

describe('an in-flight ring', () => {
  it('hands back the messages in sending order, across growth, as a plain queue does', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.constant(-1)), { maxLength: 300 }), (ops) => {
        const ring = new InFlightRing(() => ({ value: -1 }));
        const queue: number[] = [];
        for (const op of ops) {
          if (op >= 0) {
            ring.push().value = op;
            queue.push(op);
          } else if (queue.length > 0) {
            expect(ring.peek().value).toBe(queue[0]);
            ring.drop();
            queue.shift();
          }
          expect(ring.length).toBe(queue.length);
        }
        while (queue.length > 0) {
          expect(ring.peek().value).toBe(queue.shift());
          ring.drop();
        }
      }),
      { numRuns: 300, seed: 0x41f },
    );
  });

  it('reuses its records once dropped (no object per message)', () => {
    const made: object[] = [];
    const ring = new InFlightRing(() => {
      const r = { value: 0 };
      made.push(r);
      return r;
    });
    for (let i = 0; i < 10_000; i++) {
      ring.push().value = i;
      ring.push().value = i;
      ring.drop();
      ring.drop();
    }
    expect(made.length).toBe(8);
  });
});
