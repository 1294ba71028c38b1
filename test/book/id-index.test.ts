import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { IdIndex } from '../../src/book/id-index.ts';

/** One operation on the index: ids from a few windows, so runs collide, wrap and grow the table. */
type Op = { op: 'add' | 'insert' | 'take' | 'get' | 'absent'; id: number };

const id = fc.oneof(
  // Sequential ids as a venue hands them out, in a window that slides past the table size.
  fc.integer({ min: 0, max: 5_000 }),
  // Ids a table size apart (same home cell), and negative, wide and fractional ids.
  fc.integer({ min: 0, max: 40 }).map((k) => k * 1024 + 7),
  fc.integer({ min: -3_000, max: -1 }),
  fc.constantFrom(2 ** 31, -(2 ** 31), 2 ** 40 + 1, 0.5, -0),
);
const op: fc.Arbitrary<Op> = fc.record({ op: fc.constantFrom('add', 'insert', 'take', 'get', 'absent'), id });

describe('IdIndex', () => {
  it('answers every lookup as a Map does, through growing, shrinking and colliding runs', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 200, maxLength: 3_000, size: 'max' }), (ops) => {
        const index = new IdIndex();
        const map = new Map<number, number>();
        let next = 1;
        for (const { op: kind, id: k } of ops) {
          if (kind === 'add') {
            // `add` requires an absent id, as the book guarantees.
            if (map.has(k)) continue;
            expect(index.absent(k)).toBe(true);
            index.add(k, next);
            map.set(k, next++);
          } else if (kind === 'insert') {
            const fresh = !map.has(k);
            expect(index.insert(k, next)).toBe(fresh);
            if (fresh) map.set(k, next++);
          } else if (kind === 'take') {
            expect(index.take(k)).toBe(map.get(k) ?? -1);
            map.delete(k);
          } else if (kind === 'get') {
            expect(index.get(k)).toBe(map.get(k) ?? -1);
          } else {
            expect(index.absent(k)).toBe(!map.has(k));
          }
          expect(index.size).toBe(map.size);
        }
        for (const [k, slot] of map) expect(index.get(k)).toBe(slot);
      }),
      { numRuns: 40, seed: 0x1d1d },
    );
  });

  it('keeps every id reachable when 200,000 sequential ids come and go at random', () => {
    const index = new IdIndex();
    const live: number[] = [];
    const map = new Map<number, number>();
    // A deterministic stream (xorshift), as the book sees them: new ids in sequence, random ones leave.
    let s = 0x2545f491;
    const rnd = (n: number): number => {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      return (s >>> 0) % n;
    };
    // Counted, not asserted one by one (an expect per operation would take most of the time).
    let wrong = 0;
    for (let k = 1; k <= 200_000; k++) {
      if (!index.insert(k, k)) wrong++;
      live.push(k);
      map.set(k, k);
      if (live.length > 20_000 || rnd(3) === 0) {
        const at = rnd(live.length);
        const gone = live[at]!;
        live[at] = live[live.length - 1]!;
        live.pop();
        if (index.take(gone) !== gone || index.get(gone) !== -1) wrong++;
        map.delete(gone);
      }
    }
    for (const k of live) if (index.get(k) !== k) wrong++;
    expect(wrong).toBe(0);
    expect(index.size).toBe(map.size);
    expect(index.get(0)).toBe(-1);
    expect(index.take(live[0]!)).toBe(live[0]);
    expect(index.get(live[0]!)).toBe(-1);
  });
});
