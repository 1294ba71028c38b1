import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanRequest } from '../../../src/api/ws/request-scanner.ts';

const KEYS = ['rid', 't', 's', 'd', 'q', 'p', 'tif', 'po', 'oid', 'u', 'k', 'cod'];

/** JSON whitespace, sometimes none. */
const ws = fc.constantFrom('', '', '', ' ', '\n', '\t ', '\r\n  ');
/** Values of every JSON type, the scanner's and others (nulls, fractions, exponents, escapes, nesting, non-ASCII). */
const value = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('B', 'S', 'p', 'x', 'GTC', 'IOC', 'ETHUSD-PERP', '3000', '3000.5', 'O-01KDVDNA000000000000000001'),
  fc.integer(),
  fc.constantFrom(0, -0, 1, 123456789012345, 1234567890123456, 2 ** 53, -(2 ** 53) + 1, 1.5, 1e21, -7),
  fc.boolean(),
  fc.constant(null),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.constantFrom('a"b', 'a\\b', 'tab\there', '\u0001', 'é', '😀'),
  fc.constantFrom([], [1], {}, { a: 1 }),
);
const key = fc.oneof(fc.constantFrom(...KEYS), fc.constantFrom('x', 'RID', 'ri', 'rids', 'é', 'r\\u0069d'), fc.string({ maxLength: 4 }));

/** A JSON object text built member by member, so keys may repeat and whitespace vary. */
const objectText = fc.array(fc.tuple(key, value, ws, ws, ws, ws), { maxLength: 10 }).chain((members) =>
  fc.tuple(ws, ws).map(
    ([open, close]) =>
      `${open}{${members.map(([k, v, a, b, c, d]) => `${a}${k.includes('\\') ? `"${k}"` : JSON.stringify(k)}${b}:${c}${JSON.stringify(v)}${d}`).join(',')}${close}}`,
  ),
);

/** What the generic path reads: the parsed value, or a marker for text JSON.parse refuses. */
const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return 'REFUSED';
  }
};

describe('the request scanner', () => {
  it('reads the requests clients send into the very object JSON.parse gives', () => {
    const requests = [
      '{"rid":1,"t":"p","s":"ETHUSD-PERP","d":"B","q":1,"p":"3000","tif":"GTC","po":false}',
      '{"rid": 2, "t": "x", "oid": "O-01KDVDNA000000000000000001"}',
      '{ "t":"p", "rid":3, "p":"3000.25", "q":250, "d":"S", "s":"BTCUSD-PERP", "tif":"IOC", "po":true }',
      '{"rid":4,"t":"a","u":"alice","k":"tok-en.1","cod":true}',
      '{"rid":-5,"t":"o"}',
      '{}',
    ];
    for (const text of requests) {
      const frame = scanRequest(Buffer.from(text));
      expect(frame).toEqual(JSON.parse(text));
      expect(Object.keys(frame!)).toEqual(Object.keys(JSON.parse(text) as object)); // same key order too
    }
  });

  it('gives for any object text either exactly what JSON.parse gives or nothing (then JSON.parse reads it)', () => {
    let read = 0;
    fc.assert(
      fc.property(objectText, (text) => {
        const frame = scanRequest(Buffer.from(text));
        if (frame === undefined) return;
        read++;
        const expected = parsed(text);
        expect(frame).toStrictEqual(expected);
        expect(Object.keys(frame)).toEqual(Object.keys(expected as object));
        for (const k of Object.keys(frame)) expect(Object.is(frame[k], (expected as Record<string, unknown>)[k])).toBe(true); // -0 stays -0
      }),
      { numRuns: 3000 },
    );
    expect(read).toBeGreaterThan(100); // the property saw real reads, not only refusals
  });

  it('reads nothing that is not a JSON object, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)), objectText.map((t) => Buffer.from(t.slice(0, -1)))), (bytes) => {
        const frame = scanRequest(bytes);
        if (frame !== undefined) expect(frame).toStrictEqual(parsed(bytes.toString('utf8')));
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves to JSON.parse what it does not read: repeats, escapes, non-ASCII, fractions, null, nesting, long integers', () => {
    for (const text of [
      '{"rid":1,"rid":2}',
      '{"rid":1,"s":"ETH\\u0055SD"}',
      '{"rid":1,"u":"zoë"}',
      '{"rid":1,"q":1.0}',
      '{"rid":1,"q":1e3}',
      '{"rid":null}',
      '{"rid":1,"s":["x"]}',
      '{"rid":1234567890123456}',
      '{"rid":01}',
      '{"rid":1,"other":1}',
      '{"rid":1,}',
      '{"rid":1} x',
    ])
      expect(scanRequest(Buffer.from(text))).toBeUndefined();
  });
});
