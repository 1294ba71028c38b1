import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Exchange } from '../../src/api/exchange.ts';
import { parseMoney } from '../../src/core/money.ts';
import { startServer, type RunningServer } from '../../src/api/server.ts';
import { MAX_BUFFERED_BYTES } from '../../src/api/ws/outbox.ts';
import type { Account } from '../../src/venue/account.ts';
import { emptyScenario, TestSocket } from '../api/ws/helpers.ts';

/**
 * Slow consumers are dropped without freezing anyone else. SLOW market-data sockets subscribe
 * to a deep LEVEL_2 book and stop reading; the book changes until every one of them passed its
 * cap and was dropped, while another client keeps calling REST. Its slowest answer must stay
 * under a second — a bound on a stall (dropping used to freeze the server for 10–15 s), not a
 * performance figure. Bounded: at most MAX_CHANGES book changes.
 */
const SLOW = 12;
const LEVELS = 150;
const MAX_CHANGES = 40_000;

let exchange: Exchange;
let server: RunningServer;
let alice: Account;
beforeAll(async () => {
  exchange = await Exchange.create(emptyScenario(), { manual: true, scryptCost: 1024 });
  server = await startServer(exchange, { port: 0, heartbeatMs: 60_000 });
  alice = exchange.venue.account('alice')!;
  exchange.venue.adjustCash(alice, parseMoney('1000000000000'));
  // A deep book: every LEVEL_2 update is several kilobytes.
  for (let i = 0; i < LEVELS; i++) {
    const order = exchange.venue.placeOrder(alice, { symbol: 'BTCUSD-PERP', side: 'B', price: String(49_000 - i), quantity: 1 + i, timeInForce: 'GTC', postOnly: false });
    if (order.state !== 'NEW') throw new Error(`setup order ${i}: ${order.state}`);
  }
});
afterAll(() => server.close());

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('slow consumers', () => {
  it(`drops ${SLOW} non-reading LEVEL_2 subscribers while another client's REST calls answer within a second`, async () => {
    const token = (await exchange.users.tokenForPassword('alice', 'alice-password', 3600))!;
    const slow: TestSocket[] = [];
    for (let i = 0; i < SLOW; i++) {
      const s = await TestSocket.open(`${server.wsUrl}/md/ws`);
      await s.request({ request_id: 1, type: 'login', username: 'alice', token }, 'request_id');
      await s.request({ request_id: 2, type: 'subscribe', symbol: 'BTCUSD-PERP', level: 'LEVEL_2' }, 'request_id');
      (s.ws as unknown as { _socket: { pause(): void } })._socket.pause(); // stop reading
      slow.push(s);
    }
    const reader = await TestSocket.open(`${server.wsUrl}/orders`); // a well-behaved socket that stays
    expect(server.openSockets()).toBe(SLOW + 1);

    let probing = true;
    const latenciesMs: number[] = [];
    const probe = (async () => {
      const headers = { Authorization: `Bearer ${token}` };
      while (probing) {
        const t0 = performance.now();
        const res = await fetch(`${server.url}/auth/instruments`, { headers });
        await res.arrayBuffer();
        latenciesMs.push(performance.now() - t0);
        expect(res.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();

    const warn = console.warn;
    console.warn = () => {}; // one line per dropped socket; expected here
    let changes = 0;
    try {
      while (server.openSockets() > 1 && changes < MAX_CHANGES) {
        for (let k = 0; k < 50; k++, changes++) {
          const order = exchange.venue.placeOrder(alice, { symbol: 'BTCUSD-PERP', side: 'B', price: '48000', quantity: 1, timeInForce: 'GTC', postOnly: false });
          await Promise.resolve(); // the fan-out flushes in a microtask: one update per change
          exchange.venue.cancelOrder(alice, order.id);
          await Promise.resolve();
        }
        await turn();
      }
    } finally {
      console.warn = warn;
      probing = false;
      await probe;
    }
    expect(server.openSockets()).toBe(1); // every slow one dropped, the reader kept
    expect(reader.isOpen).toBe(true);
    expect(changes).toBeLessThan(MAX_CHANGES);
    expect(latenciesMs.length).toBeGreaterThan(0);
    expect(Math.max(...latenciesMs)).toBeLessThan(1000);
    // Each slow socket held at most its cap before the drop: a bound far below the old 32 MB.
    expect(MAX_BUFFERED_BYTES).toBeLessThanOrEqual(4 * 1024 * 1024);
    await reader.close();
    for (const s of slow) s.ws.terminate();
  }, 60_000);
});
