import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { WireExchangePort } from '../../src/api/client/wire-exchange-port.ts';
import { parseServeArgs } from '../../src/cli/commands/serve.ts';
import { startServing } from '../../src/cli/serve-command.ts';
import type { BookUpdate } from '../../src/wire/market-data.ts';
import type { OrderFeed } from '../../src/wire/order.ts';
import { sharedFolder } from './shared-data.ts';

const tardis = sharedFolder('tardis-nautilus-samples', 'perpsim serve --replay on real tardis quotes and trades');

describe.skipIf(tardis.missing)(tardis.title, () => {
  it('serves the recording on the REST + websocket interface: the recorded book, and orders that trade against it', async () => {
    const dir = join(tardis.dir, '2020-02-22_binance-futures_BTCUSDT');
    const args = ['--replay', join(dir, 'quotes.csv'), join(dir, 'trades.csv'), '--tick-size', '0.01', '--lot-size', '0.001', '--port', '0', '--manual', '--admin-token', 'T'];
    const serving = await startServing(parseServeArgs(args, {}), { scryptCost: 1024 });
    try {
      expect(serving.banner).toContain('scenario replay-quotes');
      const trader = await WireExchangePort.connect({ baseUrl: serving.server.url, username: 'trader', password: 'trader', adminToken: 'T' });
      try {
        await trader.admin!.advance(30);
        const books: BookUpdate[] = [];
        trader.onMarketData((m) => m.t === '2' && books.push(m));
        await trader.subscribe('BTCUSDT-PERP', 'LEVEL_2');
        await vi.waitFor(() => expect(books.length).toBeGreaterThan(0));
        const book = books[0]!;
        expect(book.b.length).toBe(1); // the recorded quote: one level a side, per-lot prices
        expect(book.a.length).toBe(1);
        expect(Number(book.a[0]!.p)).toBeGreaterThan(9);
        expect(Number(book.a[0]!.p)).toBeLessThan(10);
        const feeds: OrderFeed[] = [];
        trader.onOrderFeed((f) => feeds.push(f));
        await trader.insertOrder({ symbol: 'BTCUSDT-PERP', price: book.a[0]!.p, quantity: 1, side: 'B', timeInForce: 'IOC' });
        await vi.waitFor(() => expect(feeds.some((f) => f.t === 'f')).toBe(true));
        expect(feeds.find((f) => f.t === 'f')!.xs).toMatchObject({ p: book.a[0]!.p, q: 1, agg: true });
      } finally {
        await trader.close();
      }
    } finally {
      await serving.close();
    }
  }, 60_000);
});
