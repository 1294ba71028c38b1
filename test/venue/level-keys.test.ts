import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LastRowOfKey } from '../../src/venue/level-keys.ts';

describe('the distinct levels of a recorded change (external liquidity)', () => {
  it('LastRowOfKey gives each level once, its last row, in the order of first mention, run after run', () => {
    const run = fc.array(fc.tuple(fc.constantFrom(1, 2), fc.integer({ min: 1, max: 40 })), { maxLength: 200 });
    fc.assert(
      fc.property(fc.array(run, { maxLength: 6 }), (runs) => {
        const last = new LastRowOfKey();
        for (const rows of runs) {
          const side = Uint8Array.from(rows.map(([s]) => s));
          const price = Float64Array.from(rows.map(([, p]) => p));
          const oracle = new Map<number, number>();
          rows.forEach(([s, p], i) => oracle.set(s === 1 ? p : -p, i));
          const out = new Int32Array(rows.length);
          const n = last.collect(side, price, 0, rows.length, out);
          expect([...out.subarray(0, n)]).toEqual([...oracle.values()]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
