import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/sweep/canonical-json.ts';
import { expandGrid, parseParamsLines, parseSeeds, SweepInputError } from '../../src/sweep/grid.ts';
import { parseShard, shardOf } from '../../src/sweep/shard.ts';

describe('sweep inputs', () => {
  it('expands a grid into every combination, keys sorted, the last key fastest', () => {
    expect(expandGrid('{"b":[3,4],"a":[1,2]}')).toEqual([
      { a: 1, b: 3 },
      { a: 1, b: 4 },
      { a: 2, b: 3 },
      { a: 2, b: 4 },
    ]);
  });

  it('treats a scalar in a grid as a fixed value and drops repeated combinations', () => {
    expect(expandGrid('{"a":[1,1,2],"fixed":"x"}')).toEqual([
      { a: 1, fixed: 'x' },
      { a: 2, fixed: 'x' },
    ]);
  });

  it('has as many params sets as the product of the value counts', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }), (counts) => {
        const grid = Object.fromEntries(counts.map((n, i) => [`k${i}`, Array.from({ length: n }, (_, j) => j)]));
        const sets = expandGrid(JSON.stringify(grid));
        expect(sets.length).toBe(counts.reduce((a, b) => a * b, 1));
        expect(new Set(sets.map((s) => canonicalJson(s))).size).toBe(sets.length);
      }),
    );
  });

  it('rejects a grid that is not an object of arrays, or has an empty list', () => {
    expect(() => expandGrid('[1,2]')).toThrow(SweepInputError);
    expect(() => expandGrid('{"a":[]}')).toThrow(/no values/);
    expect(() => expandGrid('{oops')).toThrow(/not valid JSON/);
  });

  it('reads a params file of JSON lines, skipping blanks and comments, naming the bad line', () => {
    expect(parseParamsLines('# sets\n{"a":1}\n\n{"a":2}\n', 'runs.jsonl')).toEqual([{ a: 1 }, { a: 2 }]);
    expect(() => parseParamsLines('{"a":1}\n[2]\n', 'runs.jsonl')).toThrow('runs.jsonl:2');
  });

  it('reads seeds as a number, an inclusive range or a list, sorted without repeats', () => {
    expect(parseSeeds('7')).toEqual([7]);
    expect(parseSeeds('1..4')).toEqual([1, 2, 3, 4]);
    expect(parseSeeds('9,1..2,1')).toEqual([1, 2, 9]);
    expect(() => parseSeeds('5..1')).toThrow(SweepInputError);
    expect(() => parseSeeds('a')).toThrow(SweepInputError);
  });

  it('writes the same canonical JSON whatever the key order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (obj) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(obj));
      }),
    );
  });
});

describe('shards', () => {
  it('reads i/N, and auto/N from the Kubernetes or AWS Batch index variable', () => {
    expect(parseShard('1/3', {})).toEqual({ index: 1, count: 3 });
    expect(parseShard('auto/4', { JOB_COMPLETION_INDEX: '2' })).toEqual({ index: 2, count: 4 });
    expect(parseShard('auto/4', { AWS_BATCH_JOB_ARRAY_INDEX: '3' })).toEqual({ index: 3, count: 4 });
  });

  it('refuses an index out of range, a bad form, or auto without an index variable', () => {
    expect(() => parseShard('3/3', {})).toThrow(/below 3/);
    expect(() => parseShard('1-3', {})).toThrow(/i\/N/);
    expect(() => parseShard('auto/2', {})).toThrow(/JOB_COMPLETION_INDEX/);
    expect(() => parseShard('auto/2', { JOB_COMPLETION_INDEX: 'x' })).toThrow(/non-negative integer/);
  });

  it('puts every run id in exactly one shard, the same one every time', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{20}$/), fc.integer({ min: 1, max: 50 }), (id, n) => {
        const s = shardOf(id, n);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThan(n);
        expect(shardOf(id, n)).toBe(s);
      }),
    );
  });
});
