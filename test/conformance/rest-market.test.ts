import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BTC, ETH, expect422, expectDetail, expectShape, INSTRUMENT, insertOrder, startConformance, type Conformance, type FieldType } from './harness.ts';

/**
 * Instruments, settlement (mark-to-market prices, funding rates) and candles. The clock is
 * advanced through the admin API by exactly one funding interval plus a minute, after one trade
 * at 00:00:30, so every record is predictable.
 */

let c: Conformance;
let alice: Record<string, string>;
beforeAll(async () => {
  c = await startConformance();
  alice = await c.bearer('alice');
  const bob = await c.bearer('bob');
  await c.advance(30);
  expect((await c.post('/orders/insert_order', insertOrder({ side: 'S', price: '50000', quantity: 3 }), alice)).status).toBe(200);
  expect((await c.post('/orders/insert_order', insertOrder({ username: 'bob', side: 'B', price: '50000', quantity: 2, time_in_force: 'IOC' }), bob)).status).toBe(200);
  await c.advance(8 * 3600 + 30);
});
afterAll(() => c.close());

const DAY = { start_time: '2026-01-01T00:00:00Z', end_time: '2026-01-02T00:00:00Z' };

describe('instrument endpoints', () => {
  it('GET /auth/instruments answers exactly instruments: an array of Instrument with every field and its type', async () => {
    const res = await c.get('/auth/instruments', alice);
    expect(res.status).toBe(200);
    const body = await res.json();
    expectShape(body, { instruments: 'array' });
    expect(body.instruments.map((i: { symbol: string }) => i.symbol)).toEqual([BTC, ETH]);
    for (const inst of body.instruments) expectShape(inst, INSTRUMENT);
    expect(body.instruments[0]).toMatchObject({ symbol: BTC, tick_size: '0.5', price_scale: 2, multiplier: 1, minimum_trade_quantity: 1, state: 'OPEN' });
    expect(body.instruments[1]).toMatchObject({ symbol: ETH, tick_size: '0.01', price_scale: 100 });
  });

  it('GET /auth/instruments/{symbol} answers one Instrument with every field and its type', async () => {
    const res = await c.get(`/auth/instruments/${BTC}`, alice);
    expect(res.status).toBe(200);
    const inst = await res.json();
    expectShape(inst, INSTRUMENT);
    expect(inst.symbol).toBe(BTC);
  });

  it('GET /auth/instruments/{symbol} answers a symbol breaking the pattern with 422 at ["path", "symbol"]', async () => {
    await expect422(await c.get('/auth/instruments/btcusd-perp', alice), [[['path', 'symbol'], 'string_pattern_mismatch']]);
    await expect422(await c.get(`/auth/instruments/${'A'.repeat(21)}`, alice), [[['path', 'symbol'], 'string_too_long']]);
  });

  it('GET /auth/instruments/{symbol} answers an unknown symbol with 404 {"detail"}', async () => {
    await expectDetail(await c.get('/auth/instruments/XYZUSD-PERP', alice), 404);
  });
});

describe('settlement endpoints', () => {
  it('POST /settlement/get_mtm_prices answers an array of mark-to-market records (timestamp, symbol, mtm_price)', async () => {
    const res = await c.post('/settlement/get_mtm_prices', { symbol: BTC, start_time: '2026-01-01T00:00:00Z', end_time: '2026-01-01T00:03:00Z' });
    expect(res.status).toBe(200);
    const records = await res.json();
    expect(Array.isArray(records)).toBe(true);
    for (const r of records) expectShape(r, { timestamp: 'datetime', symbol: 'string', mtm_price: 'decimal' });
    expect(records.map((r: { timestamp: string }) => r.timestamp)).toEqual([
      '2026-01-01T00:01:00.000000000Z',
      '2026-01-01T00:02:00.000000000Z',
      '2026-01-01T00:03:00.000000000Z',
    ]);
    expect(records[0]).toMatchObject({ symbol: BTC, mtm_price: '50000' });
  });

  it('POST /settlement/get_funding_rates answers an array of funding records with every field of the table', async () => {
    const res = await c.post('/settlement/get_funding_rates', { symbol: BTC, ...DAY });
    expect(res.status).toBe(200);
    const records = await res.json();
    expect(records).toHaveLength(1);
    expectShape(records[0], {
      timestamp: 'datetime',
      symbol: 'string',
      benchmark_price: 'decimal',
      settlement_price: 'decimal',
      funding_amount: 'decimal',
      funding_rate: 'decimal',
    });
    expect(records[0]).toMatchObject({ timestamp: '2026-01-01T08:00:00.000000000Z', symbol: BTC, benchmark_price: '50000' });
  });

  for (const path of ['/settlement/get_mtm_prices', '/settlement/get_funding_rates']) {
    it(`POST ${path} requires symbol, start_time and end_time (422 missing)`, async () => {
      await expect422(await c.post(path, {}), [
        [['body', 'symbol'], 'missing'],
        [['body', 'start_time'], 'missing'],
        [['body', 'end_time'], 'missing'],
      ]);
    });

    it(`POST ${path} checks symbol length 1 to 20 and pattern ^[-A-Z0-9]+$, and date-time fields`, async () => {
      await expect422(await c.post(path, { ...DAY, symbol: 'btc' }), [[['body', 'symbol'], 'string_pattern_mismatch']]);
      await expect422(await c.post(path, { ...DAY, symbol: '' }), [[['body', 'symbol'], 'string_too_short']]);
      await expect422(await c.post(path, { ...DAY, symbol: 'A'.repeat(21) }), [[['body', 'symbol'], 'string_too_long']]);
      await expect422(await c.post(path, { symbol: BTC, start_time: 'yesterday', end_time: true }), [
        [['body', 'start_time'], 'datetime_from_date_parsing'],
        [['body', 'end_time'], 'datetime_type'],
      ]);
    });
  }
});

describe('candle endpoint', () => {
  const CANDLE: Record<string, FieldType> = {
    timestamp: 'datetime',
    open: 'decimal',
    high: 'decimal',
    low: 'decimal',
    close: 'decimal',
    volume: 'int-string',
    buy_volume: 'int-string',
    sell_volume: 'int-string',
  };

  it('POST /candle/historical_candles answers market, interval and candles, each candle with every field as a string', async () => {
    const res = await c.post('/candle/historical_candles', { market: BTC, interval: '1m', ...DAY });
    expect(res.status).toBe(200);
    const body = await res.json();
    expectShape(body, { market: 'string', interval: 'string', candles: 'array' });
    expect(body).toMatchObject({ market: BTC, interval: '1m' });
    expect(body.candles).toHaveLength(1);
    expectShape(body.candles[0], CANDLE);
    expect(body.candles[0]).toEqual({
      timestamp: '2026-01-01T00:00:00.000000000Z',
      open: '50000',
      high: '50000',
      low: '50000',
      close: '50000',
      volume: '2',
      buy_volume: '2',
      sell_volume: '0',
    });
  });

  it('POST /candle/historical_candles requires market, interval, start_time and end_time (422 missing)', async () => {
    await expect422(await c.post('/candle/historical_candles', {}), [
      [['body', 'market'], 'missing'],
      [['body', 'interval'], 'missing'],
      [['body', 'start_time'], 'missing'],
      [['body', 'end_time'], 'missing'],
    ]);
  });

  it('POST /candle/historical_candles answers an unknown market or interval, and an end before the start, with 422', async () => {
    await expect422(await c.post('/candle/historical_candles', { market: 'XYZUSD-PERP', interval: '2m', ...DAY }), [
      [['body', 'market'], 'value_error'],
      [['body', 'interval'], 'value_error'],
    ]);
    await expect422(await c.post('/candle/historical_candles', { market: BTC, interval: '1m', start_time: DAY.end_time, end_time: DAY.start_time }), [
      [['body', 'end_time'], 'value_error'],
    ]);
  });
});
