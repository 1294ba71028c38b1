import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireError, WireHttpError, WireSocketError } from '../../../src/api/client/errors.ts';
import { WireExchangePort } from '../../../src/api/client/wire-exchange-port.ts';
import { Exchange } from '../../../src/api/exchange.ts';
import { startServer } from '../../../src/api/server.ts';
import { toInstrumentInfo } from '../../../src/venue/wire-forms.ts';
import type { BookUpdate } from '../../../src/wire/market-data.ts';
import { emptyScenario } from '../ws/helpers.ts';
import { ADMIN_TOKEN, feedOf, recordFeeds, recordMarketData, startClientFixture, type ClientFixture } from './fixture.ts';

const BTC = 'BTCUSD-PERP';
const ETH = 'ETHUSD-PERP';
const START_NS = 1_767_225_600_000_000_000n;
const SEC = 1_000_000_000n;

describe('WireExchangePort against a served exchange', () => {
  let fx: ClientFixture;
  beforeAll(async () => {
    fx = await startClientFixture();
  });
  afterAll(() => fx.close());

  it('logs in with a password and lists the instruments exactly as the venue describes them', async () => {
    const alice = await fx.connect('alice');
    expect(alice.username).toBe('alice');
    expect(await alice.instruments()).toEqual(fx.exchange.venue.markets.map(toInstrumentInfo));
  });

  it('logs in with a token already issued, or with an API key and secret created over the wire', async () => {
    const post = async (path: string, body: unknown, token?: string) => {
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (token !== undefined) headers.Authorization = `Bearer ${token}`;
      return (await (await fetch(fx.server.url + path, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as Record<string, string>;
    };
    const { token } = await post('/auth/get_user_token', { username: 'alice', password: 'alice-password', expiration_seconds: 600 });
    const viaToken = await fx.connect('alice', { password: undefined, token });
    expect((await viaToken.riskSnapshot()).username).toBe('alice');
    const { api_key, secret } = await post('/api/api-keys', { username: 'alice', password: 'alice-password' }, token);
    const viaKey = await fx.connect('alice', { password: undefined, apiKey: { key: api_key!, secret: secret! } });
    expect((await viaKey.riskSnapshot()).username).toBe('alice');
  });

  it('turns a refused login into a WireHttpError carrying the server message', async () => {
    const attempt = WireExchangePort.connect({ baseUrl: fx.server.url, username: 'alice', password: 'wrong' });
    await expect(attempt).rejects.toBeInstanceOf(WireHttpError);
    await expect(attempt).rejects.toMatchObject({ status: 401, message: 'Incorrect username or password' });
  });

  it('turns a websocket error envelope into a WireSocketError with its code', async () => {
    const alice = await fx.connect('alice');
    const bad = alice.insertOrder({ symbol: BTC, side: 'B', price: 'abc', quantity: 1, timeInForce: 'GTC' });
    await expect(bad).rejects.toBeInstanceOf(WireSocketError);
    await expect(bad).rejects.toMatchObject({ code: 400 });
    await expect(alice.subscribe('NOPE-PERP', 'LEVEL_1')).rejects.toMatchObject({ name: 'WireSocketError', code: 404 });
  });

  it('turns a 422 into a WireHttpError naming the failing field', async () => {
    const alice = await fx.connect('alice');
    const bad = alice.mtmPrices('NOPE-PERP', START_NS, START_NS + SEC);
    await expect(bad).rejects.toMatchObject({ status: 422 });
    await expect(bad).rejects.toThrow(/^body\.symbol: /);
  });

  it('delivers business rejects and cancel rejects as feeds, not errors', async () => {
    const alice = await fx.connect('alice');
    const feeds = recordFeeds(alice);
    const oid = await alice.insertOrder({ symbol: BTC, side: 'B', price: '49000.3', quantity: 1, timeInForce: 'GTC' });
    expect((await feeds.waitFor(feedOf('j', oid), 'Rejected Order feed')).r).toBe('INVALID_PRICE_INCREMENT');
    await alice.cancelOrder('O-NOT-AN-ORDER');
    const reject = await feeds.waitFor((f) => f.t === 'e', 'Cancel Reject feed');
    expect(reject).toMatchObject({ oid: 'O-NOT-AN-ORDER', r: 'UNKNOWN_ORDER' });
  });

  it('cancels all open orders over REST', async () => {
    const bob = await fx.connect('bob');
    const ids = [
      await bob.insertOrder({ symbol: ETH, side: 'B', price: '2990', quantity: 1, timeInForce: 'GTC' }),
      await bob.insertOrder({ symbol: ETH, side: 'B', price: '2991', quantity: 1, timeInForce: 'GTC' }),
    ];
    expect((await bob.openOrders()).map((o) => o.order_id).sort()).toEqual([...ids].sort());
    const result = await bob.cancelAll();
    expect(result.successful.sort()).toEqual([...ids].sort());
    expect(result.failed).toEqual([]);
    expect(await bob.openOrders()).toEqual([]);
  });

  it('subscribes to market data: stats and the book right after, then updates at the level', async () => {
    const alice = await fx.connect('alice');
    const bob = await fx.connect('bob');
    const md = recordMarketData(alice);
    await alice.subscribe(ETH, 'LEVEL_2');
    await md.waitFor((m) => m.t === 's' && m.s === ETH, 'stats after subscribe');
    await md.waitFor((m) => m.t === '2' && m.s === ETH, 'book after subscribe');
    await bob.insertOrder({ symbol: ETH, side: 'S', price: '3050.5', quantity: 7, timeInForce: 'GTC' });
    const update = (await md.waitFor((m) => m.t === '2' && (m as BookUpdate).a.some((l) => l.p === '3050.5'), 'book update with the new ask')) as BookUpdate;
    expect(update.a.find((l) => l.p === '3050.5')).toEqual({ p: '3050.5', q: 7 });
    await alice.unsubscribe(ETH);
    await expect(alice.unsubscribe(ETH)).rejects.toMatchObject({ code: 404 });
    await bob.cancelAll();
  });

  it('reads exchange time from the risk snapshot at connect and from messages afterwards', async () => {
    const bob = await fx.connect('bob');
    const t0 = bob.now();
    expect(t0).toBe(fx.exchange.clock.nowNs);
    fx.exchange.driver.advance(10);
    const md = recordMarketData(bob);
    await bob.subscribe(BTC, 'LEVEL_1');
    await md.waitFor((m) => m.t === 's');
    expect(bob.now()).toBe(t0 + 10n * SEC);
    await bob.unsubscribe(BTC);
  });

  it('fires timers on exchange time: when the admin clock reaches them, in due order, never when canceled', async () => {
    const alice = await fx.connect('alice', { adminToken: ADMIN_TOKEN });
    const fired: string[] = [];
    alice.setTimer(3600e9, () => fired.push('1h'));
    alice.setTimer(1800e9, () => fired.push('30m'));
    const cancel = alice.setTimer(2000e9, () => fired.push('canceled'));
    cancel();
    await alice.admin!.advance(1799);
    expect(fired).toEqual([]);
    await alice.admin!.advance(1);
    expect(fired).toEqual(['30m']);
    await alice.admin!.advance(1800);
    expect(fired).toEqual(['30m', '1h']);
    await new Promise<void>((resolve) => alice.setTimer(0, resolve)); // a due timer fires without a message
  });

  it('reads the token-based risk snapshot from {app_url} when /api is served on its own port', async () => {
    const exchange = await Exchange.create(emptyScenario(), { manual: true, scryptCost: 1024 });
    const server = await startServer(exchange, { port: 0, appPort: 0 });
    try {
      expect(server.appUrl).not.toBe(server.url);
      const bob = await WireExchangePort.connect({ baseUrl: server.url, appUrl: server.appUrl, username: 'bob', password: 'bob-password' });
      const snapshot = await bob.apiRiskSnapshot();
      await bob.close();
      expect(snapshot).toEqual(exchange.venue.apiRiskSnapshot(exchange.venue.account('bob')!));
      expect(snapshot.risk_snapshot.balance_usd).toBe('1000000');
    } finally {
      await server.close();
    }
  });

  it('rejects calls after close with a WireError', async () => {
    const alice = await WireExchangePort.connect({ baseUrl: fx.server.url, username: 'alice', password: 'alice-password' });
    await alice.close();
    const late = alice.insertOrder({ symbol: BTC, side: 'B', price: '49000', quantity: 1, timeInForce: 'GTC' });
    await expect(late).rejects.toBeInstanceOf(WireError);
    await expect(late).rejects.toThrow(/order websocket closed/);
  });
});
