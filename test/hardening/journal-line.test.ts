import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placeLine, placeLineMaxBytes, writePlaceLine } from '../../src/api/journal/place-line.ts';
import type { OrderRequest } from '../../src/venue/venue.ts';

const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('alice', 'ETHUSD-PERP', '3000.5', 'a"b\\c\n\u2028'));
const anyQuantity = fc.oneof(fc.integer(), fc.double(), fc.constant(Number.MAX_SAFE_INTEGER), fc.constant(-Number.MAX_SAFE_INTEGER), fc.constant(-0), fc.constant(2 ** 53));
const plainPrice = fc.stringMatching(/^[0-9.eE+-]{0,20}$/);

describe('the hand-built journal line of an order', () => {
  it('is exactly JSON.stringify of the place entry, for any username, symbol, price, side, quantity and flags', () => {
    fc.assert(
      fc.property(
        anyText,
        anyText,
        anyText,
        fc.constantFrom('B', 'S'),
        anyQuantity,
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

  it('written in place into the group buffer is the same bytes as JSON.stringify, within the room asked for, or is refused without writing outside that room', () => {
    fc.assert(
      fc.property(
        anyText,
        anyText,
        fc.oneof(anyText, plainPrice),
        fc.constantFrom('B', 'S'),
        anyQuantity,
        fc.constantFrom('GTC', 'IOC'),
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 2n ** 64n }),
        fc.nat(100),
        (u, symbol, price, side, quantity, timeInForce, postOnly, tNs, at) => {
          const req = { symbol, price, side, quantity, timeInForce, postOnly } as OrderRequest;
          const tBytes = Buffer.from(String(tNs));
          const room = placeLineMaxBytes(u, req, tBytes);
          const buf = Buffer.alloc(at + room + 8, 0xee);
          const end = writePlaceLine(buf, at, u, req, tBytes);
          const expected = Buffer.from(JSON.stringify({ k: 'place', u, s: symbol, d: side, p: price, q: quantity, tif: timeInForce, po: postOnly, t: String(tNs) }));
          if (end < 0) {
            expect(buf.subarray(0, at).every((b) => b === 0xee) && buf.subarray(at + room).every((b) => b === 0xee)).toBe(true);
            // refused only for what the string path is for: a price that needs escaping or is long, a quantity that is not a safe integer
            expect(/^[0-9.eE+-]{0,64}$/.test(price) && Number.isSafeInteger(quantity)).toBe(false);
          } else {
            expect(buf.subarray(at, end).toString('hex')).toBe(expected.toString('hex'));
            expect(end - at).toBeLessThanOrEqual(room);
            expect(buf.subarray(end).every((b) => b === 0xee)).toBe(true);
          }
        },
      ),
      { seed: 17, numRuns: 500 },
    );
  });

  it('is written in place for an ordinary order (no string made for it)', () => {
    const req = { symbol: 'ETHUSD-PERP', side: 'S', price: '3000.25', quantity: 12, timeInForce: 'IOC', postOnly: true } as OrderRequest;
    const buf = Buffer.alloc(512);
    const end = writePlaceLine(buf, 3, 'trader1', req, Buffer.from('1700000000000000000'));
    expect(buf.subarray(3, end).toString()).toBe('{"k":"place","u":"trader1","s":"ETHUSD-PERP","d":"S","p":"3000.25","q":12,"tif":"IOC","po":true,"t":"1700000000000000000"}');
  });
});
