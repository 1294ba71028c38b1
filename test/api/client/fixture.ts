import { WireExchangePort } from '../../../src/api/client/wire-exchange-port.ts';
import type { WireClientOptions } from '../../../src/api/client/wire-client-options.ts';
import { Exchange } from '../../../src/api/exchange.ts';
import { startServer, type RunningServer } from '../../../src/api/server.ts';
import type { MarketDataMessage } from '../../../src/wire/market-data.ts';
import type { OrderFeed } from '../../../src/wire/order.ts';
import { emptyScenario } from '../ws/helpers.ts';

export const ADMIN_TOKEN = 'client-test-admin';

/** The empty scenario on a manual clock, served on 127.0.0.1:0. */
export interface ClientFixture {
  exchange: Exchange;
  server: RunningServer;
  /** A wire client logged in as `username` (closed by `close`). */
  connect(username: 'alice' | 'bob', extra?: Partial<WireClientOptions>): Promise<WireExchangePort>;
  close(): Promise<void>;
}

export async function startClientFixture(): Promise<ClientFixture> {
  const exchange = await Exchange.create(emptyScenario(), { manual: true, scryptCost: 1024, adminToken: ADMIN_TOKEN });
  const server = await startServer(exchange, { port: 0 });
  const ports: WireExchangePort[] = [];
  return {
    exchange,
    server,
    async connect(username, extra = {}) {
      const port = await WireExchangePort.connect({ baseUrl: server.url, wsUrl: server.wsUrl, username, password: `${username}-password`, ...extra });
      ports.push(port);
      return port;
    },
    async close() {
      await Promise.all(ports.map((p) => p.close()));
      await server.close();
    },
  };
}

/** Records what a port receives and lets a test wait for a matching message. */
export class Recorder<T> {
  readonly seen: T[] = [];
  private waiters: (() => void)[] = [];

  push = (message: T): void => {
    this.seen.push(message);
    const w = this.waiters;
    this.waiters = [];
    w.forEach((f) => f());
  };

  /** Resolves with the first recorded message matching `match` (failing after 2 s of wall time). */
  async waitFor(match: (m: T) => boolean, what = 'a matching message'): Promise<T> {
    const deadline = Date.now() + 2000;
    for (;;) {
      const found = this.seen.find(match);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`no ${what}; seen: ${JSON.stringify(this.seen)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

/** Order feeds of a port. */
export function recordFeeds(port: WireExchangePort): Recorder<OrderFeed> {
  const r = new Recorder<OrderFeed>();
  port.onOrderFeed(r.push);
  return r;
}

/** Market data of a port. */
export function recordMarketData(port: WireExchangePort): Recorder<MarketDataMessage> {
  const r = new Recorder<MarketDataMessage>();
  port.onMarketData(r.push);
  return r;
}

/** The feed of type `t` about order `oid`. */
export const feedOf = (t: OrderFeed['t'], oid: string) => (f: OrderFeed) => f.t === t && f.o?.oid === oid;
