import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { CounterIds, IdGenerator, ID_DIGITS, decodeIdCounter, writeIdDigits } from '../../src/core/ids.ts';
import { RandomStream } from '../../src/random/random-stream.ts';

const BODY = /^[0-9A-HJKMNP-TV-Z]{26}$/;

describe('IdGenerator', () => {
  it('makes order ids of 28 characters: "O-" and 26 Crockford characters', () => {
    const ids = new IdGenerator('O-');
    const id = ids.next(1_758_691_225_264);
    expect(id).toHaveLength(28);
    expect(id.startsWith('O-')).toBe(true);
    expect(id.slice(2)).toMatch(BODY);
    expect(id).toBe('O-01K5X2MVNG0000000000000001');
  });

  it('encodes time like the ULID reference and the counter in the last 16 characters', () => {
    const ids = new IdGenerator('');
    expect(ids.next(1_469_918_176_385)).toBe('01ARYZ6S41' + '0'.repeat(15) + '1');
    expect(ids.next(0)).toBe('0'.repeat(25) + '2');
    expect(ids.next(2 ** 48 - 1)).toBe('7ZZZZZZZZZ' + '0'.repeat(15) + '3');
    expect(ids.count).toBe(3);
  });

  it('rejects times outside 48 bits or not integers', () => {
    const ids = new IdGenerator('L-');
    for (const t of [-1, 2 ** 48, 1.5, NaN, Infinity]) expect(() => ids.next(t), String(t)).toThrow(RangeError);
    expect(ids.count).toBe(0);
  });

  it('produces strictly increasing ids when time never goes back', () => {
    const rng = new RandomStream('ids-monotonic');
    const ids = new IdGenerator('O-');
    let timeMs = 1_700_000_000_000;
    let previous = ids.next(timeMs);
    for (let i = 0; i < 20_000; i++) {
      if (rng.chance(0.3)) timeMs += rng.int(1, rng.chance(0.1) ? 10 ** 9 : 1000);
      const id = ids.next(timeMs);
      expect(id > previous, `${id} after ${previous}`).toBe(true);
      expect(id.slice(2)).toMatch(BODY);
      previous = id;
    }
  });

  it('orders by counter within a millisecond across base32 digit boundaries', () => {
    const ids = new IdGenerator('');
    const made = Array.from({ length: 2100 }, () => ids.next(5));
    expect([...made].sort()).toEqual(made);
    expect(made[1022]!.slice(10)).toBe('0'.repeat(14) + 'ZZ');
    expect(made[1023]!.slice(10)).toBe('0'.repeat(13) + '100');
    expect(made[2047]!.slice(10)).toBe('0'.repeat(13) + '200');
  });

  it('is deterministic: two generators given the same times give the same ids', () => {
    const rng = new RandomStream('ids-determinism');
    const a = new IdGenerator('O-');
    const b = new IdGenerator('O-');
    let timeMs = 1_758_691_225_264;
    const fromA: string[] = [];
    const fromB: string[] = [];
    for (let i = 0; i < 1000; i++) {
      timeMs += rng.int(0, 50);
      fromA.push(a.next(timeMs));
      fromB.push(b.next(timeMs));
    }
    expect(fromB).toEqual(fromA);
    expect(new Set(fromA).size).toBe(1000);
  });
});

describe('IdGenerator.advanceAt', () => {
  it('issues the counters advance issues at the clock time in milliseconds, and refuses the same times (fast-check)', () => {
    const time = fc.record({ nowSec: fc.oneof(fc.integer({ min: 0, max: 2 ** 38 }), fc.constant(-1), fc.constant(2 ** 40)), nowNanos: fc.integer({ min: 0, max: 999_999_999 }) });
    fc.assert(
      fc.property(fc.array(time, { minLength: 1, maxLength: 30 }), (times) => {
        const byClock = new IdGenerator('O-');
        const byMs = new IdGenerator('O-');
        for (const t of times) {
          const ms = t.nowSec * 1000 + Math.floor(t.nowNanos / 1_000_000);
          let expected: number | string;
          try {
            expected = byMs.advance(ms);
          } catch (e) {
            expected = (e as Error).message;
          }
          let got: number | string;
          try {
            got = byClock.advanceAt(t);
          } catch (e) {
            got = (e as Error).message;
          }
          expect(got).toBe(expected);
        }
        expect(byClock.count).toBe(byMs.count);
      }),
      { numRuns: 200 },
    );
  });
});

describe('decodeIdCounter', () => {
  it('recovers the counter of seeded random ids', () => {
    const rng = new RandomStream('ids-decode');
    for (const prefix of ['O-', 'L-', '']) {
      const ids = new IdGenerator(prefix);
      for (let i = 1; i <= 2000; i++) {
        const id = ids.next(rng.int(0, 2 ** 48 - 1));
        expect(decodeIdCounter(id, prefix), id).toBe(i);
      }
    }
  });

  it('recovers counters up to the largest safe integer', () => {
    const big = '7ZZZZZZZZZ' + '00000' + '7ZZZZZZZZZZ';
    expect(decodeIdCounter('O-' + big, 'O-')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('returns undefined for malformed ids', () => {
    const good = new IdGenerator('O-').next(1_758_691_225_264);
    const body = good.slice(2);
    const malformed = [
      'L-' + body,
      body,
      good + '0',
      good.slice(0, -1),
      'O-' + body.toLowerCase(),
      'O-' + body.slice(0, -1) + 'I',
      'O-' + body.slice(0, -1) + 'L',
      'O-' + body.slice(0, -1) + 'O',
      'O-' + body.slice(0, -1) + 'U',
      'O-' + body.slice(0, -1) + 'é',
      'O-8' + body.slice(1),
      'O-' + body.slice(0, 10) + '0'.repeat(16),
      'O-' + body.slice(0, 10) + '00000' + '80000000000',
      'O-' + body.slice(0, 10) + 'Z'.repeat(16),
      '',
    ];
    for (const id of malformed) expect(decodeIdCounter(id, 'O-'), id).toBeUndefined();
  });
});

describe('CounterIds', () => {
  it('counts "1", "2", "3" and each instance starts again at "1"', () => {
    const ids = new CounterIds();
    expect([ids.next(), ids.next(), ids.next()]).toEqual(['1', '2', '3']);
    expect(ids.count).toBe(3);
    expect(new CounterIds().next()).toBe('1');
  });
});

describe('writeIdDigits', () => {
  it('writes the bytes of the id IdGenerator.format makes, for any 48-bit time and safe counter', () => {
    const edges = (max: number) => fc.oneof(fc.integer({ min: 0, max }), fc.constantFrom(0, 1, 31, 32, 1023, 1024, 2 ** 30 - 1, 2 ** 30, 2 ** 31, 2 ** 32, max - 1, max));
    fc.assert(
      fc.property(edges(2 ** 48 - 1), edges(Number.MAX_SAFE_INTEGER), fc.nat(8), (timeMs, counter, at) => {
        const out = new Uint8Array(at + ID_DIGITS + 3).fill(0x7e);
        const end = writeIdDigits(out, at, timeMs, counter);
        expect(end).toBe(at + ID_DIGITS);
        expect(Buffer.from(out.subarray(at, end)).toString('latin1')).toBe(new IdGenerator('').format(timeMs, counter));
        expect([...out.subarray(0, at), ...out.subarray(end)].every((b) => b === 0x7e)).toBe(true); // nothing outside its cells
      }),
      { numRuns: 2000, seed: 0x1d },
    );
  });
});
