import { describe, it, expect } from 'vitest';
import { SessionStats, type SessionStatsSnapshot } from '../../src/market/session-stats.ts';
import { RandomStream } from '../../src/random/random-stream.ts';

const DAY = 86400;
const JAN1 = Date.UTC(2024, 0, 1) / 1000;

describe('SessionStats', () => {
  it('reports everything undefined except volume 0 before any trade', () => {
    expect(new SessionStats().snapshot()).toEqual({
      lastTicks: undefined,
      lastQtyLots: undefined,
      openTicks: undefined,
      highTicks: undefined,
      lowTicks: undefined,
      volumeLots: 0,
    });
  });

  it('tracks last, open, high, low and volume within one session', () => {
    const stats = new SessionStats();
    stats.addTrade(JAN1 + 10, 100, 2);
    stats.addTrade(JAN1 + 20, 120, 1);
    stats.addTrade(JAN1 + 30, 90, 4);
    stats.addTrade(JAN1 + 40, 110, 3);
    expect(stats.snapshot()).toEqual({
      lastTicks: 110,
      lastQtyLots: 3,
      openTicks: 100,
      highTicks: 120,
      lowTicks: 90,
      volumeLots: 10,
    });
  });

  it('starts a new session with the first trade at or after 00:00 UTC', () => {
    const stats = new SessionStats();
    stats.addTrade(JAN1 + DAY - 1, 100, 5);
    stats.addTrade(JAN1 + DAY - 1, 130, 1);
    expect(stats.snapshot()).toMatchObject({ openTicks: 100, highTicks: 130, volumeLots: 6 });
    stats.addTrade(JAN1 + DAY, 80, 2);
    expect(stats.snapshot()).toEqual({
      lastTicks: 80,
      lastQtyLots: 2,
      openTicks: 80,
      highTicks: 80,
      lowTicks: 80,
      volumeLots: 2,
    });
    expect(stats.currentSessionStartSec).toBe(JAN1 + DAY);
  });

  it('resets open, high, low and volume but keeps the last trade when rolled past a boundary', () => {
    const stats = new SessionStats();
    stats.addTrade(JAN1 + 5, 100, 5);
    expect(stats.rollTo(JAN1 + DAY - 1)).toBe(false);
    expect(stats.snapshot().volumeLots).toBe(5);
    expect(stats.rollTo(JAN1 + DAY)).toBe(true);
    expect(stats.snapshot()).toEqual({
      lastTicks: 100,
      lastQtyLots: 5,
      openTicks: undefined,
      highTicks: undefined,
      lowTicks: undefined,
      volumeLots: 0,
    });
    expect(stats.rollTo(JAN1 + DAY + 1)).toBe(false);
    stats.addTrade(JAN1 + DAY + 2, 90, 1);
    expect(stats.snapshot()).toMatchObject({ openTicks: 90, lowTicks: 90, volumeLots: 1 });
  });

  it('resets several days later when trading skips whole days', () => {
    const stats = new SessionStats();
    stats.addTrade(JAN1, 100, 5);
    stats.addTrade(JAN1 + 3 * DAY + 7, 150, 1);
    expect(stats.snapshot()).toMatchObject({ openTicks: 150, volumeLots: 1 });
    expect(stats.currentSessionStartSec).toBe(JAN1 + 3 * DAY);
  });

  it('honours a session boundary offset from 00:00 UTC', () => {
    const stats = new SessionStats({ sessionStartOffsetSec: 22 * 3600 });
    stats.addTrade(JAN1 + 21 * 3600, 100, 1);
    stats.addTrade(JAN1 + 23 * 3600, 101, 1);
    expect(stats.snapshot()).toMatchObject({ openTicks: 101, volumeLots: 1 });
    stats.addTrade(JAN1 + DAY + 3600, 102, 1);
    expect(stats.snapshot()).toMatchObject({ openTicks: 101, highTicks: 102, volumeLots: 2 });
    expect(stats.sessionStartSec(JAN1 + DAY + 3600)).toBe(JAN1 + 22 * 3600);
  });

  it('rejects an invalid session offset', () => {
    expect(() => new SessionStats({ sessionStartOffsetSec: DAY })).toThrow(RangeError);
    expect(() => new SessionStats({ sessionStartOffsetSec: -1 })).toThrow(RangeError);
    expect(() => new SessionStats({ sessionStartOffsetSec: 0.5 })).toThrow(RangeError);
  });

  it('rejects time going back across trades and rolls and leaves the stats unchanged', () => {
    const stats = new SessionStats();
    stats.addTrade(JAN1 + 100, 100, 1);
    stats.rollTo(JAN1 + 200);
    expect(() => stats.addTrade(JAN1 + 150, 200, 1)).toThrow(RangeError);
    expect(() => stats.rollTo(JAN1 + 199)).toThrow(RangeError);
    expect(() => stats.addTrade(JAN1 + 300, 200, 0)).toThrow(RangeError);
    expect(stats.snapshot()).toMatchObject({ lastTicks: 100, volumeLots: 1 });
  });

  it('matches a brute-force recomputation over seeded random trades and rolls', () => {
    for (const seed of ['session-1', 'session-2', 'session-3']) {
      const rng = new RandomStream(seed);
      const offset = rng.pick([0, 0, rng.int(0, DAY - 1)]);
      const stats = new SessionStats({ sessionStartOffsetSec: offset });
      const trades: { sec: number; price: number; qty: number }[] = [];
      let sec = JAN1 + rng.int(0, DAY);
      let latest = sec;
      for (let step = 0; step < 2_000; step++) {
        sec += rng.pick([0, rng.int(1, 600), rng.int(600, 40_000)]);
        if (rng.chance(0.15)) {
          stats.rollTo(sec);
        } else {
          const trade = { sec, price: rng.int(50, 150), qty: rng.int(1, 9) };
          trades.push(trade);
          stats.addTrade(trade.sec, trade.price, trade.qty);
        }
        latest = sec;
        const session = Math.floor((latest - offset) / DAY);
        const inSession = trades.filter((t) => Math.floor((t.sec - offset) / DAY) === session);
        const last = trades[trades.length - 1];
        const expected: SessionStatsSnapshot = {
          lastTicks: last?.price,
          lastQtyLots: last?.qty,
          openTicks: inSession[0]?.price,
          highTicks: inSession.length === 0 ? undefined : Math.max(...inSession.map((t) => t.price)),
          lowTicks: inSession.length === 0 ? undefined : Math.min(...inSession.map((t) => t.price)),
          volumeLots: inSession.reduce((s, t) => s + t.qty, 0),
        };
        expect(stats.snapshot()).toEqual(expected);
      }
    }
  });
});
