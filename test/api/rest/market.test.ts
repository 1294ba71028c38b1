import { describe, expect, it } from 'vitest';
import { ADMIN, json, order, restFixture, type RestFixture } from './fixtures.ts';

const DAY_START = '2026-01-01T00:00:00Z';

/** bob sells 2 @ 50000 to alice (taker buy), then both quote around the index so the mark is 50100. */
async function tradeAndQuote(f: RestFixture): Promise<void> {
  const alice = await f.bearer('alice');
  const bob = await f.bearer('bob');
  await f.post('/orders/insert_order', order({ username: 'bob', side: 'S', price: '50000', quantity: 2 }), bob);
  await f.post('/orders/insert_order', order({ price: '50000', quantity: 2 }), alice);
  await f.post('/orders/insert_order', order({ price: '50100' }), alice);
  await f.post('/orders/insert_order', order({ username: 'bob', side: 'S', price: '50200' }), bob);
}

async function advance(f: RestFixture, seconds: number) {
  const res = await f.post('/admin/clock/advance', { seconds }, ADMIN);
  expect(res.status).toBe(200);
}

describe('settlement endpoints', () => {
  it('serves a mark-to-market record every 60 s of sim time, without authorization', async () => {
    const f = await restFixture();
    await tradeAndQuote(f);
    await advance(f, 300);
    const res = await f.post('/settlement/get_mtm_prices', { symbol: 'BTCUSD-PERP', start_time: DAY_START, end_time: '2026-01-01T00:03:00Z' });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual([1, 2, 3].map((m) => ({ timestamp: `2026-01-01T00:0${m}:00.000000000Z`, symbol: 'BTCUSD-PERP', mtm_price: '50100' })));
  });

  it('serves a funding record after 8 h with every field as a string', async () => {
    const f = await restFixture();
    await tradeAndQuote(f);
    const body = { symbol: 'BTCUSD-PERP', start_time: DAY_START, end_time: '2026-01-01T08:00:00Z' };
    expect(await json(await f.post('/settlement/get_funding_rates', body))).toEqual([]);
    await advance(f, 8 * 3600);
    const records = await json(await f.post('/settlement/get_funding_rates', body));
    expect(records).toHaveLength(1);
    expect(records[0]).toEqual({
      timestamp: '2026-01-01T08:00:00.000000000Z',
      symbol: 'BTCUSD-PERP',
      benchmark_price: '50000',
      settlement_price: '50100',
      funding_amount: '100',
      funding_rate: '0.002',
    });
  });

  it('answers 422 naming symbol and end_time for an unknown symbol and a reversed range', async () => {
    const f = await restFixture();
    const res = await f.post('/settlement/get_mtm_prices', { symbol: 'DOGEUSD-PERP', start_time: '2026-01-02T00:00:00Z', end_time: DAY_START });
    expect(res.status).toBe(422);
    const { detail } = await json(res);
    expect(detail.map((d: { loc: string[]; type: string; input: unknown }) => [d.loc, d.type, d.input])).toEqual([
      [['body', 'symbol'], 'value_error', 'DOGEUSD-PERP'],
      [['body', 'end_time'], 'value_error', DAY_START],
    ]);
    expect(detail[0].msg).toMatch(/^Value error, unknown symbol/);
  });
});

describe('candle endpoint', () => {
  it('aggregates the trades into candles with string prices and volumes', async () => {
    const f = await restFixture();
    await tradeAndQuote(f);
    await advance(f, 120);
    const res = await f.post('/candle/historical_candles', { market: 'BTCUSD-PERP', interval: '1m', start_time: DAY_START, end_time: '2026-01-01T01:00:00Z' });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      market: 'BTCUSD-PERP',
      interval: '1m',
      candles: [
        { timestamp: '2026-01-01T00:00:00.000000000Z', open: '50000', high: '50000', low: '50000', close: '50000', volume: '2', buy_volume: '2', sell_volume: '0' },
      ],
    });
  });

  it('answers 422 for an unknown market and an unknown interval together', async () => {
    const f = await restFixture();
    const res = await f.post('/candle/historical_candles', { market: 'NOPE', interval: '2m', start_time: DAY_START, end_time: DAY_START });
    expect(res.status).toBe(422);
    const { detail } = await json(res);
    expect(detail.map((d: { loc: string[] }) => d.loc)).toEqual([
      ['body', 'market'],
      ['body', 'interval'],
    ]);
    expect(detail[1].msg).toContain('1s, 5s, 1m, 5m, 15m, 1h, 1d');
  });
});

describe('position risk snapshot', () => {
  it('shows the position after a trade with every documented field as a string', async () => {
    const f = await restFixture();
    await tradeAndQuote(f);
    const res = await f.get('/risk_manager/risk_snapshot?username=alice', await f.bearer('alice'));
    expect(res.status).toBe(200);
    const snap = await json(res);
    expect(Object.keys(snap).sort()).toEqual(
      ['timestamp', 'username', 'positions', 'cash_balance', 'total_realized_pnl', 'total_unrealized_pnl', 'total_initial_margin', 'total_maintenance_margin', 'total_equity', 'available_initial_margin', 'available_maintenance_margin'].sort(),
    );
    expect(snap.username).toBe('alice');
    expect(snap.timestamp).toBe('2026-01-01T00:00:00.000000000Z');
    const [position] = snap.positions;
    expect(Object.keys(position).sort()).toEqual(
      ['symbol', 'net_quantity', 'buy_quantity', 'buy_notional', 'realized_pnl', 'sell_quantity', 'sell_notional', 'buy_vwap', 'sell_vwap', 'unrealized_pnl', 'initial_margin', 'maintenance_margin', 'mark_price'].sort(),
    );
    expect(Object.values(position).every((v) => typeof v === 'string')).toBe(true);
    expect(position).toMatchObject({ symbol: 'BTCUSD-PERP', net_quantity: '2', buy_vwap: '50000', mark_price: '50100', unrealized_pnl: '200' });
  });
});
