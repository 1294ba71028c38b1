import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonBytes, writeOrderEvent } from '../../../src/api/ws/json-bytes.ts';
import { writeHotReply } from '../../../src/api/ws/reply-bytes.ts';
import { encodeOrderReply } from '../../../src/api/ws/wire-json.ts';
import type { OrderEvent } from '../../../src/venue/order-events.ts';
import type { WsOrder } from '../../../src/wire/order.ts';

/**
 * The templated feed writer (src/api/ws/feed-template.ts) behind `writeOrderEvent`: for any
 * event fields — plain values that take the template, and values that need escapes, are not
 * ASCII or are not non-negative integers, which must fall back to the generic writer — the bytes
 * are JSON.stringify of the feed `OrderEvent.feed()` would build (same keys, same order per
 * type). Events come in runs, so the writer's kept segments are hit, missed and evicted.
 */

const SEED = 11_05;
const plainText = fc.constantFrom('alice', 'bob', 'ETHUSD-PERP', 'BTCUSD-PERP', '3000', '2999.5', 'NEW', 'FILLED', 'PARTIALLY_FILLED', 'B', 'S', 'GTC', 'IOC', '');
const oddText = fc.string({ unit: fc.constantFrom('a', '"', '\\', '\u0000', 'é', '\ud800', '😀', '~', '\u007f'), maxLength: 6 });
const text = fc.oneof({ weight: 8, arbitrary: plainText }, { weight: 1, arbitrary: oddText });
const whole = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(0, 1, 9, 10, 1767225600, 999_999_999, Number.MAX_SAFE_INTEGER) }, { weight: 8, arbitrary: fc.nat() }, {
  weight: 1,
  arbitrary: fc.constantFrom(-1, 1.5, -0, 2 ** 53, 1e21),
});
const wsOrder = fc.record({ oid: text, u: text, s: text, p: text, q: whole, xq: whole, rq: whole, o: text, d: text, tif: text, liq: fc.boolean(), ts: whole, tn: whole });
const event = fc.record({
  t: fc.constantFrom('n', 'p', 'f', 'c', 'j', 'e'),
  ts: whole,
  tn: whole,
  eid: whole,
  tid: whole,
  fillLots: whole,
  fillPriceTicks: fc.constantFrom(1, 2, 3),
  fillPrice: text,
  aggressor: fc.boolean(),
  reason: fc.option(text, { nil: undefined }),
  text: fc.option(text, { nil: undefined }),
  oid: text,
  order: wsOrder,
});
type Fields = typeof event extends fc.Arbitrary<infer T> ? T : never;

/**
 * A cursor with what the writers read of an OrderEvent, refilled per event as the venue refills
 * its own (one per run: a venue). A fill's price text is one per ticks in a run, as a market's is.
 */
const cursor = (priceOfTicks: Map<number, string>) => {
  let f: Fields;
  const e = {
    orderInto: (out: WsOrder) => Object.assign(out, f.order),
    fillPriceText: () => priceOfTicks.get(f.fillPriceTicks)!,
  };
  return (next: Fields): OrderEvent => {
    f = next;
    if (!priceOfTicks.has(f.fillPriceTicks)) priceOfTicks.set(f.fillPriceTicks, f.fillPrice);
    return Object.assign(e, next) as unknown as OrderEvent;
  };
};

/** The feed as OrderEvent.feed() builds it (src/venue/order-events.ts). */
const feedOf = (f: Fields, fillPrice: string): unknown => {
  const { t, ts, tn } = f;
  const eid = String(f.eid);
  const o = f.order;
  switch (t) {
    case 'e':
      return { t, ts, tn, oid: f.oid, r: f.reason, txt: f.text };
    case 'j':
      return { t, ts, tn, eid, o, r: f.reason, txt: f.text };
    case 'c':
      return { t, ts, tn, eid, o, xr: f.reason, txt: f.text };
    case 'p':
    case 'f':
      return { t, ts, tn, eid, o, xs: { tid: String(f.tid), s: o.s, q: f.fillLots, p: fillPrice, d: o.d, agg: f.aggressor } };
    default:
      return { t, ts, tn, eid, o };
  }
};

describe('templated order feeds', () => {
  it('are JSON.stringify of the feed for any run of events, plain or not, into a reused buffer', () => {
    const w = new JsonBytes(64);
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 12 }), (events) => {
        const priceOfTicks = new Map<number, string>();
        w.reset();
        const refill = cursor(priceOfTicks);
        const starts: number[] = [];
        for (const f of events) {
          starts.push(w.end);
          writeOrderEvent(w, refill(f));
        }
        events.forEach((f, i) => {
          const got = w.buf.subarray(starts[i], i + 1 < events.length ? starts[i + 1] : w.end).toString('utf8');
          expect(got).toBe(JSON.stringify(feedOf(f, priceOfTicks.get(f.fillPriceTicks)!)));
        });
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });
});

describe('hot replies written as bytes', () => {
  it('are encodeOrderReply of {placed} and {canceled} for any rid and order id they take, and refuse the rest', () => {
    const w = new JsonBytes(16);
    const rid = fc.oneof(fc.maxSafeInteger(), fc.nat(), fc.constantFrom(-1, 1.5, 2 ** 53, -0));
    fc.assert(
      fc.property(rid, fc.option(text, { nil: undefined }), (r, oid) => {
        const body = oid === undefined ? ({ canceled: true } as const) : { placed: oid };
        if (writeHotReply(w, r, oid)) expect(w.buf.subarray(0, w.end).toString('utf8')).toBe(encodeOrderReply(r, body));
        else expect(r >= 0 && Number.isSafeInteger(r) && oid !== undefined && /^[\x20-\x7e]*$/.test(oid) && !/["\\]/.test(oid)).toBe(false);
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });
});
