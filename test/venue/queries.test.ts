import { describe, it, expect } from 'vitest';
import { VenueQueryError, type Venue } from '../../src/venue/venue.ts';
import { T0_NS, at, makeVenue, place } from './fixtures.ts';

/** The VenueQueryError `fn` throws (fails the test when it throws nothing or something else). */
function queryError(fn: () => unknown): VenueQueryError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(VenueQueryError);
    return e as VenueQueryError;
  }
  throw new Error('expected a VenueQueryError');
}

describe('history queries', () => {
  it('records the mark price every 60 s of sim time once the venue is started', () => {
    const { venue, clock, btc } = makeVenue();
    clock.runUntil(at(30));
    expect(venue.mtmPrices('BTCUSD-PERP', T0_NS, at(1000))).toEqual([]); // nothing before start
    venue.start();
    clock.runUntil(at(100));
    venue.setIndexPrice(btc, btc.instrument.tick.toTicks('50100.5')!);
    clock.runUntil(at(330));

    expect(venue.mtmPrices('BTCUSD-PERP', T0_NS, at(330))).toEqual([
      { timestamp: '2024-01-01T00:01:30.000000000Z', symbol: 'BTCUSD-PERP', mtm_price: '50000' },
      { timestamp: '2024-01-01T00:02:30.000000000Z', symbol: 'BTCUSD-PERP', mtm_price: '50100.5' },
      { timestamp: '2024-01-01T00:03:30.000000000Z', symbol: 'BTCUSD-PERP', mtm_price: '50100.5' },
      { timestamp: '2024-01-01T00:04:30.000000000Z', symbol: 'BTCUSD-PERP', mtm_price: '50100.5' },
      { timestamp: '2024-01-01T00:05:30.000000000Z', symbol: 'BTCUSD-PERP', mtm_price: '50100.5' },
    ]);
    // Both ends are inclusive.
    expect(venue.mtmPrices('BTCUSD-PERP', at(150), at(210)).map((r) => r.timestamp)).toEqual([
      '2024-01-01T00:02:30.000000000Z',
      '2024-01-01T00:03:30.000000000Z',
    ]);
  });

  it('keeps one mark record per instant when the minute cadence meets a funding', () => {
    const { venue, clock } = makeVenue();
    venue.start();
    clock.runUntil(at(8 * 3600));
    const records = venue.mtmPrices('BTCUSD-PERP', T0_NS, at(8 * 3600));
    expect(records).toHaveLength(480);
    expect(records.at(-1)!.timestamp).toBe('2024-01-01T08:00:00.000000000Z');
    expect(new Set(records.map((r) => r.timestamp)).size).toBe(480);
    expect(venue.fundingRates('BTCUSD-PERP', T0_NS, at(8 * 3600))).toHaveLength(1);
  });

  it('aggregates trades into 1m candles with string prices and volumes, omitting minutes without trades', () => {
    const { venue, clock, user } = makeVenue();
    const maker = user('maker');
    const taker = user('taker');
    const trade = (sec: number, aggressor: 'B' | 'S', price: string, qty: number) => {
      clock.runUntil(at(sec));
      place(venue, maker, aggressor === 'B' ? 'S' : 'B', price, qty);
      place(venue, taker, aggressor, price, qty);
    };
    trade(5, 'B', '50000', 1);
    trade(20, 'S', '50010', 2);
    trade(50, 'B', '49990.5', 3);
    trade(150, 'B', '50020', 1);

    const result = venue.candles('BTCUSD-PERP', '1m', T0_NS, at(300));
    expect(result).toEqual({
      market: 'BTCUSD-PERP',
      interval: '1m',
      candles: [
        {
          timestamp: '2024-01-01T00:00:00.000000000Z',
          open: '50000',
          high: '50010',
          low: '49990.5',
          close: '49990.5',
          volume: '6',
          buy_volume: '4',
          sell_volume: '2',
        },
        {
          timestamp: '2024-01-01T00:02:00.000000000Z',
          open: '50020',
          high: '50020',
          low: '50020',
          close: '50020',
          volume: '1',
          buy_volume: '1',
          sell_volume: '0',
        },
      ],
    });
    expect(venue.candles('BTCUSD-PERP', '1m', at(120), at(300)).candles.map((c) => c.timestamp)).toEqual(['2024-01-01T00:02:00.000000000Z']);
    expect(venue.candles('BTCUSD-PERP', '1h', T0_NS, at(300)).candles).toEqual([
      expect.objectContaining({ open: '50000', close: '50020', high: '50020', low: '49990.5', volume: '7' }),
    ]);
  });

  it('starts a new stats session at 00:00 UTC even when the venue started mid-day', () => {
    const { venue, clock, btc, user } = makeVenue({ startNs: at(9 * 3600) });
    venue.start();
    clock.runUntil(at(10 * 3600));
    place(venue, user('maker'), 'S', '50000', 2);
    place(venue, user('taker'), 'B', '50000', 2);
    expect(btc.stats.snapshot()).toMatchObject({ volumeLots: 2, openTicks: 100_000 });

    clock.runUntil(at(86_400) - 1n);
    expect(btc.stats.snapshot().volumeLots).toBe(2);
    clock.runUntil(at(86_400));
    expect(btc.stats.snapshot()).toEqual({
      lastTicks: 100_000,
      lastQtyLots: 2,
      openTicks: undefined,
      highTicks: undefined,
      lowTicks: undefined,
      volumeLots: 0,
    });
  });

  it('throws VenueQueryError naming the field for an unknown interval, market or symbol and for end before start', () => {
    const { venue } = makeVenue();
    const cases: [string, (v: Venue) => unknown][] = [
      ['interval', (v) => v.candles('BTCUSD-PERP', '2m', T0_NS, at(60))],
      ['market', (v) => v.candles('ETHUSD-PERP', '1m', T0_NS, at(60))],
      ['end_time', (v) => v.candles('BTCUSD-PERP', '1m', at(60), T0_NS)],
      ['symbol', (v) => v.mtmPrices('NOPE-PERP', T0_NS, at(60))],
      ['end_time', (v) => v.mtmPrices('BTCUSD-PERP', at(60), at(59))],
      ['symbol', (v) => v.fundingRates('NOPE-PERP', T0_NS, at(60))],
      ['end_time', (v) => v.fundingRates('BTCUSD-PERP', at(60), T0_NS)],
    ];
    for (const [field, query] of cases) {
      const error = queryError(() => query(venue));
      expect(error.field).toBe(field);
      expect(error.message.length).toBeGreaterThan(0);
    }
    expect(queryError(() => venue.candles('BTCUSD-PERP', '2m', T0_NS, at(60))).message).toContain('1m');
  });
});
