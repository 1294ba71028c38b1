import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placeLine } from '../../src/api/journal/commands.ts';
import type { OrderRequest } from '../../src/venue/venue.ts';

describe('the hand-built journal line of an order', () => {
  it('is exactly JSON.stringify of the place entry, for any username, symbol, price, side, quantity and flags', () => {
    const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('alice', 'ETHUSD-PERP', '3000.5', 'a"b\\c\n\u2028'));
    fc.assert(
      fc.property(
        anyText,
        anyText,
        anyText,
        fc.constantFrom('B', 'S'),
        fc.oneof(fc.integer(), fc.double(), fc.constant(Number.MAX_SAFE_INTEGER)),
        fc.constantFrom('GTC', 'IOC'),
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 2n ** 64n }),
        (u, symbol, price, side, quantity, timeInForce, postOnly, tNs) => {
          const req = { symbol, price, side, quantity, timeInForce, postOnly } as OrderRequest;
          const entry = { k: 'place', u, s: symbol, d: side, p: price, q: quantity, tif: timeInForce, po: postOnly, t: String(tNs) };
          expect(placeLine(u, req, String(tNs))).toBe(JSON.stringify(entry));
        },
      ),
      { seed: 17, numRuns: 300 },
    );
  });
});
