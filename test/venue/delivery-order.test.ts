import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TimeInForce } from '../../src/core/types.ts';
import type { VenueListener } from '../../src/venue/feeds.ts';
import { makeVenue, place } from './fixtures.ts';
import { type SeqCancel, type SeqPlace, SeqOrders, seqCancelArb, seqPlaceArb } from './seq-orders.ts';

/** A listener writing down every hook it hears, in order. */
function recorder(seen: string[]): VenueListener {
  return {
    orderEvent: (e) => seen.push(`${e.t}`),
    trade: (t) => seen.push(`trade ${t.qtyLots}`),
    bookChanged: () => seen.push('book'),
    indexChanged: () => seen.push('index'),
  };
}

describe('what a command tells its listeners, in the order it happened (order events have no outbox entry of their own)', () => {
  it('interleaves order events, trades and book changes as the command produced them', () => {
    const t = makeVenue();
    const alice = t.user('alice', '10000000');
    const bob = t.user('bob', '10000000');
    const seen: string[] = [];
    t.venue.subscribe(recorder(seen));
    place(t.venue, alice, 'S', '50000', 2);
    place(t.venue, alice, 'S', '50001', 2);
    place(t.venue, bob, 'B', '50001', 3, { tif: 'IOC' });
    place(t.venue, bob, 'B', '1', 1); // rejected (price band): one event, no book change
    expect(seen).toEqual([
      'n', 'book',
      'n', 'book',
      'n', 'f', 'p', 'trade 2', 'p', 'f', 'trade 1', 'book',
      'j',
    ]);
  });
});

type Hook = 'orderEvent' | 'orderFeed' | 'trade' | 'bookChanged';
type Step = SeqPlace | SeqCancel | { kind: 'subscribe'; hooks: Hook[] } | { kind: 'unsubscribe'; which: number };

const HOOKS: Hook[] = ['orderEvent', 'orderFeed', 'trade', 'bookChanged'];
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: seqPlaceArb(3, 4, 4, fc.constantFrom<TimeInForce>('GTC', 'IOC')), weight: 6 },
  { arbitrary: seqCancelArb(3, 10), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('subscribe' as const), hooks: fc.subarray(HOOKS, { minLength: 1 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('unsubscribe' as const), which: fc.nat(5) }), weight: 1 },
);

describe('listeners subscribing and unsubscribing between commands', () => {
  it('each hear every event of the commands while subscribed, in subscription order per event, with their own hooks only (200 streams)', () => {
    let heard = 0;
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 5, maxLength: 50 }), (steps) => {
        const t = makeVenue();
        const users = [t.user('a', '10000000'), t.user('b', '10000000'), t.user('c', '10000000')];
        // The oracle: one listener with every hook, subscribed first and never removed, writes
        // down each event; what the others should have heard is each event expanded over the
        // listeners subscribed at its command, in their order, each by the hooks it has.
        const tape: string[] = [];
        const expected: string[] = [];
        type Active = { name: string; hooks: Hook[]; detach: () => void };
        let active: Active[] = [];
        const expand = (what: Hook, detail: string): void => {
          for (const a of active) {
            if (what === 'orderEvent') {
              if (a.hooks.includes('orderEvent')) expected.push(`${a.name} event ${detail}`);
              if (a.hooks.includes('orderFeed')) expected.push(`${a.name} feed ${detail}`);
            } else if (a.hooks.includes(what)) expected.push(`${a.name} ${what} ${detail}`);
          }
        };
        t.venue.subscribe({
          orderEvent: (e) => expand('orderEvent', `${e.userId} ${e.t} ${e.eid}`),
          trade: (tr) => expand('trade', tr.tid),
          bookChanged: (m) => expand('bookChanged', m.symbol),
        });
        let named = 0;
        const orders = new SeqOrders(t.venue, users);
        for (const s of steps) {
          const v = t.venue;
          const m = t.btc;
          if (s.kind === 'subscribe') {
            const name = `L${named++}`;
            // Hooks that read their listener through `this` (as a class's methods do): called with the wrong one, they write the wrong name.
            type Named = VenueListener & { name: string };
            const l: Named = { name };
            if (s.hooks.includes('orderEvent')) l.orderEvent = function (this: Named, e) { tape.push(`${this.name} event ${e.userId} ${e.t} ${e.eid}`); };
            if (s.hooks.includes('orderFeed')) l.orderFeed = function (this: Named, userId, f) { tape.push(`${this.name} feed ${userId} ${f.t} ${'eid' in f ? f.eid : 0}`); };
            if (s.hooks.includes('trade')) l.trade = function (this: Named, tr) { tape.push(`${this.name} trade ${tr.tid}`); };
            if (s.hooks.includes('bookChanged')) l.bookChanged = function (this: Named, mk) { tape.push(`${this.name} bookChanged ${mk.symbol}`); };
            active.push({ name, hooks: s.hooks, detach: v.subscribe(l) });
          } else if (s.kind === 'unsubscribe') {
            if (active.length === 0) continue;
            const gone = active[s.which % active.length]!;
            gone.detach();
            active = active.filter((a) => a !== gone);
          } else {
            orders.apply(s, m);
          }
        }
        expect(tape).toEqual(expected);
        heard += tape.length;
      }),
      { numRuns: 200, seed: 16 },
    );
    expect(heard).toBeGreaterThan(1500);
  });
});
