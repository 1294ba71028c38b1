/**
 * Websocket order entry against one server alone, for profiling and for before/after CPU time:
 * `node --import tsx bench/wire/profile-orders.ts [perpsim|ws-floor] [passes]` runs the
 * `wire.ws.orders` load (100k orders, 256 in flight, a crossing buy/sell pair) `passes` times on
 * that server and prints the server's CPU per order of each pass. The client is the wire bench's
 * child process, so under `node --cpu-prof` (of an esbuild bundle, so lines map to source) the
 * profile is the server's alone.
 */
import { Rig, type ServerKind } from './rig.ts';
import type { WsOrderResult } from './ws-order-load.ts';

const kind = (process.argv[2] ?? 'perpsim') as ServerKind;
const passes = Number(process.argv[3] ?? 5);
const COUNT = 100_000;
const orders = (['B', 'S'] as const).map((d) => JSON.stringify({ t: 'p', s: 'ETHUSD-PERP', d, q: 1, p: '3000', tif: 'GTC', po: false }));

const rig = new Rig(kind);
await rig.start();
await rig.ask({ op: 'orders.open', url: `${rig.wsUrl}/orders`, user: 'alice', token: rig.token });
const cpu: number[] = [];
for (let i = 0; i < passes; i++) {
  const { result, serverCpuUs } = await rig.load<WsOrderResult>({
    op: 'orders',
    load: { url: `${rig.wsUrl}/orders`, user: 'alice', token: rig.token, orders, count: COUNT, depth: 256 },
  });
  cpu.push(serverCpuUs / result.orders);
  console.log(`${kind} pass ${i + 1}: ${((result.orders * 1e9) / result.elapsedNs / 1000).toFixed(1)}k orders/s, server CPU ${(serverCpuUs / result.orders).toFixed(2)} µs/order, ${result.errors} errors`);
}
await rig.stop();
const sorted = [...cpu].sort((a, b) => a - b);
console.log(`${kind}: server CPU ${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)} µs/order, median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)}`);
