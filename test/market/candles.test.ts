import { describe, it, expect } from 'vitest';
import {
  CANDLE_INTERVALS,
  CandleSeries,
  candleStartSec,
  isCandleInterval,
  type Candle,
  type CandleInterval,
} from '../../src/market/candles.ts';
import { RandomStream } from '../../src/random/random-stream.ts';
import type { Side } from '../../src/core/types.ts';

interface Trade {
  sec: number;
  price: number;
  qty: number;
  side: Side;
}

const INTERVALS = Object.keys(CANDLE_INTERVALS) as CandleInterval[];

/** Brute force: group every trade by its bucket, computed with a modulo instead of a floor. */
function bruteCandles(trades: readonly Trade[], width: number): Candle[] {
  const byStart = new Map<number, Trade[]>();
  for (const t of trades) {
    const start = t.sec - (((t.sec % width) + width) % width);
    const list = byStart.get(start) ?? [];
    list.push(t);
    byStart.set(start, list);
  }
  return [...byStart.keys()]
    .sort((a, b) => a - b)
    .map((start) => {
      const list = byStart.get(start)!;
      const prices = list.map((t) => t.price);
      const buy = list.filter((t) => t.side === 'B').reduce((s, t) => s + t.qty, 0);
      const sell = list.filter((t) => t.side === 'S').reduce((s, t) => s + t.qty, 0);
      return {
        startSec: start,
        openTicks: list[0]!.price,
        highTicks: Math.max(...prices),
        lowTicks: Math.min(...prices),
        closeTicks: list[list.length - 1]!.price,
        volumeLots: buy + sell,
        buyVolumeLots: buy,
        sellVolumeLots: sell,
      };
    });
}

function randomTrades(rng: RandomStream, count: number, firstSec: number): Trade[] {
  const trades: Trade[] = [];
  let sec = firstSec;
  let price = 10_000;
  for (let i = 0; i < count; i++) {
    const gapKind = rng.int(0, 9);
    if (gapKind <= 2) sec += 0;
    else if (gapKind <= 6) sec += rng.int(1, 7);
    else if (gapKind <= 8) sec += rng.int(8, 2_000);
    else sec += rng.int(2_000, 100_000);
    price = Math.max(1, price + rng.int(-25, 25));
    trades.push({ sec, price, qty: rng.int(1, 50), side: rng.chance(0.5) ? 'B' : 'S' });
  }
  return trades;
}

function feed(trades: readonly Trade[]): CandleSeries {
  const series = new CandleSeries();
  for (const t of trades) series.addTrade(t.sec, t.price, t.qty, t.side);
  return series;
}

describe('candle intervals', () => {
  it('recognises exactly the seven documented interval names', () => {
    for (const name of ['1s', '5s', '1m', '5m', '15m', '1h', '1d']) expect(isCandleInterval(name)).toBe(true);
    for (const name of ['1M', '2m', '', ' 1m', '1w', 'toString', 'constructor']) expect(isCandleInterval(name)).toBe(false);
  });

  it('aligns bucket starts to the Unix epoch, including before 1970', () => {
    expect(candleStartSec(125, '1m')).toBe(120);
    expect(candleStartSec(120, '1m')).toBe(120);
    expect(candleStartSec(-1, '1m')).toBe(-60);
    expect(candleStartSec(-60, '1m')).toBe(-60);
    expect(candleStartSec(7, '5s')).toBe(5);
  });
});

describe('CandleSeries', () => {
  it('aggregates open, high, low, close and buy and sell volume within one bucket', () => {
    const series = new CandleSeries();
    series.addTrade(60, 100, 3, 'B');
    series.addTrade(70, 105, 2, 'S');
    series.addTrade(80, 95, 4, 'B');
    series.addTrade(119, 101, 1, 'S');
    expect(series.query('1m', 60, 119)).toEqual([
      {
        startSec: 60,
        openTicks: 100,
        highTicks: 105,
        lowTicks: 95,
        closeTicks: 101,
        volumeLots: 10,
        buyVolumeLots: 7,
        sellVolumeLots: 3,
      },
    ]);
  });

  it('omits buckets without trades', () => {
    const series = new CandleSeries();
    series.addTrade(10, 100, 1, 'B');
    series.addTrade(11, 101, 1, 'S');
    series.addTrade(15, 102, 1, 'B');
    expect(series.query('1s', 0, 100).map((c) => c.startSec)).toEqual([10, 11, 15]);
    expect(series.query('5s', 0, 100).map((c) => c.startSec)).toEqual([10, 15]);
    expect(series.query('1s', 12, 14)).toEqual([]);
    expect(series.count('1s')).toBe(3);
    expect(series.count('5s')).toBe(2);
  });

  it('includes a bucket that started before the range but overlaps its start', () => {
    const series = new CandleSeries();
    series.addTrade(10, 100, 1, 'B');
    series.addTrade(15, 102, 1, 'B');
    expect(series.query('5s', 12, 14).map((c) => c.startSec)).toEqual([10]);
    expect(series.query('5s', 14.5, 15).map((c) => c.startSec)).toEqual([10, 15]);
    expect(series.query('5s', 15, 15).map((c) => c.startSec)).toEqual([15]);
    expect(series.query('5s', 9, 9.99)).toEqual([]);
  });

  it('starts daily candles at 00:00 UTC', () => {
    const lastSecondOfDay = Date.UTC(2024, 0, 1, 23, 59, 59) / 1000;
    const midnight = Date.UTC(2024, 0, 2) / 1000;
    const series = new CandleSeries();
    series.addTrade(lastSecondOfDay, 100, 1, 'B');
    series.addTrade(midnight, 200, 2, 'S');
    const days = series.query('1d', lastSecondOfDay, midnight);
    expect(days.map((c) => c.startSec)).toEqual([Date.UTC(2024, 0, 1) / 1000, midnight]);
    expect(days[1]!.openTicks).toBe(200);
    expect(series.last('1h')!.startSec).toBe(midnight);
    expect(series.query('1h', 0, lastSecondOfDay)[0]!.startSec).toBe(Date.UTC(2024, 0, 1, 23) / 1000);
  });

  it('rejects a query whose end is before its start', () => {
    const series = new CandleSeries();
    series.addTrade(10, 100, 1, 'B');
    expect(() => series.query('1s', 11, 10)).toThrow(RangeError);
    expect(() => series.query('1s', Number.NaN, 10)).toThrow(RangeError);
    expect(series.query('1s', 10, 10)).toHaveLength(1);
  });

  it('rejects a trade earlier than the previous one and leaves the candles unchanged', () => {
    const series = new CandleSeries();
    series.addTrade(100, 50, 1, 'B');
    expect(() => series.addTrade(99, 60, 1, 'S')).toThrow(RangeError);
    series.addTrade(100, 70, 2, 'S');
    expect(series.last('1s')).toMatchObject({ openTicks: 50, highTicks: 70, volumeLots: 3, sellVolumeLots: 2 });
  });

  it('rejects non-integer times, prices and quantities and non-positive quantities', () => {
    const series = new CandleSeries();
    expect(() => series.addTrade(1.5, 100, 1, 'B')).toThrow(RangeError);
    expect(() => series.addTrade(1, 100.5, 1, 'B')).toThrow(RangeError);
    expect(() => series.addTrade(1, 100, 0, 'B')).toThrow(RangeError);
    expect(() => series.addTrade(1, 100, -3, 'B')).toThrow(RangeError);
    expect(() => series.addTrade(1, 100, 1, 'X' as Side)).toThrow(RangeError);
    expect(series.last('1s')).toBeUndefined();
    expect(series.lastTradeTimeSec).toBeUndefined();
  });

  it('rejects a trade that would push a bucket volume past the safe integer range', () => {
    const series = new CandleSeries();
    series.addTrade(0, 1, Number.MAX_SAFE_INTEGER - 1, 'B');
    expect(() => series.addTrade(86399, 1, 2, 'B')).toThrow(RangeError);
    expect(series.last('1s')!.startSec).toBe(0);
  });

  it('rejects a trade within the second of the last one that would push the day past the safe integer range, counting the earlier seconds', () => {
    const series = new CandleSeries();
    series.addTrade(0, 1, Number.MAX_SAFE_INTEGER - 10, 'B');
    series.addTrade(5, 2, 5, 'S');
    // The day holds MAX − 5 lots, the open second 5 of them.
    expect(() => series.addTrade(5, 3, 6, 'B')).toThrow(RangeError);
    series.addTrade(5, 3, 5, 'B');
    expect(series.last('1d')).toMatchObject({ volumeLots: Number.MAX_SAFE_INTEGER, highTicks: 3, lowTicks: 1, closeTicks: 3 });
    expect(series.last('1s')).toMatchObject({ startSec: 5, volumeLots: 10, buyVolumeLots: 5, highTicks: 3, lowTicks: 2 });
  });

  it('rejects bad prices, quantities and sides within the second of the last trade, changing nothing', () => {
    const series = new CandleSeries();
    series.addTrade(7, 100, 1, 'B');
    expect(() => series.addTrade(7, 100.5, 1, 'B')).toThrow(RangeError);
    expect(() => series.addTrade(7, 100, 0, 'B')).toThrow(RangeError);
    expect(() => series.addTrade(7, 100, 1.5, 'S')).toThrow(RangeError);
    expect(() => series.addTrade(7, 100, 1, 'X' as Side)).toThrow(RangeError);
    expect(series.last('1s')).toMatchObject({ startSec: 7, volumeLots: 1, highTicks: 100, lowTicks: 100 });
  });

  it('returns undefined as the last candle before any trade', () => {
    const series = new CandleSeries();
    for (const interval of INTERVALS) expect(series.last(interval)).toBeUndefined();
    expect(series.query('1m', 0, 1e12)).toEqual([]);
  });

  it('returns fresh candle objects that do not alias the stored data', () => {
    const series = new CandleSeries();
    series.addTrade(5, 100, 1, 'B');
    series.last('1s')!.highTicks = 999;
    expect(series.last('1s')!.highTicks).toBe(100);
  });

  it('matches a brute-force aggregation of seeded random trades for every interval and range', () => {
    for (const seed of ['candles-1', 'candles-2', 'candles-3', 'candles-4']) {
      const rng = new RandomStream(seed);
      const firstSec = seed === 'candles-4' ? -200_000 : 1_700_000_000 + rng.int(0, 86_399);
      const trades = randomTrades(rng, 3_000, firstSec);
      const series = feed(trades);
      const lo = trades[0]!.sec - 2 * 86400;
      const hi = trades[trades.length - 1]!.sec + 2 * 86400;
      for (const interval of INTERVALS) {
        const width = CANDLE_INTERVALS[interval];
        const expected = bruteCandles(trades, width);
        expect(series.count(interval)).toBe(expected.length);
        expect(series.query(interval, -Infinity, Infinity)).toEqual(expected);
        expect(series.last(interval)).toEqual(expected[expected.length - 1]);
        for (let q = 0; q < 60; q++) {
          let start = rng.int(lo, hi);
          if (rng.chance(0.2)) start += 0.5;
          const span = rng.pick([0, rng.int(0, 10), rng.int(0, 5_000), rng.int(0, 400_000)]);
          const end = start + span;
          const want = expected.filter((c) => c.startSec <= end && c.startSec + width > start);
          expect(series.query(interval, start, end)).toEqual(want);
        }
      }
    }
  });
});
