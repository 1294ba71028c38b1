import { describe, expect, it } from 'vitest';
import { lastFeed, makeVenue, place } from '../venue/fixtures.ts';

/**
 * Lots are numbers, exact up to 2^53 − 1. Orders that could push a level total, a traded volume
 * or a position total past that are rejected `INCORRECT_QUANTITY` before anything changes.
 */
const MAX = Number.MAX_SAFE_INTEGER;
const HALF = 2 ** 52; // two of these make 2^53, one past MAX
const RICH = '1' + '0'.repeat(40);

function setup() {
  const t = makeVenue();
  t.venue.start();
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => t.user(n, RICH));
  return { ...t, a: a!, b: b!, c: c!, d: d! };
}

describe('order entry refuses quantities that could overflow a running total', () => {
  it('rejects an order whose level total would pass 2^53 − 1, and the level stays exact', () => {
    const { venue, feeds, btc, a, b } = setup();
    place(venue, a, 'B', '49000', HALF);
    const second = place(venue, b, 'B', '49000', HALF);
    expect(second.state).toBe('REJECTED');
    expect(lastFeed(feeds, b)).toMatchObject({ t: 'j', r: 'INCORRECT_QUANTITY', txt: 'quantity would overflow the price level total' });
    expect(btc.book.levelLots('B', 49000 * 2)).toBe(HALF);
    expect(place(venue, b, 'B', '49000', HALF - 1).state).toBe('NEW');
    expect(btc.book.l2().bids[0]).toEqual({ priceTicks: 98000, qtyLots: MAX });
  });

  it('rejects a taker whose fills could pass the traded volume, before any fill', () => {
    const { venue, feeds, btc, a, b, c, d } = setup();
    place(venue, a, 'S', '50000', HALF);
    place(venue, b, 'B', '50000', HALF); // trades HALF: today's volume is 2^52
    const resting = place(venue, c, 'S', '50000', HALF); // rests: no trade, no volume check
    expect(resting.state).toBe('NEW');
    feeds.clear();
    const taker = place(venue, d, 'B', '50000', HALF);
    expect(taker.state).toBe('REJECTED');
    expect(lastFeed(feeds, d)).toMatchObject({ r: 'INCORRECT_QUANTITY', txt: 'quantity would overflow the traded volume' });
    expect(btc.candles.last('1d')!.volumeLots).toBe(HALF);
    expect(feeds.trades).toEqual([]);
    expect(feeds.typesOf(c)).toBe('');
    expect(resting).toMatchObject({ state: 'NEW', filledLots: 0 });
    expect(place(venue, d, 'B', '50000', HALF - 1).state).toBe('FILLED');
    expect(btc.stats.snapshot().volumeLots).toBe(MAX);
  });

  it('bounds a position by bought + sold + open lots, so a resting order can always be filled', () => {
    const { venue, feeds, a, b } = setup();
    place(venue, a, 'B', '49000', HALF);
    const more = place(venue, a, 'B', '48000', HALF);
    expect(more.state).toBe('REJECTED');
    expect(lastFeed(feeds, a)).toMatchObject({ r: 'INCORRECT_QUANTITY', txt: 'quantity would overflow the position totals' });
    place(venue, b, 'S', '49000', HALF); // fills a's resting order: bought HALF, open 0
    expect(place(venue, a, 'S', '51000', HALF).state).toBe('REJECTED');
    expect(place(venue, a, 'S', '51000', HALF - 1).state).toBe('NEW');
  });

  it('still accepts ordinary quantities on a busy account', () => {
    const { venue, a, b } = setup();
    for (let i = 0; i < 50; i++) {
      expect(place(venue, a, 'B', '49999.5', 1_000_000).state).toBe('NEW');
      expect(place(venue, b, 'S', '49999.5', 1_000_000).state).toBe('FILLED');
    }
  });
});
