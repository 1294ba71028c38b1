import { describe, expect, it } from 'vitest';
import { ADMIN, json, order, restFixture } from './fixtures.ts';

const START_NS = '1767225600000000000';

describe('admin authorization', () => {
  it('answers 401 without the admin token, with a user token and with a wrong one', async () => {
    const f = await restFixture();
    for (const headers of [{}, await f.bearer(), { Authorization: 'Bearer test-admin-x' }]) {
      const res = await f.get('/admin/clock', headers);
      expect(res.status).toBe(401);
      expect(typeof (await json(res)).detail).toBe('string');
    }
  });

  it('changes nothing for an unauthorized admin request', async () => {
    const f = await restFixture();
    await f.post('/admin/clock/advance', { seconds: 60 }, { Authorization: 'Bearer nope' });
    expect(f.exchange.clock.nowNs).toBe(BigInt(START_NS));
  });
});

describe('admin clock', () => {
  it('reports the clock: now_ns as an integer string, speed and paused', async () => {
    const f = await restFixture();
    expect(await json(await f.get('/admin/clock', ADMIN))).toEqual({ now_ns: START_NS, speed: 1, paused: true });
  });

  it('advances sim time, running the events on the way', async () => {
    const f = await restFixture();
    const res = await f.post('/admin/clock/advance', { seconds: 90.5 }, ADMIN);
    expect(await json(res)).toEqual({ now_ns: '1767225690500000000', speed: 1, paused: true });
    expect(f.exchange.venue.market('BTCUSD-PERP')!.markHistory).toHaveLength(1);
  });

  it('answers 422 for a negative or non-numeric advance', async () => {
    const f = await restFixture();
    const neg = await json(await f.post('/admin/clock/advance', { seconds: -1 }, ADMIN));
    expect(neg.detail[0]).toMatchObject({ type: 'greater_than_equal', loc: ['body', 'seconds'] });
    const text = await json(await f.post('/admin/clock/advance', { seconds: 'soon' }, ADMIN));
    expect(text.detail[0]).toMatchObject({ type: 'float_parsing', msg: 'Input should be a valid number, unable to parse string as a number' });
  });

  it('pauses, and answers 409 to resume on a manual clock', async () => {
    const f = await restFixture();
    expect((await json(await f.post('/admin/clock/pause', undefined, ADMIN))).paused).toBe(true);
    const res = await f.post('/admin/clock/resume', undefined, ADMIN);
    expect(res.status).toBe(409);
    expect((await json(res)).detail).toMatch(/manual/);
  });

  it('sets the speed to a positive number or "max", and 422 otherwise', async () => {
    const f = await restFixture();
    expect((await json(await f.post('/admin/clock/speed', { speed: 'max' }, ADMIN))).speed).toBe('max');
    expect((await json(await f.post('/admin/clock/speed', { speed: 60 }, ADMIN))).speed).toBe(60);
    const bad = await f.post('/admin/clock/speed', { speed: 0 }, ADMIN);
    expect(bad.status).toBe(422);
    expect((await json(bad)).detail[0].loc).toEqual(['body', 'speed']);
  });
});

describe('admin users and cash', () => {
  it('creates a user who can then log in and has the given cash', async () => {
    const f = await restFixture();
    const res = await f.post('/admin/users', { username: 'dave', password: 'dave-password', cash: '2500.5' }, ADMIN);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ username: 'dave' });
    const snap = await json(await f.get('/risk_manager/risk_snapshot?username=dave', await f.bearer('dave')));
    expect(snap.cash_balance).toBe('2500.5');
  });

  it('answers 409 for an existing user', async () => {
    const f = await restFixture();
    const res = await f.post('/admin/users', { username: 'alice', password: 'x', cash: '1' }, ADMIN);
    expect(res.status).toBe(409);
    expect((await json(res)).detail).toMatch(/already exists/);
  });

  it('answers 422 for a bad cash amount and a bad TOTP secret', async () => {
    const f = await restFixture();
    const res = await f.post('/admin/users', { username: 'erin', password: 'x', cash: '1e6', totp_secret: 'not base32!' }, ADMIN);
    expect((await json(res)).detail.map((d: { loc: string[] }) => d.loc[1])).toEqual(['cash', 'totp_secret']);
    const short = await f.post('/admin/users', { username: 'erin', password: 'x', cash: '1', totp_secret: 'ABCD' }, ADMIN);
    expect(short.status).toBe(422);
    expect(f.exchange.users.has('erin')).toBe(false);
  });

  it('credits and debits cash and answers the user\'s risk snapshot', async () => {
    const f = await restFixture();
    const credit = await json(await f.post('/admin/cash', { username: 'bob', amount: '250.25' }, ADMIN));
    expect(credit).toMatchObject({ username: 'bob', cash_balance: '1000250.25' });
    const debit = await json(await f.post('/admin/cash', { username: 'bob', amount: '-1000000' }, ADMIN));
    expect(debit.cash_balance).toBe('250.25');
    expect((await f.post('/admin/cash', { username: 'nobody', amount: '1' }, ADMIN)).status).toBe(404);
  });
});

describe('admin orders, instruments and state hash', () => {
  it('cancels any user\'s open order with an EXCHANGE_OPTION cancel feed', async () => {
    const f = await restFixture();
    const { order_id } = await json(await f.post('/orders/insert_order', order({ username: 'bob' }), await f.bearer('bob')));
    const res = await f.post('/admin/orders/cancel', { order_id }, ADMIN);
    expect(await json(res)).toEqual({ canceled: true });
    expect(f.feeds.at(-1)).toEqual({ user: 'bob', feed: expect.objectContaining({ t: 'c', xr: 'EXCHANGE_OPTION' }) });
    const again = await f.post('/admin/orders/cancel', { order_id }, ADMIN);
    expect(again.status).toBe(404);
  });

  it('halts an instrument, which then rejects orders with EXCHANGE_CLOSED', async () => {
    const f = await restFixture();
    const res = await f.post('/admin/instruments/BTCUSD-PERP/state', { state: 'HALTED' }, ADMIN);
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ symbol: 'BTCUSD-PERP', state: 'HALTED', price_scale: 2 });
    await f.post('/orders/insert_order', order(), await f.bearer());
    expect(f.feeds.at(-1)!.feed).toMatchObject({ t: 'j', r: 'EXCHANGE_CLOSED' });
  });

  it('answers 422 for an unknown state and 404 for an unknown instrument', async () => {
    const f = await restFixture();
    const bad = await json(await f.post('/admin/instruments/BTCUSD-PERP/state', { state: 'PAUSED' }, ADMIN));
    expect(bad.detail[0]).toMatchObject({ type: 'enum', msg: "Input should be 'PRE_OPEN', 'OPEN', 'HALTED', 'CLOSED', 'CLOSED_FROZEN' or 'DELISTED'" });
    expect((await f.post('/admin/instruments/XRPUSD-PERP/state', { state: 'OPEN' }, ADMIN)).status).toBe(404);
  });

  it('reports a hex state hash that changes when the state does', async () => {
    const f = await restFixture();
    const before = (await json(await f.get('/admin/state_hash', ADMIN))).state_hash;
    expect(before).toMatch(/^[0-9a-f]+$/);
    await f.post('/orders/insert_order', order(), await f.bearer());
    const after = (await json(await f.get('/admin/state_hash', ADMIN))).state_hash;
    expect(after).not.toBe(before);
    expect(after).toBe(f.exchange.venue.stateHash());
  });
});

describe('admin users under concurrency', () => {
  it('creates one user and answers 409 to the other of two simultaneous requests for one name', async () => {
    const f = await restFixture();
    const [a, b] = await Promise.all([
      f.post('/admin/users', { username: 'frank', password: 'first-password', cash: '1' }, ADMIN),
      f.post('/admin/users', { username: 'frank', password: 'second-password', cash: '2' }, ADMIN),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    // The password that works must belong to the account that was opened.
    const winner = a.status === 200 ? { password: 'first-password', cash: '1' } : { password: 'second-password', cash: '2' };
    expect(await f.exchange.users.verifyPassword('frank', winner.password)).toBe(true);
    expect(f.exchange.venue.riskSnapshot(f.exchange.venue.account('frank')!).cash_balance).toBe(winner.cash);
  });
});
