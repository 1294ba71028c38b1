import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MARKET_MAKER_DEFAULTS } from '../../src/agents/market-maker-params.ts';
import { withDefaults } from '../../src/core/objects.ts';

/** What withDefaults replaced: the parameters without their undefined values, to be spread over the defaults. */
function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

describe('parameters over their defaults (withDefaults)', () => {
  it('reads every key of the defaults as the spread of the defaults and the defined parameters does', () => {
    const value = fc.oneof(fc.constant(undefined), fc.integer(), fc.double({ noNaN: true }), fc.string());
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 3 }), value), fc.dictionary(fc.string({ minLength: 1, maxLength: 3 }), value), (defaults, params) => {
        const merged = withDefaults(defaults, params);
        const spread: Record<string, unknown> = { ...defaults, ...stripUndefined(params) };
        expect(Object.keys(merged)).toEqual(Object.keys(defaults));
        for (const key of Object.keys(defaults)) expect(merged[key]).toBe(spread[key]);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps the defaults' key order whatever order the parameters come in, and leaves the defaults as they were", () => {
    const before = { ...MARKET_MAKER_DEFAULTS };
    const merged = withDefaults(MARKET_MAKER_DEFAULTS, { maxWiden: 3, halfSpreadTicks: 0.5, levels: undefined });
    expect(Object.keys(merged)).toEqual(Object.keys(MARKET_MAKER_DEFAULTS));
    expect(merged).toEqual({ ...MARKET_MAKER_DEFAULTS, maxWiden: 3, halfSpreadTicks: 0.5 });
    expect(MARKET_MAKER_DEFAULTS).toEqual(before);
  });
});
