import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requireBool, requireEnum, requireInt, requirePattern } from '../../../src/api/ws/fields.ts';
import type { Frame } from '../../../src/api/ws/frames.ts';
import { parsePlaceRequest, SYMBOL_PATTERN } from '../../../src/api/ws/order-requests.ts';
import { PRICE_MAX_LENGTH, PRICE_PATTERN } from '../../../src/wire/order.ts';

/** The place request's checks one field at a time, in order (the documented schema): the reference for the fast path. */
const fieldByField = (frame: Frame) => ({
  symbol: requirePattern(frame, 's', SYMBOL_PATTERN, 1, 20),
  side: requireEnum(frame, 'd', ['B', 'S'] as const),
  quantity: requireInt(frame, 'q'),
  price: requirePattern(frame, 'p', PRICE_PATTERN, 1, PRICE_MAX_LENGTH),
  timeInForce: requireEnum(frame, 'tif', ['GTC', 'IOC'] as const),
  postOnly: requireBool(frame, 'po'),
});
const outcome = (f: () => unknown): unknown => {
  try {
    return { ok: f() };
  } catch (e) {
    return { error: (e as Error).message, code: (e as { code?: number }).code };
  }
};

const odd = fc.constantFrom(undefined, null, '', 1.5, -0, 2 ** 53, true, 'x', '12', [], {});
describe('parsePlaceRequest', () => {
  it('gives what the field-by-field checks give, request or first error, for any fields, runs of equal texts included', () => {
    const field = <T>(good: fc.Arbitrary<T>) => fc.oneof({ weight: 6, arbitrary: good }, { weight: 1, arbitrary: odd });
    const frame = fc.record({
      s: field(fc.constantFrom('ETHUSD-PERP', 'BTCUSD-PERP', 'A', 'X'.repeat(20), 'X'.repeat(21), 'eth', 'ETH USD')),
      d: field(fc.constantFrom('B', 'S', 'b', 'BUY')),
      q: field(fc.oneof(fc.integer(), fc.constantFrom(0, -1, Number.MAX_SAFE_INTEGER))),
      p: field(fc.constantFrom('3000', '3000.5', '3000.', '.5', '1e3', '-1', '12345678901', '1234567890')),
      tif: field(fc.constantFrom('GTC', 'IOC', 'FOK', 'gtc')),
      po: field(fc.boolean()),
    });
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 6 }), (frames) => {
        for (const f of frames) expect(outcome(() => parsePlaceRequest(f))).toEqual(outcome(() => fieldByField(f)));
      }),
      { seed: 11_06, numRuns: 3000 },
    );
  });
});
