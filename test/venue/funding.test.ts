import { describe, it, expect } from 'vitest';
import { HOUR_NS, T0_NS, at, btcConfig, makeVenue, money, place, type TestVenue } from './fixtures.ts';

/** alice long 2, bob short 2, both at 50000, the book empty again (mark = index). */
function longAndShort(t: TestVenue) {
  const alice = t.user('alice');
  const bob = t.user('bob');
  place(t.venue, bob, 'S', '50000', 2);
  place(t.venue, alice, 'B', '50000', 2);
  expect(t.btc.book.orderCount).toBe(0);
  return { alice, bob };
}

describe('funding', () => {
  it('settles at 08:00 UTC with a hand-computed amount, longs paying shorts when the mark traded above the index', () => {
    const t = makeVenue();
    const { venue, clock, btc } = t;
    venue.start();
    const { alice, bob } = longAndShort(t);
    const aliceCash = alice.cash;
    const bobCash = bob.cash;

    // Mark = index (empty book): 50000 for 4 h, then 49900 for 4 h.
    clock.runUntil(T0_NS + 4n * HOUR_NS);
    venue.setIndexPrice(btc, btc.instrument.tick.toTicks('49900')!);
    clock.runUntil(T0_NS + 8n * HOUR_NS - 1n);
    expect(btc.fundingHistory).toHaveLength(0);
    clock.runUntil(T0_NS + 8n * HOUR_NS);

    // settlement = (50000 × 4 h + 49900 × 4 h) / 8 h = 49950; benchmark = index = 49900;
    // amount = 49950 − 49900 = 50; rate = 50 / 49900 = 0.001002004008016…
    expect(venue.fundingRates('BTCUSD-PERP', T0_NS, T0_NS + 8n * HOUR_NS)).toEqual([
      {
        timestamp: '2024-01-01T08:00:00.000000000Z',
        symbol: 'BTCUSD-PERP',
        benchmark_price: '49900',
        settlement_price: '49950',
        funding_amount: '50',
        funding_rate: '0.001002004008',
      },
    ]);
    // amount × qty × multiplier = 50 × 2 × 1 = 100, long pays short.
    expect(alice.cash - aliceCash).toBe(-money('100'));
    expect(bob.cash - bobCash).toBe(money('100'));
    expect(alice.findPosition(btc)!.funding).toBe(-money('100'));
    expect(venue.riskSnapshot(bob).positions[0]!.realized_pnl).toBe('100');

    // The next interval starts afresh: 8 h flat at 49900 → amount 0 at 16:00.
    clock.runUntil(T0_NS + 16n * HOUR_NS);
    expect(venue.fundingRates('BTCUSD-PERP', T0_NS, at(86_400)).map((r) => [r.timestamp, r.funding_amount, r.funding_rate])).toEqual([
      ['2024-01-01T08:00:00.000000000Z', '50', '0.001002004008'],
      ['2024-01-01T16:00:00.000000000Z', '0', '0'],
    ]);
    expect(alice.cash - aliceCash).toBe(-money('100'));
  });

  it('makes shorts pay longs when the mark traded below the index', () => {
    const t = makeVenue();
    const { venue, btc, clock } = t;
    venue.start();
    const { alice, bob } = longAndShort(t);
    const aliceCash = alice.cash;
    clock.runUntil(T0_NS + 2n * HOUR_NS);
    venue.setIndexPrice(btc, btc.instrument.tick.toTicks('50080')!);
    clock.runUntil(T0_NS + 8n * HOUR_NS);

    // settlement = (50000 × 2 + 50080 × 6) / 8 = 50060; amount = 50060 − 50080 = −20.
    const [record] = venue.fundingRates('BTCUSD-PERP', T0_NS, T0_NS + 8n * HOUR_NS);
    expect(record).toMatchObject({ settlement_price: '50060', benchmark_price: '50080', funding_amount: '-20' });
    expect(record!.funding_rate).toBe('-0.000399361022'); // −20 / 50080
    expect(alice.cash - aliceCash).toBe(money('40'));
    expect(bob.findPosition(btc)!.funding).toBe(-money('40'));
  });

  it('clamps the rate to the 2% cap when the premium is larger, and scales the amount with it', () => {
    const t = makeVenue();
    const { venue, clock, btc } = t;
    venue.start();
    const { alice, bob } = longAndShort(t);
    const aliceCash = alice.cash;
    const bobCash = bob.cash;

    clock.runUntil(T0_NS + 6n * HOUR_NS);
    venue.setIndexPrice(btc, btc.instrument.tick.toTicks('48000')!);
    clock.runUntil(T0_NS + 8n * HOUR_NS);

    // settlement = (50000 × 6 + 48000 × 2) / 8 = 49500; raw rate = 1500 / 48000 = 3.125% > 2%.
    // Clamped: rate 0.02, amount = 0.02 × 48000 = 960 per contract.
    const [record] = venue.fundingRates('BTCUSD-PERP', T0_NS, T0_NS + 8n * HOUR_NS);
    expect(record).toMatchObject({ benchmark_price: '48000', settlement_price: '49500', funding_amount: '960', funding_rate: '0.02' });
    expect(alice.cash - aliceCash).toBe(-money('1920'));
    expect(bob.cash - bobCash).toBe(money('1920'));
  });

  it('uses the instrument’s cap and multiplier', () => {
    const t = makeVenue({ instruments: [btcConfig({ multiplier: 5, funding: { capRate: '0.001' } })] });
    const { venue, clock, btc } = t;
    venue.start();
    const { alice, bob } = longAndShort(t);
    const aliceCash = alice.cash;
    const bobCash = bob.cash;
    clock.runUntil(T0_NS + 4n * HOUR_NS);
    venue.setIndexPrice(btc, btc.instrument.tick.toTicks('49900')!);
    clock.runUntil(T0_NS + 8n * HOUR_NS);

    // Raw rate 0.1002…% > 0.1%: clamped to 0.001, amount = 0.001 × 49900 = 49.9; paid × 2 × 5.
    const [record] = venue.fundingRates('BTCUSD-PERP', T0_NS, T0_NS + 8n * HOUR_NS);
    expect(record).toMatchObject({ funding_amount: '49.9', funding_rate: '0.001' });
    expect(alice.cash - aliceCash).toBe(-money('499'));
    expect(bob.cash - bobCash).toBe(money('499'));
  });
});
