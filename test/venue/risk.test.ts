import { describe, it, expect } from 'vitest';
import { parseMoney } from '../../src/core/money.ts';
import { at, ethConfig, btcConfig, makeVenue, place } from './fixtures.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * alice: long 2 @ 50000 (taker fee 20), a resting bid 1 @ 49000; bob quotes 49800 / 50400
 * around the index, which then moves to 50200 (so the mark is 50200).
 */
function aliceWithPositionAndOrder() {
  const t = makeVenue();
  const { venue, clock, btc, user } = t;
  const alice = user('alice', '1000000');
  const bob = user('bob');
  place(venue, bob, 'S', '50000', 2);
  place(venue, alice, 'B', '50000', 2);
  place(venue, alice, 'B', '49000', 1);
  place(venue, bob, 'B', '49800', 1);
  place(venue, bob, 'S', '50400', 1);
  venue.setIndexPrice(btc, btc.instrument.tick.toTicks('50200')!);
  clock.runUntil(at(60) + 5n);
  return { ...t, alice, bob };
}

describe('risk snapshots', () => {
  it('gives the position snapshot every documented field, all positions as strings', () => {
    const { venue, alice } = aliceWithPositionAndOrder();
    const snap = venue.riskSnapshot(alice);

    expect(Object.keys(snap).sort()).toEqual([
      'available_initial_margin',
      'available_maintenance_margin',
      'cash_balance',
      'positions',
      'timestamp',
      'total_equity',
      'total_initial_margin',
      'total_maintenance_margin',
      'total_realized_pnl',
      'total_unrealized_pnl',
      'username',
    ]);
    expect(snap.timestamp).toBe('2024-01-01T00:01:00.000000005Z');
    expect(snap.username).toBe('alice');
    for (const [key, value] of Object.entries(snap)) if (key !== 'positions') expect(typeof value, key).toBe('string');
    const [pos] = snap.positions;
    expect(Object.keys(pos!).sort()).toEqual([
      'buy_notional',
      'buy_quantity',
      'buy_vwap',
      'initial_margin',
      'maintenance_margin',
      'mark_price',
      'net_quantity',
      'realized_pnl',
      'sell_notional',
      'sell_quantity',
      'sell_vwap',
      'symbol',
      'unrealized_pnl',
    ]);
    for (const [key, value] of Object.entries(pos!)) expect(typeof value, key).toBe('string');
    expect(pos).toEqual({
      symbol: 'BTCUSD-PERP',
      net_quantity: '2',
      buy_quantity: '2',
      buy_notional: '100000',
      realized_pnl: '-20',
      sell_quantity: '0',
      sell_notional: '0',
      buy_vwap: '50000',
      sell_vwap: '0',
      unrealized_pnl: '400',
      initial_margin: '15060', // 2 × 50200 × 15%
      maintenance_margin: '10040', // 2 × 50200 × 10%
      mark_price: '50200',
    });
  });

  it('adds up: equity = cash + unrealized, available IM = equity − (position IM + order IM)', () => {
    const { venue, alice } = aliceWithPositionAndOrder();
    const snap = venue.riskSnapshot(alice);
    const m = (s: string) => parseMoney(s);

    expect(snap).toMatchObject({
      cash_balance: '999980',
      total_realized_pnl: '-20',
      total_unrealized_pnl: '400',
      total_equity: '1000380',
      total_initial_margin: '22410', // 15060 + 7350 for the bid 1 @ 49000
      total_maintenance_margin: '10040',
      available_initial_margin: '977970',
      available_maintenance_margin: '990340',
    });
    expect(m(snap.total_equity)).toBe(m(snap.cash_balance) + m(snap.total_unrealized_pnl));
    expect(m(snap.available_initial_margin)).toBe(m(snap.total_equity) - m(snap.total_initial_margin));
    expect(m(snap.available_maintenance_margin)).toBe(m(snap.total_equity) - m(snap.total_maintenance_margin));
  });

  it('wraps the token-based snapshot under risk_snapshot with the documented keys and the same numbers', () => {
    const { venue, alice } = aliceWithPositionAndOrder();
    const api = venue.apiRiskSnapshot(alice);
    expect(Object.keys(api)).toEqual(['risk_snapshot']);
    const r = api.risk_snapshot;
    expect(Object.keys(r).sort()).toEqual([
      'balance_usd',
      'equity',
      'initial_margin_available',
      'initial_margin_required_for_open_orders',
      'initial_margin_required_for_positions',
      'initial_margin_required_total',
      'maintenance_margin_available',
      'maintenance_margin_required',
      'per_symbol',
      'timestamp_ns',
      'unrealized_pnl',
      'user_id',
    ]);
    expect(r).toMatchObject({
      balance_usd: '999980',
      equity: '1000380',
      unrealized_pnl: '400',
      initial_margin_required_for_positions: '15060',
      initial_margin_required_for_open_orders: '7350',
      initial_margin_required_total: '22410',
      initial_margin_available: '977970',
      maintenance_margin_required: '10040',
      maintenance_margin_available: '990340',
      timestamp_ns: '2024-01-01T00:01:00.000000005Z',
    });
    expect(r.per_symbol['BTCUSD-PERP']).toMatchObject({ net_quantity: '2', mark_price: '50200', average_entry_price: '50000', open_orders: 1 });
    const m = (s: string) => parseMoney(s);
    expect(m(r.equity)).toBe(m(r.balance_usd) + m(r.unrealized_pnl));
    expect(m(r.initial_margin_required_total)).toBe(m(r.initial_margin_required_for_positions) + m(r.initial_margin_required_for_open_orders));
    expect(m(r.initial_margin_available)).toBe(m(r.equity) - m(r.initial_margin_required_total));
  });

  it('lists a symbol in per_symbol when the user only has open orders there, so per-symbol order margin adds up to the total', () => {
    const { venue, user } = makeVenue({ instruments: [btcConfig(), ethConfig()] });
    const alice = user('alice');
    const bob = user('bob');
    place(venue, bob, 'S', '50000', 1);
    place(venue, alice, 'B', '50000', 1);
    place(venue, alice, 'B', '99', 4, { symbol: 'ETHUSD-PERP' }); // IM 4 × 99 × 15% = 59.4

    const r = venue.apiRiskSnapshot(alice).risk_snapshot;
    expect(Object.keys(r.per_symbol)).toEqual(['BTCUSD-PERP', 'ETHUSD-PERP']);
    expect(r.per_symbol['ETHUSD-PERP']).toEqual({
      net_quantity: '0',
      mark_price: '100',
      average_entry_price: '0',
      unrealized_pnl: '0',
      realized_pnl: '0',
      initial_margin: '0',
      maintenance_margin: '0',
      open_orders: 1,
      initial_margin_required_for_open_orders: '59.4',
    });
    const perSymbolOrderIm = Object.values(r.per_symbol).reduce((sum, v) => sum + parseMoney(v.initial_margin_required_for_open_orders), 0n);
    expect(perSymbolOrderIm).toBe(parseMoney(r.initial_margin_required_for_open_orders));
    // Reading the snapshot opens no position.
    expect(venue.riskSnapshot(alice).positions.map((p) => p.symbol)).toEqual(['BTCUSD-PERP']);
  });

  it('gives each user a UUID-shaped user_id that is stable across calls and venues and differs between users', () => {
    const first = aliceWithPositionAndOrder();
    const second = makeVenue();
    const id = first.venue.apiRiskSnapshot(first.alice).risk_snapshot.user_id;

    expect(id).toMatch(UUID);
    expect(first.venue.apiRiskSnapshot(first.alice).risk_snapshot.user_id).toBe(id);
    expect(second.venue.apiRiskSnapshot(second.user('alice')).risk_snapshot.user_id).toBe(id);
    const bobId = first.venue.apiRiskSnapshot(first.bob).risk_snapshot.user_id;
    expect(bobId).toMatch(UUID);
    expect(bobId).not.toBe(id);
  });

  it('shows a fresh account with its cash, no positions and everything available', () => {
    const { venue, user } = makeVenue();
    const snap = venue.riskSnapshot(user('carol', '2500.5'));
    expect(snap).toMatchObject({
      positions: [],
      cash_balance: '2500.5',
      total_equity: '2500.5',
      total_initial_margin: '0',
      available_initial_margin: '2500.5',
      total_realized_pnl: '0',
      total_unrealized_pnl: '0',
    });
  });
});
