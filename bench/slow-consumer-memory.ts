/**
 * Memory per slow consumer (`npx tsx bench/slow-consumer-memory.ts`): SLOW market-data sockets
 * subscribe to a deep LEVEL_2 book and stop reading; the book changes until every one was
 * dropped. Prints the server's peak RSS and heap above the baseline, per slow socket, and the
 * largest gap between event-loop turns while they were dropped.
 */
import { WebSocket } from 'ws';
import { Exchange } from '../src/api/exchange.ts';
import { startServer } from '../src/api/server.ts';
import { parseMoney } from '../src/core/money.ts';
import { loadScenario } from '../src/scenario/load.ts';

const SLOW = 50;
const exchange = await Exchange.create(loadScenario('empty'), { manual: true, scryptCost: 1024 });
const server = await startServer(exchange, { port: 0, heartbeatMs: 60_000 });
const alice = exchange.venue.account('alice')!;
exchange.venue.adjustCash(alice, parseMoney('1000000000000'));
for (let i = 0; i < 150; i++) exchange.venue.placeOrder(alice, { symbol: 'BTCUSD-PERP', side: 'B', price: String(49_000 - i), quantity: 1 + i, timeInForce: 'GTC', postOnly: false });
const token = (await exchange.users.tokenForPassword('alice', 'alice-password', 3600))!;
const sockets: WebSocket[] = [];
for (let i = 0; i < SLOW; i++) {
  const ws = new WebSocket(`${server.wsUrl}/md/ws`);
  await new Promise((r) => ws.once('open', r));
  ws.send(JSON.stringify({ request_id: 1, type: 'login', username: 'alice', token }));
  ws.send(JSON.stringify({ request_id: 2, type: 'subscribe', symbol: 'BTCUSD-PERP', level: 'LEVEL_2' }));
  await new Promise((r) => setTimeout(r, 20));
  (ws as unknown as { _socket: { pause(): void } })._socket.pause();
  ws.on('error', () => {});
  sockets.push(ws);
}
globalThis.gc?.();
const base = process.memoryUsage();
let peakRss = base.rss;
let peakHeap = base.heapUsed + base.external + base.arrayBuffers;
let lastTurn = performance.now();
let maxGapMs = 0;
const gap = setInterval(() => {
  const now = performance.now();
  maxGapMs = Math.max(maxGapMs, now - lastTurn);
  lastTurn = now;
}, 1);
console.warn = () => {};
let changes = 0;
while (server.openSockets() > 0 && changes < 200_000) {
  for (let k = 0; k < 50; k++, changes++) {
    const o = exchange.venue.placeOrder(alice, { symbol: 'BTCUSD-PERP', side: 'B', price: '48000', quantity: 1, timeInForce: 'GTC', postOnly: false });
    await Promise.resolve();
    exchange.venue.cancelOrder(alice, o.id);
    await Promise.resolve();
  }
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed + m.external + m.arrayBuffers);
  await new Promise((r) => setImmediate(r));
}
clearInterval(gap);
const mb = (x: number) => (x / 1024 / 1024).toFixed(1);
console.log(
  `${SLOW} slow LEVEL_2 subscribers dropped after ${changes} book changes (${server.openSockets()} left): peak RSS +${mb(peakRss - base.rss)} MB ` +
    `(${mb((peakRss - base.rss) / SLOW)} MB per socket), peak heap+external +${mb(peakHeap - (base.heapUsed + base.external + base.arrayBuffers))} MB; ` +
    `longest event-loop gap ${maxGapMs.toFixed(0)} ms`,
);
for (const ws of sockets) ws.terminate();
await server.close();
