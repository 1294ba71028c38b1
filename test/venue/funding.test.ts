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

/** carol quotes a bid and an ask of 1 lot each; the mark becomes median(index, bid, ask). */
function quote(t: TestVenue, bid: string, ask: string) {
  const carol = t.user('carol', '10000000');
  place(t.venue, carol, 'B', bid, 1);
  place(t.venue, carol, 'S', ask, 1);
  return carol;
}

describe('funding (premium: time-weighted mark against time-weighted index)', () => {
  it('pays exactly nothing when the index drifts and the mark tracks it (no premium)', () => {
    const t = makeVenue();
    const { venue, clock, btc } = t;
    venue.start();
    const { alice, bob } = longAndShort(t);
    const aliceCash = alice.cash;
    // Mark = index (empty book): 50000 for 4 h, then 49900 for 4 h. Drift, but no premium.
    clock.runUntil(T0_NS + 4n * HOUR_NS);
    venue.setIndexPrice(btc, btc.instrument.tick.toTicks('49900')!);
    clock.runUntil(T0_NS + 8n * HOUR_NS);
    // benchmark = settlement = (50000 × 4 h + 49900 × 4 h) / 8 h = 49950 → amount 0.
    expect(venue.fundingRates('BTCUSD-PERP', T0_NS, T0_NS + 8n * HOUR_NS)).toEqual([
      {
        timestamp: '2024-01-01T08:00:00.000000000Z',
        symbol: 'BTCUSD-PERP',
        benchmark_price: '49950',
        settlement_price: '49950',
        funding_amount: '0',
        funding_rate: '0',
      },
    ]);
    expect(alice.cash).toBe(aliceCash);
    expect(bob.findPosition(btc)!.funding).toBe(0n);
  });

  it('pays the premium: a mark held 100 above a drifting index for the whole interval, hand-computed', () => {
    const t = makeVenue();
    const { venue, clock, btc } = t;
    venue.start();
    const { alice, bob } = longAndShort(t);
    const aliceCash = alice.cash;
    const bobCash = bob.cash;
    // Quotes 50100 / 50110 keep the mark at median(index, 50100, 50110) = 50100 while the index
    // is 50000 (4 h) then 49900 (4 h). Premium: 50100 − 49950 = 150.
    quote(t, '50100', '50110');
    expect(btc.markTicks).toBe(btc.instrument.tick.toTicks('50100'));
    clock.runUntil(T0_NS + 4n * HOUR_NS);
    venue.setIndexPrice(btc, btc.instrument.tick.toTicks('49900')!);
    clock.runUntil(T0_NS + 8n * HOUR_NS);
    // rate = 150 / 49950 = 0.003003003003…
    expect(venue.fundingRates('BTCUSD-PERP', T0_NS, T0_NS + 8n * HOUR_NS)).toEqual([
      {
        timestamp: '2024-01-01T08:00:00.000000000Z',
        symbol: 'BTCUSD-PERP',
        benchmark_price: '49950',
        settlement_price: '50100',
        funding_amount: '150',
        funding_rate: '0.003003003003',
      },
    ]);
    // amount × qty × multiplier = 150 × 2 × 1 = 300, long pays short.
    expect(alice.cash - aliceCash).toBe(-money('300'));
    expect(bob.cash - bobCash).toBe(money('300'));
    expect(venue.riskSnapshot(bob).positions[0]!.realized_pnl).toBe('300');
  });

  it('gives rate = premium for a constant premium, and starts each interval afresh', () => {
    const t = makeVenue();
    const { venue, clock, btc } = t;
    venue.start();
    longAndShort(t);
    quote(t, '50050', '50060'); // mark 50050 against index 50000: premium 0.1 %
    clock.runUntil(T0_NS + 16n * HOUR_NS);
    expect(venue.fundingRates('BTCUSD-PERP', T0_NS, at(86_400)).map((r) => [r.benchmark_price, r.settlement_price, r.funding_amount, r.funding_rate])).toEqual([
      ['50000', '50050', '50', '0.001'],
      ['50000', '50050', '50', '0.001'],
    ]);
    expect(btc.fundingHistory).toHaveLength(2);
  });

  it('makes shorts pay longs when the mark sits below the index', () => {
    const t = makeVenue();
    const { venue, btc, clock } = t;
    venue.start();
    const { alice, bob } = longAndShort(t);
    const aliceCash = alice.cash;
    const carol = quote(t, '49970', '49980'); // mark = median(50000, 49970, 49980) = 49980 for 6 h
    clock.runUntil(T0_NS + 6n * HOUR_NS);
    venue.cancelAll(carol); // then mark = index for 2 h
    clock.runUntil(T0_NS + 8n * HOUR_NS);
    // settlement = (49980 × 6 + 50000 × 2) / 8 = 49985; amount = −15; rate = −15 / 50000.
    const [record] = venue.fundingRates('BTCUSD-PERP', T0_NS, T0_NS + 8n * HOUR_NS);
    expect(record).toMatchObject({ settlement_price: '49985', benchmark_price: '50000', funding_amount: '-15', funding_rate: '-0.0003' });
    expect(alice.cash - aliceCash).toBe(money('30'));
    expect(bob.findPosition(btc)!.funding).toBe(-money('30'));
  });

  it('clamps the rate to the 2% cap when the premium is larger, and scales the amount with it', () => {
    const t = makeVenue();
    const { venue, clock } = t;
    venue.start();
    const { alice, bob } = longAndShort(t);
    const aliceCash = alice.cash;
    const bobCash = bob.cash;
    quote(t, '51500', '51600'); // premium 1500 / 50000 = 3 % > 2 %
    clock.runUntil(T0_NS + 8n * HOUR_NS);
    // Clamped: rate 0.02, amount = 0.02 × 50000 = 1000 per contract.
    const [record] = venue.fundingRates('BTCUSD-PERP', T0_NS, T0_NS + 8n * HOUR_NS);
    expect(record).toMatchObject({ benchmark_price: '50000', settlement_price: '51500', funding_amount: '1000', funding_rate: '0.02' });
    expect(alice.cash - aliceCash).toBe(-money('2000'));
    expect(bob.cash - bobCash).toBe(money('2000'));
  });

  it('uses the instrument’s cap and multiplier', () => {
    const t = makeVenue({ instruments: [btcConfig({ multiplier: 5, funding: { capRate: '0.001' } })] });
    const { venue, clock } = t;
    venue.start();
    const { alice, bob } = longAndShort(t);
    const aliceCash = alice.cash;
    const bobCash = bob.cash;
    quote(t, '50100', '50110'); // premium 0.2 % > 0.1 % cap
    clock.runUntil(T0_NS + 8n * HOUR_NS);
    // Clamped to 0.001: amount = 0.001 × 50000 = 50; paid × 2 × 5.
    const [record] = venue.fundingRates('BTCUSD-PERP', T0_NS, T0_NS + 8n * HOUR_NS);
    expect(record).toMatchObject({ funding_amount: '50', funding_rate: '0.001' });
    expect(alice.cash - aliceCash).toBe(-money('500'));
    expect(bob.cash - bobCash).toBe(money('500'));
  });

  it('adds the instrument’s interest component: with no premium the rate is the interest rate', () => {
    const t = makeVenue({ instruments: [btcConfig({ funding: { interestRate: '0.0001' } })] });
    const { venue, clock } = t;
    venue.start();
    const { alice } = longAndShort(t);
    const aliceCash = alice.cash;
    clock.runUntil(T0_NS + 8n * HOUR_NS);
    // premium 0 → rate = 0 + clamp(0.0001 − 0, ±0.0005) = 0.0001; amount = 5 per contract.
    const [record] = venue.fundingRates('BTCUSD-PERP', T0_NS, T0_NS + 8n * HOUR_NS);
    expect(record).toMatchObject({ benchmark_price: '50000', settlement_price: '50000', funding_amount: '5', funding_rate: '0.0001' });
    expect(alice.cash - aliceCash).toBe(-money('10'));
  });
});
