import { describe, expect, it } from 'vitest';
import type { OrderCounts } from '../../src/backtest/recorder.ts';
import { countFeed } from '../../src/live/live-run.ts';
import type { OrderFeed } from '../../src/wire/order.ts';

const counts = (): OrderCounts => ({ submitted: 0, accepted: 0, rejected: 0, acceptedLots: 0, canceled: 0, rejectReasons: {} });
const count = (feeds: OrderFeed[]): OrderCounts => {
  const orders = counts();
  for (const feed of feeds) countFeed(feed, orders, [], new Map(), new Map(), new Map(), []);
  return orders;
};

describe('a live run counting rejected orders', () => {
  it('keys an UNKNOWN reject by its text, as a backtest does (rejects_by_reason: with the text for UNKNOWN)', () => {
    const orders = count([
      { t: 'j', ts: 1, tn: 0, r: 'UNKNOWN', txt: 'post-only order would cross the book' },
      { t: 'j', ts: 2, tn: 0, r: 'UNKNOWN', txt: 'post-only order would cross the book' },
      { t: 'j', ts: 3, tn: 0, r: 'INSUFFICIENT_MARGIN', txt: 'not counted in the key' },
      { t: 'j', ts: 4, tn: 0 },
    ]);
    expect(orders.rejected).toBe(4);
    expect(orders.rejectReasons).toEqual({ 'UNKNOWN (post-only order would cross the book)': 2, INSUFFICIENT_MARGIN: 1, UNKNOWN: 1 });
  });
});
