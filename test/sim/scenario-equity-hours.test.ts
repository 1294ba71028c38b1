import { describe, expect, it } from 'vitest';
import { formatTimestamp } from '../../src/core/time.ts';
import { loadScenario } from '../../src/scenario/load.ts';
import { buildSimulation } from '../../src/sim/build.ts';

describe('the equity-hours scenario', () => {
  it('rejects orders before the open, trades in session, and ends orders with Done for Day at the close', { timeout: 60_000 }, () => {
    const sim = buildSimulation(loadScenario('equity-hours'));
    const market = sim.venue.market('AAPLUSD-PERP')!;
    const closedRejects: number[] = [];
    const doneForDay: string[] = [];
    const tradeTimes: number[] = [];
    sim.venue.subscribe({
      orderFeed: (_user, feed) => {
        if (feed.t === 'j' && feed.r === 'EXCHANGE_CLOSED') closedRejects.push(feed.ts);
        if (feed.t === 'd') doneForDay.push(formatTimestamp(feed.ts, feed.tn));
      },
      trade: (t) => void tradeTimes.push(t.sec),
    });
    sim.runToEnd();
    const open = Date.UTC(2026, 0, 5, 14, 30) / 1000;
    const close = Date.UTC(2026, 0, 5, 21, 0) / 1000;
    expect(closedRejects.some((t) => t < open)).toBe(true);
    expect(closedRejects.every((t) => t < open || t >= close)).toBe(true);
    expect(tradeTimes.length).toBeGreaterThan(1000);
    expect(tradeTimes.every((t) => t >= open && t < close)).toBe(true);
    expect(doneForDay.length).toBeGreaterThan(5);
    expect(new Set(doneForDay)).toEqual(new Set(['2026-01-05T21:00:00.000000000Z']));
    expect(market.state).toBe('CLOSED');
    expect(market.book.orderCount).toBe(0);
    expect(market.fundingHistory).toHaveLength(1); // 20:00, in session
  });
});
