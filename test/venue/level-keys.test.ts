import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ABSENT, LastRowOfKey, LevelKeyMap } from '../../src/venue/level-keys.ts';

describe('level key tables (external liquidity)', () => {
  it('a LevelKeyMap answers as a Map under any mix of sets, deletes and clears', () => {
    const op = fc.oneof(
      { weight: 5, arbitrary: fc.tuple(fc.constant('set' as const), fc.integer({ min: -300, max: 300 }), fc.nat(1e9)) },
      { weight: 4, arbitrary: fc.tuple(fc.constant('delete' as const), fc.integer({ min: -300, max: 300 }), fc.constant(0)) },
      { weight: 1, arbitrary: fc.tuple(fc.constant('clear' as const), fc.constant(0), fc.constant(0)) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), fc.constantFrom(1, 2 ** 31, 2 ** 40), (ops, scale) => {
        const table = new LevelKeyMap();
        const oracle = new Map<number, number>();
        for (const [kind, k, v] of ops) {
          const key = k * scale; // int32 keys, and keys beyond int32
          if (kind === 'set') (table.set(key, v), oracle.set(key, v));
          else if (kind === 'delete') (table.delete(key), oracle.delete(key));
          else (table.clear(), oracle.clear());
          expect(table.size).toBe(oracle.size);
        }
        for (let k = -300; k <= 300; k++) expect(table.get(k * scale)).toBe(oracle.get(k * scale) ?? ABSENT);
        expect(table.keyList().sort((a, b) => a - b)).toEqual([...oracle.keys()].sort((a, b) => a - b));
        expect(table.values().sort((a, b) => a - b)).toEqual([...oracle.values()].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });

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
