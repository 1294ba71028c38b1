import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Exchange } from '../../../src/api/exchange.ts';
import { JsonBytes, writeOrderEvent, writeWsOrder } from '../../../src/api/ws/json-bytes.ts';
import { encodeBookLevel, encodeOrderReply, encodeTickerStats, jsonString } from '../../../src/api/ws/wire-json.ts';
import { loadScenario } from '../../../src/scenario/load.ts';
import type { OrderFeed, WsOrder } from '../../../src/wire/order.ts';

/**
 * The hand-written serializers (src/api/ws/wire-json.ts, and src/api/ws/json-bytes.ts straight
 * to UTF-8) give exactly JSON.stringify's text:
 * over thousands of random messages of every shape (seeded), and over every feed a venue run
 * emits (so a change of key order in the venue's feeds fails here, not on a client).
 */

const SEED = 11_04;
/** Any UTF-16 unit: controls, quotes, backslashes, lone surrogates, non-ASCII. */
const anyText = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    fc.constantFrom('"', '\\', '\u0000', '\u001f', ' ', '~', '\u007f', 'é', '\ud800', '\udfff', '😀'), // the edges of escaping and of ASCII
  ),
  maxLength: 16,
});
const text = fc.oneof(anyText, fc.constantFrom('alice', 'ETHUSD-PERP', '3000.5', 'NEW', 'FILLED', 'B', 'S', 'GTC', ''));
const number = fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double(), fc.constantFrom(0, -0, 1e21, 5e-7, 1767225600, 999_999_999));
const wsOrder = fc.record({
  oid: text,
  u: text,
  s: text,
  p: text,
  q: number,
  xq: number,
  rq: number,
  o: text,
  d: text,
  tif: text,
  liq: fc.boolean(),
  ts: number,
  tn: number,
});
const fill = fc.record({ tid: text, s: text, q: number, p: text, d: text, agg: fc.boolean() });
const stamp = fc.record({ ts: number, tn: number });
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

/** A writer reused across calls, as the feed hub reuses its own: the bytes `write` adds after what `before` wrote. */
const writer = new JsonBytes(64);
const bytesOf = (write: (w: JsonBytes) => void, before?: (w: JsonBytes) => void): Buffer => {
  writer.reset();
  before?.(writer);
  const start = writer.end;
  write(writer);
  return writer.buf.subarray(start, writer.end);
};

describe('hand-written wire JSON', () => {
  it('writes any string as JSON.stringify does', () => {
    fc.assert(fc.property(anyText, (s) => {
      expect(jsonString(s)).toBe(JSON.stringify(s));
    }), { seed: SEED, numRuns: 5000 });
  });

  it('writes any value of a string, number or boolean member, and any order, as the UTF-8 bytes of JSON.stringify, into a reused buffer', () => {
    const anyValue = fc.oneof(text, number, fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }));
    fc.assert(
      fc.property(anyValue, wsOrder, opt(wsOrder), (v, o, before) => {
        const beforeOrder = before === undefined ? undefined : (w: JsonBytes) => writeWsOrder(w, before as WsOrder);
        for (const write of [(w: JsonBytes) => w.str(v), (w: JsonBytes) => w.num(v), (w: JsonBytes) => w.bool(v)])
          expect(bytesOf(write, beforeOrder).equals(Buffer.from(JSON.stringify(v)))).toBe(true);
        expect(bytesOf((w) => writeWsOrder(w, o as WsOrder), beforeOrder).equals(Buffer.from(JSON.stringify(o)))).toBe(true);
      }),
      { seed: SEED, numRuns: 5000 },
    );
  });

  it('writes order-socket replies as JSON.stringify of {rid, res | o | err}', () => {
    const rid = fc.oneof(fc.maxSafeInteger(), fc.integer(), text, fc.constant(null), fc.double());
    fc.assert(
      fc.property(rid, text, fc.array(wsOrder, { maxLength: 2 }), fc.integer(), text, (r, oid, orders, code, msg) => {
        expect(encodeOrderReply(r, { placed: oid })).toBe(JSON.stringify({ rid: r, res: { oid } }));
        expect(encodeOrderReply(r, { canceled: true })).toBe(JSON.stringify({ rid: r, res: { cxl_rx: true } }));
        expect(encodeOrderReply(r, { o: orders as WsOrder[] })).toBe(JSON.stringify({ rid: r, o: orders }));
        expect(encodeOrderReply(r, { err: { code, msg } })).toBe(JSON.stringify({ rid: r, err: { code, msg } }));
        expect(encodeOrderReply(r, { res: { li: msg, o: orders } })).toBe(JSON.stringify({ rid: r, res: { li: msg, o: orders } }));
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('writes ticker stats and book levels byte for byte as JSON.stringify', () => {
    const stats = fc.record({ t: fc.constant('s' as const), ts: number, tn: number, s: text, p: text, q: number, o: text, l: text, h: text, v: number });
    const level = fc.record({ p: text, q: number, o: opt(fc.array(fc.integer(), { maxLength: 4 })) });
    fc.assert(fc.property(stats, (m) => {
      expect(encodeTickerStats(m)).toBe(JSON.stringify(m));
    }), { seed: SEED, numRuns: 3000 });
    fc.assert(
      fc.property(level, (l) => {
        const value = l.o === undefined ? { p: l.p, q: l.q } : l;
        expect(encodeBookLevel(value)).toBe(JSON.stringify(value));
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it('writes every event a venue emits (new, fills, partial fills, cancels, rejects, expiries) as JSON.stringify of its feed', async () => {
    const exchange = await Exchange.create(loadScenario('empty'), { manual: true, scryptCost: 1024 });
    const feeds: OrderFeed[] = [];
    const written: string[] = [];
    exchange.venue.subscribe({
      orderEvent: (e) => {
        written.push(bytesOf((w) => writeOrderEvent(w, e), (w) => w.str('an earlier feed')).toString('utf8'));
        feeds.push(e.feed());
      },
    });
    const alice = exchange.venue.account('alice')!;
    const bob = exchange.venue.account('bob')!;
    const place = (who: typeof alice, side: 'B' | 'S', price: string, quantity: number, timeInForce: 'GTC' | 'IOC' = 'GTC', postOnly = false) =>
      exchange.commands.placeId(who, { symbol: 'ETHUSD-PERP', price, quantity, side, timeInForce, postOnly });
    const resting = place(alice, 'B', '2999.5', 5);
    place(bob, 'S', '2999.5', 2); // partial fill of alice's bid, full fill of bob's
    place(bob, 'S', '3001', 1, 'GTC', true); // post-only that rests
    place(alice, 'B', '3001', 1, 'GTC', true); // post-only that would take: rejected or canceled
    place(bob, 'S', '2000', 1, 'IOC'); // takes the rest of the bid, IOC remainder expires
    place(alice, 'B', '1', 1); // outside the band: rejected
    place(alice, 'B', '2990', 1_000_000_000); // beyond margin: rejected
    place(alice, 'B', '2990.123', 1); // off the tick grid: rejected
    exchange.commands.placeId(alice, { symbol: 'NOPE-PERP', price: '1', quantity: 1, side: 'B', timeInForce: 'GTC', postOnly: false }); // unknown symbol
    exchange.commands.cancel(alice, resting); // already filled: cancel reject
    exchange.commands.cancel(bob, 'O-nope'); // unknown: cancel reject
    const open = place(alice, 'S', '3005', 3);
    exchange.commands.cancel(alice, open); // canceled
    exchange.commands.cancelAll(bob);
    const types = new Set(feeds.map((f) => f.t));
    for (const t of ['n', 'p', 'f', 'c', 'e', 'j']) expect(types).toContain(t);
    expect(written).toEqual(feeds.map((f) => JSON.stringify(f)));
  });
});
