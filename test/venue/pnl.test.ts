import { describe, it, expect } from 'vitest';
import { btcConfig, makeVenue, money, place } from './fixtures.ts';

describe('realized PnL of a round trip', () => {
  it('books 3 × 100 × multiplier minus the taker fees as realized PnL and cash after buying 3 @ 50000 and selling 3 @ 50100', () => {
    const { venue, user } = makeVenue({ instruments: [btcConfig({ multiplier: 10 })] });
    const alice = user('alice', '1000000');
    const bob = user('bob');
    const carol = user('carol');

    place(venue, bob, 'S', '50000', 3); // maker
    place(venue, alice, 'B', '50000', 3); // taker
    place(venue, carol, 'B', '50100', 3); // maker
    place(venue, alice, 'S', '50100', 3); // taker

    // Fees by hand: taker 0.0002 of notional (× multiplier 10), maker 0.
    const buyFee = money('300'); // 0.0002 × 3 × 50000 × 10
    const sellFee = money('300.6'); // 0.0002 × 3 × 50100 × 10
    const expected = money('3000') - buyFee - sellFee; // 3 × 100 × 10 − fees = 2399.4
    expect(expected).toBe(money('2399.4'));

    const snap = venue.riskSnapshot(alice);
    expect(snap.positions).toHaveLength(1);
    const pos = snap.positions[0]!;
    expect(pos).toMatchObject({
      symbol: 'BTCUSD-PERP',
      net_quantity: '0',
      buy_quantity: '3',
      sell_quantity: '3',
      buy_notional: '1500000',
      sell_notional: '1503000',
      buy_vwap: '50000',
      sell_vwap: '50100',
      unrealized_pnl: '0',
      realized_pnl: '2399.4',
      initial_margin: '0',
      maintenance_margin: '0',
    });
    expect(snap.total_realized_pnl).toBe('2399.4');
    expect(snap.cash_balance).toBe('1002399.4');
    expect(alice.cash).toBe(money('1000000') + expected);
    expect(venue.feesCollected).toBe(buyFee + sellFee);

    // The makers paid nothing and hold the other sides.
    expect(venue.riskSnapshot(bob).positions[0]).toMatchObject({ net_quantity: '-3', realized_pnl: '0' });
    expect(venue.riskSnapshot(carol).positions[0]).toMatchObject({ net_quantity: '3', realized_pnl: '0' });
    expect(bob.cash).toBe(money('1000000'));
    expect(carol.cash).toBe(money('1000000'));
  });

  it('realizes FIFO PnL on a partial close and keeps the rest unrealized at the mark', () => {
    const { venue, user } = makeVenue({ instruments: [btcConfig({ takerFee: '0' })] });
    const alice = user('alice');
    const mm = user('mm');
    place(venue, mm, 'S', '50000', 1);
    place(venue, alice, 'B', '50000', 1);
    place(venue, mm, 'S', '50200', 1);
    place(venue, alice, 'B', '50200', 1);
    place(venue, mm, 'B', '50300', 1);
    place(venue, alice, 'S', '50300', 1); // closes the oldest lot (50000): +300

    const pos = venue.riskSnapshot(alice).positions[0]!;
    expect(pos.realized_pnl).toBe('300');
    expect(pos.net_quantity).toBe('1');
    // Book empty again: mark = index = 50000, the open lot was bought at 50200.
    expect(pos.mark_price).toBe('50000');
    expect(pos.unrealized_pnl).toBe('-200');
  });
});
