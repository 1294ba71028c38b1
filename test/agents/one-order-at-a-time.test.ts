import { describe, expect, it } from 'vitest';
import { OneOrderAtATime } from '../../src/agents/one-order-at-a-time.ts';
import type { FeedOutcome } from '../../src/agents/own-orders.ts';
import type { ExchangePort } from '../../src/strategy/exchange-port.ts';

/** A port that only tells the time, `tSec` seconds (what the turns read). */
function portAt(clock: { tSec: number }): ExchangePort {
  return { nowSeconds: () => clock.tSec } as unknown as ExchangePort;
}

const fill = (symbol: string, done: boolean): FeedOutcome => ({ kind: 'fill', symbol, side: 'B', priceTicks: 100, qtyLots: 1, done });
const rejected = (symbol: string, reason: string): FeedOutcome => ({ kind: 'rejected', symbol, reason });

describe("a taker's turns per symbol", () => {
  it('keep a symbol busy from the order sent until a full fill, an end or a reject, not past a partial fill', () => {
    const turns = new OneOrderAtATime(portAt({ tSec: 0 }), 60);
    const ends: FeedOutcome[] = [fill('A', true), { kind: 'ended', symbol: 'A', reason: 'expired' }, rejected('A', 'INSUFFICIENT_MARGIN')];
    for (const end of ends) {
      expect(turns.busy('A')).toBe(false);
      turns.sent('A');
      turns.settle(fill('A', false));
      turns.settle({ kind: 'accepted', order: { id: '1', seq: 1, symbol: 'A', side: 'B', priceTicks: 100, tif: 'IOC', remainingLots: 1, canceling: false } });
      turns.settle(fill('B', true)); // another symbol's order
      expect(turns.busy('A')).toBe(true);
      turns.settle(end);
      expect(turns.busy('A')).toBe(false);
    }
  });

  it('pause a symbol for the back-off after an EXCHANGE_CLOSED reject, and only that symbol', () => {
    const clock = { tSec: 1000 };
    const turns = new OneOrderAtATime(portAt(clock), 60);
    turns.settle(rejected('A', 'RATE_LIMITED'));
    expect(turns.paused('A', 1000)).toBe(false);
    turns.sent('A');
    turns.settle(rejected('A', 'EXCHANGE_CLOSED'));
    expect(turns.busy('A')).toBe(false);
    expect(turns.paused('A', 1000)).toBe(true);
    expect(turns.paused('A', 1059.9)).toBe(true);
    expect(turns.paused('A', 1060)).toBe(false);
    expect(turns.paused('B', 1000)).toBe(false);
    clock.tSec = 1100; // a later reject pauses from its own time
    turns.settle(rejected('A', 'EXCHANGE_CLOSED'));
    expect(turns.paused('A', 1159)).toBe(true);
    expect(turns.paused('A', 1160)).toBe(false);
  });
});
