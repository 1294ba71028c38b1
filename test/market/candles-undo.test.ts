import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { CANDLE_INTERVALS, CANDLES_SAVED, CandleSeries, candleStartSec, type CandleInterval } from '../../src/market/candles.ts';
import { SessionStats, SNAPSHOT_NUMBERS, STATS_SAVED, snapshotFrom } from '../../src/market/session-stats.ts';
import type { Side } from '../../src/core/types.ts';

const INTERVALS = Object.keys(CANDLE_INTERVALS) as CandleInterval[];

interface Trade {
  dSec: number;
  price: number;
  qty: number;
  side: Side;
}

const trade = fc.record({
  dSec: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 90_000 })),
  price: fc.integer({ min: 1, max: 1_000_000 }),
  qty: fc.integer({ min: 1, max: 1_000 }),
  side: fc.constantFrom<Side>('B', 'S'),
});

/** Adds `trades` from `sec` on; returns the time of the last one. */
function addAll(candles: CandleSeries, stats: SessionStats, sec: number, trades: readonly Trade[]): number {
  for (const t of trades) {
    sec += t.dSec;
    candles.addTrade(sec, t.price, t.qty, t.side);
    stats.addTrade(sec, t.price, t.qty);
  }
  return sec;
}

/** Everything a reader of the candles sees. */
function everyCandle(c: CandleSeries) {
  return INTERVALS.map((i) => ({ interval: i, candles: c.query(i, -Infinity, Infinity), last: c.last(i), time: c.lastTradeTimeSec }));
}

describe('candles and session stats saved as numbers (the venue undo of a failed command)', () => {
  it('restoring what saveTo wrote gives back exactly the series and stats as they were, whatever was added since', () => {
    fc.assert(
      fc.property(fc.array(trade, { maxLength: 30 }), fc.array(trade, { minLength: 1, maxLength: 30 }), (before, after) => {
        const start = 1_704_067_200;
        const candles = new CandleSeries();
        const stats = new SessionStats();
        const sec = addAll(candles, stats, start, before);
        const saved = new Float64Array(CANDLES_SAVED + STATS_SAVED);
        candles.saveTo(saved, 0);
        stats.saveTo(saved, CANDLES_SAVED);
        const expectedCandles = everyCandle(candles);
        const expectedStats = stats.snapshot();
        addAll(candles, stats, sec, after);
        candles.restoreFrom(saved, 0);
        stats.restoreFrom(saved, CANDLES_SAVED);
        expect(everyCandle(candles)).toEqual(expectedCandles);
        expect(stats.snapshot()).toEqual(expectedStats);
        // …and the restored series goes on as the untouched one would.
        const twin = new CandleSeries();
        const twinStats = new SessionStats();
        addAll(twin, twinStats, start, before);
        addAll(twin, twinStats, sec, after);
        addAll(candles, stats, sec, after);
        expect(everyCandle(candles)).toEqual(everyCandle(twin));
        expect(stats.snapshot()).toEqual(twinStats.snapshot());
      }),
      { numRuns: 200 },
    );
  });

  it('the stats kept for a trade show as the snapshot taken then', () => {
    fc.assert(
      fc.property(fc.array(trade, { maxLength: 20 }), (trades) => {
        const stats = new SessionStats();
        addAll(new CandleSeries(), stats, 1_704_067_200, trades);
        const kept = new Float64Array(STATS_SAVED);
        stats.saveTo(kept, 0);
        expect(snapshotFrom(kept, 0)).toEqual(stats.snapshot());
      }),
    );
  });

  it('shown as of kept numbers, other stats answer the snapshot and the written numbers taken then, and their own after', () => {
    fc.assert(
      fc.property(fc.array(trade, { maxLength: 20 }), fc.array(trade, { maxLength: 5 }), fc.nat(3), (trades, later, at) => {
        const stats = new SessionStats();
        const end = addAll(new CandleSeries(), stats, 1_704_067_200, trades);
        const kept = new Float64Array(STATS_SAVED + at);
        stats.saveTo(kept, at);
        const then = stats.snapshot();
        const thenWritten = new Float64Array(SNAPSHOT_NUMBERS);
        stats.writeSnapshot(thenWritten, 0);
        addAll(new CandleSeries(), stats, end + 86_400, later);
        const own = stats.snapshot();
        stats.showAsOf(kept, at);
        expect(stats.snapshot()).toEqual(then);
        const written = new Float64Array(SNAPSHOT_NUMBERS);
        stats.writeSnapshot(written, 0);
        expect(written).toEqual(thenWritten);
        stats.showAsOf(undefined);
        expect(stats.snapshot()).toEqual(own);
      }),
    );
  });
});

describe('candle volume room', () => {
  it('equals the room left in the fullest current bucket of any interval (the day bounds them all)', () => {
    fc.assert(
      fc.property(fc.array(trade, { maxLength: 40 }), fc.integer({ min: 0, max: 200_000 }), (trades, ahead) => {
        const candles = new CandleSeries();
        const stats = new SessionStats();
        const sec = addAll(candles, stats, 1_704_067_200, trades);
        const at = sec + ahead;
        // Order entry's boolean form agrees at the edge, for the candles and the session.
        for (const room of [candles.volumeRoomLots(at), stats.volumeRoomLots(at)]) expect(room).toBeGreaterThan(0);
        for (const q of [1, candles.volumeRoomLots(at), candles.volumeRoomLots(at) + 1]) expect(candles.volumeFits(at, q)).toBe(q <= candles.volumeRoomLots(at));
        for (const q of [1, stats.volumeRoomLots(at), stats.volumeRoomLots(at) + 1]) expect(stats.volumeFits(at, q)).toBe(q <= stats.volumeRoomLots(at));
        let fullest = 0;
        for (const i of INTERVALS) {
          const last = candles.last(i);
          if (last !== undefined && last.startSec === candleStartSec(at, i)) fullest = Math.max(fullest, last.volumeLots);
        }
        expect(candles.volumeRoomLots(at)).toBe(Number.MAX_SAFE_INTEGER - fullest);
      }),
      { numRuns: 300 },
    );
  });

  it('a trade that would take a bucket past 2^53 is refused and changes nothing', () => {
    const candles = new CandleSeries();
    candles.addTrade(100, 10, Number.MAX_SAFE_INTEGER - 5, 'B');
    const before = everyCandle(candles);
    expect(() => candles.addTrade(101, 10, 6, 'S')).toThrow(RangeError);
    expect(everyCandle(candles)).toEqual(before);
    candles.addTrade(101, 10, 5, 'S');
    expect(candles.last('1d')!.volumeLots).toBe(Number.MAX_SAFE_INTEGER);
  });
});
