import { describe, expect, it } from 'vitest';
import type { VenueListener } from '../../src/venue/feeds.ts';
import { makeVenue, place } from './fixtures.ts';

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
