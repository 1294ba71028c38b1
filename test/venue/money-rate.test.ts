import { describe, it, expect } from 'vitest';
import { mulRatio, parseMoney } from '../../src/core/money.ts';
import { tickLotsAtRate } from '../../src/venue/money-rate.ts';
import { makeVenue, place } from './fixtures.ts';

describe('tickLotsAtRate', () => {
  it('equals the rounded division for whole, fractional and negative rates', () => {
    const units = [parseMoney('0.5'), parseMoney('0.01'), parseMoney('0.000000000000000003')];
    const rates = [
      { num: 10n, den: 100n },
      { num: 2n, den: 10_000n },
      { num: -1n, den: 10_000n },
      { num: 1n, den: 3n },
      { num: 7n, den: 6n },
    ];
    for (const unit of units) {
      for (const rate of rates) {
        for (const tl of [0n, 1n, 7n, 12_345n, -99n, 10n ** 15n]) {
          expect(tickLotsAtRate(tl, unit, rate)).toBe(mulRatio(tl * unit, rate.num, rate.den));
        }
      }
    }
  });

  it('recomputes when the same rate object meets another unit or is changed', () => {
    const rate = { num: 1n, den: 4n };
    expect(tickLotsAtRate(3n, 8n, rate)).toBe(6n);
    expect(tickLotsAtRate(3n, 2n, rate)).toBe(mulRatio(6n, 1n, 4n)); // 1.5 → 2 (half to even)
    rate.num = 3n;
    expect(tickLotsAtRate(3n, 8n, rate)).toBe(18n);
  });
});

describe('position margin and unrealized PnL', () => {
  it('follow the mark and the position after they were read', () => {
    const { venue, btc, user } = makeVenue();
    const alice = user('alice');
    const bob = user('bob');
    place(venue, bob, 'S', '50000', 2);
    place(venue, alice, 'B', '50000', 2);
    const p = alice.positionIn(btc);
    const read = () => ({ unrealized: p.unrealized(), margin: p.margin(btc.instrument.initialMarginPct) });
    const expected = () => ({
      unrealized: p.position.unrealizedTicks(btc.markTicks) * btc.instrument.tickLotMoney,
      margin: mulRatio(BigInt(btc.markTicks * Math.abs(p.position.netLots)) * btc.instrument.tickLotMoney, btc.instrument.initialMarginPct.num, btc.instrument.initialMarginPct.den),
    });
    expect(read()).toEqual(expected());
    venue.setIndexPrice(btc, btc.instrument.tick.toTicks('51000')!);
    expect(btc.markTicks).not.toBe(btc.instrument.tick.toTicks('50000'));
    expect(read()).toEqual(expected());
    expect(read().unrealized > 0n).toBe(true);
    // The position halves at the same mark: both must follow.
    place(venue, bob, 'B', '51000', 1);
    place(venue, alice, 'S', '51000', 1);
    expect(p.position.netLots).toBe(1);
    expect(read()).toEqual(expected());
  });
});
