import { createServer, connect, type Server, type Socket } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WireExchangePort } from '../../src/api/client/wire-exchange-port.ts';
import type { Reconnected } from '../../src/api/client/wire-client-options.ts';
import { liveCommand } from '../../src/cli/live-command.ts';
import { startServing, type Serving } from '../../src/cli/serve-command.ts';
import { runLive } from '../../src/live/live-run.ts';
import type { Strategy } from '../../src/strategy/strategy.ts';
import type { BookUpdate } from '../../src/wire/market-data.ts';
import type { OrderFeed } from '../../src/wire/order.ts';

const BTC = 'BTCUSD-PERP';

/** A TCP proxy in front of the server, so a test can drop every connection the way a server or network does. */
async function startProxy(targetPort: number): Promise<{ url: string; dropAll(): void; close(): Promise<void> }> {
  const pairs: [Socket, Socket][] = [];
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    pairs.push([client, upstream]);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    dropAll: () => pairs.splice(0).forEach(([, upstream]) => upstream.destroy()), // the server side goes away
    close: () => {
      pairs.splice(0).forEach(([c, u]) => (c.destroy(), u.destroy()));
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Resolves with the first value `check` returns that is not undefined, polling every 20 ms for at most 10 s. */
async function eventually<T>(check: () => T | undefined): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const v = check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not met within 10 s');
}

let serving: Serving | undefined;
let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
  await serving?.close();
  serving = undefined;
});

async function serve(): Promise<Serving> {
  serving = await startServing({ scenario: 'empty', host: '127.0.0.1', port: 0, speed: 1, manual: true, adminToken: 'admin-secret' }, { scryptCost: 1024 });
  return serving;
}

describe('perpsim live against perpsim serve', () => {
  it('reconnects after the server drops its sockets: resubscribes (with its depth), reconciles open orders, and at the end cancels all', async () => {
    const { exchange, server } = await serve();
    const proxy = await startProxy(Number(new URL(server.url).port));
    cleanups.push(() => proxy.close());
    const port = await WireExchangePort.connect({ baseUrl: proxy.url, username: 'alice', password: 'alice-password', keepAlive: true, timeoutMs: 2000 });
    cleanups.push(() => port.close());
    const reconnects: Reconnected[] = [];
    port.onReconnect((r) => reconnects.push(r));
    const feeds: OrderFeed[] = [];
    const books: BookUpdate[] = [];
    const strategy: Strategy = {
      async onStart(p) {
        await p.subscribe(BTC, 'LEVEL_2', { depth: 1 }); // perpsim's depth extension: the touch only
        await p.insertOrder({ symbol: BTC, side: 'B', price: '49000', quantity: 1, timeInForce: 'GTC' });
        await p.insertOrder({ symbol: BTC, side: 'B', price: '48000', quantity: 2, timeInForce: 'GTC' });
      },
      onOrderFeed: (f) => void feeds.push(f),
      onBook: (b) => void books.push(b),
    };
    let stop!: () => void;
    const run = runLive(strategy, port, { stop: new Promise<void>((r) => (stop = r)), source: 'live test', sampleIntervalMs: 50 });
    await eventually(() => (feeds.filter((f) => f.t === 'n').length === 2 ? true : undefined));
    const filledId = feeds.find((f) => f.t === 'n' && f.o?.p === '49000')!.o!.oid;

    proxy.dropAll();
    // While the client is away, bob sells into alice's 49000 bid: its feeds are lost with the socket.
    const bob = exchange.venue.account('bob')!;
    exchange.venue.placeOrder(bob, { symbol: BTC, side: 'S', price: '49000', quantity: 1, timeInForce: 'IOC', postOnly: false });
    const booksBefore = books.length;

    const orders = await eventually(() => reconnects.find((r) => r.socket === 'orders'));
    expect(orders.closedWhileAway).toEqual([filledId]);
    await eventually(() => reconnects.find((r) => r.socket === 'market data'));
    // The resubscribe brought the book as it is now: only the 48000 bid is left.
    const fresh = await eventually(() => books.slice(booksBefore).find((b) => b.b.length === 1 && b.b[0]!.p === '48000'));
    expect(fresh).toMatchObject({ t: '2', s: BTC, b: [{ p: '48000', q: 2 }], a: [] });
    // The port works on the new sockets: a new order is acknowledged and its feed arrives.
    const id = await port.insertOrder({ symbol: BTC, side: 'B', price: '48500', quantity: 1, timeInForce: 'GTC' });
    await eventually(() => feeds.find((f) => f.t === 'n' && f.o?.oid === id));
    // Two bids rested each time, yet no update carried more than the touch: the depth was sent
    // on subscribe and again on the resubscribe after the reconnect (48500 above 48000).
    await eventually(() => books.find((b) => b.b[0]?.p === '48500'));
    expect(books.some((b) => b.b[0]?.p === '49000')).toBe(true);
    expect(books.every((b) => b.b.length <= 1)).toBe(true);

    stop();
    const result = await run;
    const alice = exchange.venue.account('alice')!;
    expect(exchange.venue.openOrders(alice)).toEqual([]); // cancel all at the end
    expect(result.samples.at(-1)!.positions).toEqual([1]); // the fill made while away, from the risk snapshot
    expect(result.orders.accepted).toBe(3);
    expect(result.orders.canceled).toBe(2);
  });

  it('renews its token before it expires, so REST calls keep working past the first token\'s life', async () => {
    await serve();
    const port = await WireExchangePort.connect({ baseUrl: serving!.server.url, username: 'bob', password: 'bob-password', tokenExpirationSeconds: 1, keepAlive: true, timeoutMs: 2000 });
    cleanups.push(() => port.close());
    await new Promise((r) => setTimeout(r, 1600));
    expect(await port.openOrders()).toEqual([]);
  });

  it('runs a strategy file from the command line and writes the backtest report files', async () => {
    await serve();
    const dir = mkdtempSync(join(tmpdir(), 'perpsim-live-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'quoter.ts');
    writeFileSync(
      file,
      `export default () => ({
        async onStart(port) {
          await port.subscribe('${BTC}', 'LEVEL_1');
          await port.insertOrder({ symbol: '${BTC}', side: 'S', price: '51000', quantity: 1, timeInForce: 'GTC' });
        },
      });\n`,
    );
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const code = liveCommand({ strategyFile: file, url: serving!.server.url, user: 'alice', password: 'alice-password', outDir: join(dir, 'out'), sampleIntervalMs: 50 }, stopped);
    const alice = serving!.exchange.venue.account('alice')!;
    await eventually(() => (serving!.exchange.venue.openOrders(alice).length === 1 ? true : undefined));
    stop();
    expect(await code).toBe(0);
    expect(serving!.exchange.venue.openOrders(alice)).toEqual([]);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    expect(report).toMatchObject({ strategy: 'quoter.ts', user: 'alice', scenario: `live ${serving!.server.url}` });
    expect(report.metrics).toBeDefined();
    for (const f of ['report.html', 'fills.csv', 'equity.csv', 'fills.arrow']) expect(existsSync(join(dir, 'out', f)), f).toBe(true);
  });

  it('refuses missing credentials in one line', async () => {
    await expect(liveCommand({ strategyFile: 'x.ts', url: 'http://127.0.0.1:1', user: 'alice' })).rejects.toThrow(/give --password, or --api-key with --secret/);
  });
});
