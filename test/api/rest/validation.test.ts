import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../src/api/rest/app.ts';
import { json, order, restFixture, type RestFixture } from './fixtures.ts';

/** insert_order as alice; returns status and body. */
async function insert(f: RestFixture, body: unknown, headers: Record<string, string> = {}) {
  const res = await f.post('/orders/insert_order', body, { ...(await f.bearer()), ...headers });
  return { status: res.status, body: await json(res) };
}

describe('422 validation of insert_order', () => {
  it('reports a missing field as "Field required" with the whole body as input', async () => {
    const f = await restFixture();
    const body = order({ price: undefined });
    const res = await insert(f, body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [{ type: 'missing', loc: ['body', 'price'], msg: 'Field required', input: JSON.parse(JSON.stringify(body)) }] });
  });

  it('reports too short and too long strings with their bounds', async () => {
    const f = await restFixture();
    expect((await insert(f, order({ price: '' }))).body.detail).toEqual([
      { type: 'string_too_short', loc: ['body', 'price'], msg: 'String should have at least 1 character', input: '', ctx: { min_length: 1 } },
    ]);
    expect((await insert(f, order({ symbol: 'A'.repeat(21) }))).body.detail).toEqual([
      { type: 'string_too_long', loc: ['body', 'symbol'], msg: 'String should have at most 20 characters', input: 'A'.repeat(21), ctx: { max_length: 20 } },
    ]);
  });

  it('reports a pattern mismatch quoting the pattern', async () => {
    const f = await restFixture();
    expect((await insert(f, order({ price: '-5' }))).body.detail).toEqual([
      { type: 'string_pattern_mismatch', loc: ['body', 'price'], msg: "String should match pattern '^\\d+\\.?\\d*$'", input: '-5', ctx: { pattern: '^\\d+\\.?\\d*$' } },
    ]);
  });

  it('reports non-integers with pydantic integer types', async () => {
    const f = await restFixture();
    const types = async (quantity: unknown) => (await insert(f, order({ quantity }))).body.detail[0];
    expect(await types('abc')).toEqual({ type: 'int_parsing', loc: ['body', 'quantity'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: 'abc' });
    expect(await types([1])).toMatchObject({ type: 'int_type', msg: 'Input should be a valid integer' });
    expect(await types(1.5)).toMatchObject({ type: 'int_from_float', msg: 'Input should be a valid integer, got a number with a fractional part' });
    expect(await types(null)).toMatchObject({ type: 'int_type', input: null });
  });

  it('accepts integers the way pydantic lax mode does: 2.0 and "3"', async () => {
    const f = await restFixture();
    expect((await insert(f, '{"username":"alice","symbol":"BTCUSD-PERP","price":"49000","quantity":2.0,"side":"B","time_in_force":"GTC","post_only":false}')).status).toBe(200);
    expect((await insert(f, order({ quantity: '3' }))).status).toBe(200);
    const open = f.exchange.venue.openOrders(f.exchange.venue.account('alice')!);
    expect(open.map((o) => o.qtyLots)).toEqual([2, 3]);
  });

  it('reports non-booleans as bool_type or bool_parsing and accepts "true"', async () => {
    const f = await restFixture();
    expect((await insert(f, order({ post_only: 'maybe' }))).body.detail).toEqual([
      { type: 'bool_parsing', loc: ['body', 'post_only'], msg: 'Input should be a valid boolean, unable to interpret input', input: 'maybe' },
    ]);
    expect((await insert(f, order({ post_only: {} }))).body.detail[0]).toMatchObject({ type: 'bool_type', msg: 'Input should be a valid boolean' });
    expect((await insert(f, order({ post_only: 'true' }))).status).toBe(200);
  });

  it('reports enum values with the expected choices', async () => {
    const f = await restFixture();
    expect((await insert(f, order({ side: 'BUY', time_in_force: 'FOK' }))).body.detail).toEqual([
      { type: 'enum', loc: ['body', 'side'], msg: "Input should be 'B' or 'S'", input: 'BUY', ctx: { expected: "'B' or 'S'" } },
      { type: 'enum', loc: ['body', 'time_in_force'], msg: "Input should be 'GTC' or 'IOC'", input: 'FOK', ctx: { expected: "'GTC' or 'IOC'" } },
    ]);
  });

  it('lists every failing field together, in the order the document declares them', async () => {
    const f = await restFixture();
    const res = await insert(f, { username: 'alice', symbol: 'btc', price: 'x', quantity: 'one', side: 'B', time_in_force: 'GTC' });
    expect(res.body.detail.map((d: { loc: string[]; type: string }) => [d.loc[1], d.type])).toEqual([
      ['symbol', 'string_pattern_mismatch'],
      ['price', 'string_pattern_mismatch'],
      ['quantity', 'int_parsing'],
      ['post_only', 'missing'],
    ]);
  });

  it('creates no order and sends no feed for a schema violation', async () => {
    const f = await restFixture();
    await insert(f, order({ quantity: 'x' }));
    expect(f.feeds).toHaveLength(0);
    expect(f.exchange.venue.openOrders(f.exchange.venue.account('alice')!)).toHaveLength(0);
  });

  it('ignores unknown extra fields, as FastAPI does', async () => {
    const f = await restFixture();
    const res = await insert(f, order({ client_order_id: 'abc', leverage: 10 }));
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty('order_id');
  });
});

describe('422 for bodies that are not an object', () => {
  it('reports invalid JSON as json_invalid at Python\'s character position', async () => {
    const f = await restFixture();
    const res = await insert(f, '{"username": "alice",, }');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [{ type: 'json_invalid', loc: ['body', 21], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting property name enclosed in double quotes' } }],
    });
    expect((await insert(f, '{"a": 1} x')).body.detail[0]).toMatchObject({ loc: ['body', 9], ctx: { error: 'Extra data' } });
    expect((await insert(f, '{"é": "\\q"}')).body.detail[0]).toMatchObject({ loc: ['body', 7], ctx: { error: 'Invalid \\escape' } });
  });

  it('treats an empty body as a missing body and a JSON array as a non-object', async () => {
    const f = await restFixture();
    expect((await insert(f, undefined)).body).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] });
    expect((await insert(f, '[1, 2]')).body).toEqual({
      detail: [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: [1, 2] }],
    });
  });

  it('reads NaN as Python does and rejects it as a non-finite quantity', async () => {
    const f = await restFixture();
    const res = await insert(f, JSON.stringify(order()).replace('"quantity":1', '"quantity":NaN'));
    expect(res.body.detail).toEqual([{ type: 'finite_number', loc: ['body', 'quantity'], msg: 'Input should be a finite number', input: null }]);
  });

  it('does not read a form-encoded body as JSON', async () => {
    const f = await restFixture();
    const res = await insert(f, 'username=alice', { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(res.body.detail[0]).toMatchObject({ type: 'model_attributes_type', loc: ['body'], input: 'username=alice' });
  });

  it('refuses a body over the size limit with 413', async () => {
    const f = await restFixture();
    const res = await f.post('/orders/insert_order', order({ pad: 'x'.repeat(MAX_BODY_BYTES) }), await f.bearer());
    expect(res.status).toBe(413);
    expect(typeof (await json(res)).detail).toBe('string');
  });
});

describe('422 for date-times and query parameters', () => {
  const range = (start_time: unknown, end_time: unknown) => ({ symbol: 'BTCUSD-PERP', start_time, end_time });

  it('reports a malformed date-time with pydantic\'s datetime error', async () => {
    const f = await restFixture();
    const res = await f.post('/settlement/get_mtm_prices', range('next tuesday', '2026-13-01T00:00:00Z'));
    expect(res.status).toBe(422);
    expect((await json(res)).detail).toEqual([
      { type: 'datetime_from_date_parsing', loc: ['body', 'start_time'], msg: 'Input should be a valid datetime or date, invalid character in year', input: 'next tuesday', ctx: { error: 'invalid character in year' } },
      { type: 'datetime_from_date_parsing', loc: ['body', 'end_time'], msg: 'Input should be a valid datetime or date, month value is outside expected range of 1-12', input: '2026-13-01T00:00:00Z', ctx: { error: 'month value is outside expected range of 1-12' } },
    ]);
  });

  it('reports a non-string date-time as datetime_type and accepts dates, offsets and Unix seconds', async () => {
    const f = await restFixture();
    expect((await json(await f.post('/settlement/get_mtm_prices', range(null, true)))).detail.map((d: { type: string }) => d.type)).toEqual([
      'datetime_type',
      'datetime_type',
    ]);
    for (const [start, end] of [
      ['2026-01-01', '2026-01-01T01:00:00.5+01:00'],
      [1_767_225_600, '1767225600000'],
    ]) {
      expect((await f.post('/settlement/get_mtm_prices', range(start, end))).status).toBe(200);
    }
  });

  it('reports a missing query parameter at loc ["query", name] with a null input', async () => {
    const f = await restFixture();
    const res = await f.get('/risk_manager/risk_snapshot', await f.bearer());
    expect(res.status).toBe(422);
    expect(await json(res)).toEqual({ detail: [{ type: 'missing', loc: ['query', 'username'], msg: 'Field required', input: null }] });
  });
});
