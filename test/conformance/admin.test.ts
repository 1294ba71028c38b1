import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  BTC,
  expect422,
  expectDetail,
  expectShape,
  INSTRUMENT,
  insertOrder,
  START_NS,
  startConformance,
  WS_ORDER,
  type Conformance,
  type FieldType,
} from './harness.ts';

/**
 * The admin API exactly as issue 4 lists it: the clock (GET, advance, pause, resume, speed),
 * users (409 when taken), administrative cancels (feed c, xr EXCHANGE_OPTION), instrument
 * states and the state hash — JSON in and out, 401 without the admin bearer token, 422 on bad
 * bodies. The main server runs a manual clock; a second one runs in real time for resume.
 */

const CLOCK: Record<string, FieldType> = { now_ns: 'int-string', speed: 'integer', paused: 'boolean' };

let c: Conformance;
beforeAll(async () => {
  c = await startConformance();
});
afterAll(() => c.close());

const clock = async () => (await c.get('/admin/clock', ADMIN)).json();

describe('authorization', () => {
  const endpoints: [string, string, unknown][] = [
    ['GET', '/admin/clock', undefined],
    ['POST', '/admin/clock/advance', { seconds: 1 }],
    ['POST', '/admin/clock/pause', undefined],
    ['POST', '/admin/clock/resume', undefined],
    ['POST', '/admin/clock/speed', { speed: 2 }],
    ['POST', '/admin/users', { username: 'mallory', password: 'x', cash: '1' }],
    ['POST', '/admin/orders/cancel', { order_id: 'O-1' }],
    ['POST', `/admin/instruments/${BTC}/state`, { state: 'HALTED' }],
    ['GET', '/admin/state_hash', undefined],
  ];

  it('answers every admin endpoint with 401 {"detail"} without the admin bearer token, with a user token or a wrong one', async () => {
    const before = await clock();
    for (const headers of [{}, await c.bearer('alice'), { Authorization: 'Bearer wrong' }]) {
      for (const [method, path, body] of endpoints) {
        const res = method === 'GET' ? await c.get(path, headers) : await c.post(path, body, headers);
        await expectDetail(res, 401);
      }
    }
    // Nothing happened.
    expect(await clock()).toEqual(before);
    expect((await c.post('/auth/get_user_token', { username: 'mallory', password: 'x', expiration_seconds: 60 })).status).toBe(401);
  });
});

describe('clock', () => {
  it('GET /admin/clock answers {"now_ns": "<integer as string>", "speed": <number or "max">, "paused": bool}', async () => {
    const res = await c.get('/admin/clock', ADMIN);
    expect(res.status).toBe(200);
    const body = await res.json();
    expectShape(body, CLOCK);
    expect(body).toEqual({ now_ns: String(START_NS), speed: 1, paused: true });
  });

  it('POST /admin/clock/advance {"seconds"} runs every event up to the new time, then answers like GET /admin/clock', async () => {
    const before = BigInt((await clock()).now_ns);
    const res = await c.post('/admin/clock/advance', { seconds: 120.5 }, ADMIN);
    expect(res.status).toBe(200);
    const body = await res.json();
    expectShape(body, CLOCK);
    expect(BigInt(body.now_ns) - before).toBe(120_500_000_000n);
    expect(await clock()).toEqual(body);
    // The mark records due at 00:01 and 00:02 ran on the way.
    const marks = await c.post('/settlement/get_mtm_prices', { symbol: BTC, start_time: '2026-01-01T00:00:00Z', end_time: '2026-01-01T01:00:00Z' });
    expect((await marks.json()).map((r: { timestamp: string }) => r.timestamp)).toEqual(['2026-01-01T00:01:00.000000000Z', '2026-01-01T00:02:00.000000000Z']);
  });

  it('POST /admin/clock/advance answers a missing, negative or non-numeric seconds with 422', async () => {
    await expect422(await c.post('/admin/clock/advance', {}, ADMIN), [[['body', 'seconds'], 'missing']]);
    await expect422(await c.post('/admin/clock/advance', { seconds: -1 }, ADMIN), [[['body', 'seconds'], 'greater_than_equal']]);
    await expect422(await c.post('/admin/clock/advance', { seconds: 'soon' }, ADMIN), [[['body', 'seconds'], 'float_parsing']]);
    await expect422(await c.post('/admin/clock/advance', '[]', ADMIN), [[['body'], 'model_attributes_type']]);
  });

  it('POST /admin/clock/pause answers the clock with paused true', async () => {
    const res = await c.post('/admin/clock/pause', undefined, ADMIN);
    expect(res.status).toBe(200);
    const body = await res.json();
    expectShape(body, CLOCK);
    expect(body.paused).toBe(true);
  });

  it('POST /admin/clock/resume is a 409 on a manual clock (time moves only through advance)', async () => {
    await expectDetail(await c.post('/admin/clock/resume', undefined, ADMIN), 409);
  });

  it('POST /admin/clock/pause and /admin/clock/resume toggle paused on a real-time clock', async () => {
    const live = await startConformance({ exchange: { manual: false } });
    try {
      const paused = await (await live.post('/admin/clock/pause', undefined, ADMIN)).json();
      expectShape(paused, CLOCK);
      expect(paused.paused).toBe(true);
      const resumed = await (await live.post('/admin/clock/resume', undefined, ADMIN)).json();
      expectShape(resumed, CLOCK);
      expect(resumed.paused).toBe(false);
    } finally {
      await live.close();
    }
  });

  it('POST /admin/clock/speed {"speed"} takes a positive number or "max" and answers the clock', async () => {
    const max = await (await c.post('/admin/clock/speed', { speed: 'max' }, ADMIN)).json();
    expectShape(max, { ...CLOCK, speed: 'string' });
    expect(max.speed).toBe('max');
    const ten = await (await c.post('/admin/clock/speed', { speed: 10 }, ADMIN)).json();
    expectShape(ten, CLOCK);
    expect(ten.speed).toBe(10);
    await c.post('/admin/clock/speed', { speed: 1 }, ADMIN);
  });

  it('POST /admin/clock/speed answers a missing, zero, negative or other speed with 422', async () => {
    await expect422(await c.post('/admin/clock/speed', {}, ADMIN), [[['body', 'speed'], 'missing']]);
    for (const speed of [0, -2, 'fast', null]) {
      await expect422(await c.post('/admin/clock/speed', { speed }, ADMIN), [[['body', 'speed'], 'value_error']]);
    }
  });
});

describe('users', () => {
  it('POST /admin/users {"username", "password", "cash", "totp_secret"?} answers {"username"}; the user can log in and trade', async () => {
    const res = await c.post('/admin/users', { username: 'dave', password: 'dave-password', cash: '2500.5' }, ADMIN);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ username: 'dave' });
    const dave = await c.bearer('dave');
    const snap = await (await c.get('/risk_manager/risk_snapshot?username=dave', dave)).json();
    expect(snap.cash_balance).toBe('2500.5');
    expect((await c.post('/admin/users', { username: 'erin', password: 'erin-password', cash: '1', totp_secret: 'JBSWY3DPEHPK3PXP' }, ADMIN)).status).toBe(200);
  });

  it('POST /admin/users answers 409 {"detail"} when the user exists', async () => {
    await expectDetail(await c.post('/admin/users', { username: 'alice', password: 'other', cash: '1' }, ADMIN), 409);
    await expectDetail(await c.post('/admin/users', { username: 'dave', password: 'other', cash: '1' }, ADMIN), 409);
  });

  it('POST /admin/users answers missing or malformed fields with 422', async () => {
    await expect422(await c.post('/admin/users', {}, ADMIN), [
      [['body', 'username'], 'missing'],
      [['body', 'password'], 'missing'],
      [['body', 'cash'], 'missing'],
    ]);
    await expect422(await c.post('/admin/users', { username: 'bad name', password: '', cash: 'lots', totp_secret: 'not base32!' }, ADMIN), [
      [['body', 'username'], 'string_pattern_mismatch'],
      [['body', 'password'], 'string_too_short'],
      [['body', 'cash'], 'string_pattern_mismatch'],
      [['body', 'totp_secret'], 'string_pattern_mismatch'],
    ]);
  });
});

describe('administrative cancel', () => {
  it('POST /admin/orders/cancel {"order_id"} cancels any user\'s order: feed c with xr EXCHANGE_OPTION', async () => {
    const bob = await c.orderSocket('bob');
    const res = await c.post('/orders/insert_order', insertOrder({ username: 'bob', side: 'S', price: '51000' }), await c.bearer('bob'));
    const { order_id } = await res.json();
    expect((await bob.next()).t).toBe('n');

    const cancel = await c.post('/admin/orders/cancel', { order_id }, ADMIN);
    expect(cancel.status).toBe(200);
    const feed = await bob.next();
    expectShape(feed, { t: 'string', ts: 'integer', tn: 'integer', eid: 'string', o: 'object', xr: 'string', txt: 'string' });
    expect(feed).toMatchObject({ t: 'c', xr: 'EXCHANGE_OPTION' });
    expectShape(feed.o, WS_ORDER);
    expect(feed.o).toMatchObject({ oid: order_id, o: 'CANCELED', rq: 0 });
  });

  it('POST /admin/orders/cancel answers an unknown order with 404 and a missing order_id with 422', async () => {
    await expectDetail(await c.post('/admin/orders/cancel', { order_id: 'O-NOSUCHORDER' }, ADMIN), 404);
    await expect422(await c.post('/admin/orders/cancel', {}, ADMIN), [[['body', 'order_id'], 'missing']]);
  });
});

describe('instrument state', () => {
  it('POST /admin/instruments/{symbol}/state {"state"} answers the instrument; orders are then rejected EXCHANGE_CLOSED', async () => {
    const res = await c.post(`/admin/instruments/${BTC}/state`, { state: 'HALTED' }, ADMIN);
    expect(res.status).toBe(200);
    const inst = await res.json();
    expectShape(inst, INSTRUMENT);
    expect(inst).toMatchObject({ symbol: BTC, state: 'HALTED' });
    expect((await (await c.get(`/auth/instruments/${BTC}`, await c.bearer('alice'))).json()).state).toBe('HALTED');

    const s = await c.orderSocket('alice');
    const rid = c.rid();
    s.send({ rid, t: 'p', s: BTC, d: 'B', q: 1, p: '49000', tif: 'GTC', po: false });
    expect((await s.next()).res.oid).toBeDefined();
    expect(await s.next()).toMatchObject({ t: 'j', r: 'EXCHANGE_CLOSED', o: { o: 'REJECTED' } });

    expect((await (await c.post(`/admin/instruments/${BTC}/state`, { state: 'OPEN' }, ADMIN)).json()).state).toBe('OPEN');
  });

  it('POST /admin/instruments/{symbol}/state answers an unknown state with 422, a bad symbol with 422 and an unknown one with 404', async () => {
    const [issue] = await expect422(await c.post(`/admin/instruments/${BTC}/state`, { state: 'PAUSED' }, ADMIN), [[['body', 'state'], 'enum']]);
    expect(issue!.ctx).toEqual({ expected: "'PRE_OPEN', 'OPEN', 'HALTED', 'CLOSED', 'CLOSED_FROZEN' or 'DELISTED'" });
    await expect422(await c.post('/admin/instruments/btc/state', {}, ADMIN), [
      [['path', 'symbol'], 'string_pattern_mismatch'],
      [['body', 'state'], 'missing'],
    ]);
    await expectDetail(await c.post('/admin/instruments/XYZUSD-PERP/state', { state: 'OPEN' }, ADMIN), 404);
  });
});

describe('state hash', () => {
  it('GET /admin/state_hash answers {"state_hash": "<hex>"}, stable while nothing happens and changed by an order', async () => {
    const first = await (await c.get('/admin/state_hash', ADMIN)).json();
    expectShape(first, { state_hash: 'string' });
    expect(first.state_hash).toMatch(/^[0-9a-f]+$/);
    expect(await (await c.get('/admin/state_hash', ADMIN)).json()).toEqual(first);
    await c.post('/orders/insert_order', insertOrder({ price: '48000' }), await c.bearer('alice'));
    expect((await (await c.get('/admin/state_hash', ADMIN)).json()).state_hash).not.toBe(first.state_hash);
  });
});
