/**
 * Websocket order entry against one server alone, for profiling and for before/after CPU time:
 * `node --import tsx bench/wire/profile-orders.ts [perpsim|perpsim+journal|ws-floor] [passes] [sockets] [in flight]` runs the
 * `wire.ws.orders` load (100k orders, 256 in flight, a crossing buy/sell pair) `passes` times on
 * that server and prints the server's CPU per order of each pass. The client is the wire bench's
 * child process, so under `node --cpu-prof` (of an esbuild bundle, so lines map to source) the
 * profile is the server's alone. At the end it prints the CPU of each of the server's threads
 * over all passes (`/proc/self/task`), by thread name: the journal's syncs run on libuv's pool
 * (`libuv-worker`), whose CPU a main-thread profile does not show.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Rig, type ServerKind } from './rig.ts';
import type { WsOrderResult } from './ws-order-load.ts';

const kind = (process.argv[2] ?? 'perpsim') as ServerKind;
const passes = Number(process.argv[3] ?? 5);
/** Sockets, a user each (`trader1…N`), as the `.journal` bench case loads (1: alice alone). */
const sockets = Number(process.argv[4] ?? 1);
const COUNT = 100_000;
const orders = (['B', 'S'] as const).map((d) => JSON.stringify({ t: 'p', s: 'ETHUSD-PERP', d, q: 1, p: '3000', tif: 'GTC', po: false }));

const rig = new Rig(kind, sockets > 1 ? sockets : 0);
await rig.start();
await rig.ask({ op: 'orders.open', url: `${rig.wsUrl}/orders`, user: 'alice', token: rig.token, traders: sockets > 1 ? rig.traders : undefined });
const threadsBefore = threadTicks();
const cpu: number[] = [];
let ordersDone = 0;
for (let i = 0; i < passes; i++) {
  const { result, serverCpuUs } = await rig.load<WsOrderResult>({
    op: 'orders',
    load: { url: `${rig.wsUrl}/orders`, user: 'alice', token: rig.token, orders, count: COUNT, depth: Number(process.argv[5] ?? 256) },
  });
  cpu.push(serverCpuUs / result.orders);
  ordersDone += result.orders;
  console.log(`${kind} pass ${i + 1}: ${((result.orders * 1e9) / result.elapsedNs / 1000).toFixed(1)}k orders/s, server CPU ${(serverCpuUs / result.orders).toFixed(2)} µs/order, ${result.errors} errors`);
}
const threadsAfter = threadTicks();
const stats = rig.journal?.syncStats;
if (stats !== undefined && stats.count > 0) {
  const lat = [...stats.latenciesNs].sort((a, b) => a - b);
  console.log(`${kind} journal: ${stats.count} syncs, ${(stats.entries / stats.count).toFixed(1)} entries per sync, latency p50 ${(lat[lat.length >> 1]! / 1e6).toFixed(2)} ms`);
}
await rig.stop();
const TICK_US = 10_000; // USER_HZ = 100 on Linux
for (const [name, ticks] of threadsAfter) {
  const used = ticks - (threadsBefore.get(name) ?? 0);
  if (used > 0) console.log(`${kind} thread ${name}: ${((used * TICK_US) / ordersDone).toFixed(2)} µs/order (user + system)`);
}
const sorted = [...cpu].sort((a, b) => a - b);
console.log(`${kind}: server CPU ${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)} µs/order, median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)}`);

/** CPU ticks (user + system) of this process's threads, summed by thread name ('main': the event loop's). */
function threadTicks(): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name = tid === String(process.pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' '); // fields from the 3rd (state) on
      const ticks = Number(fields[11]) + Number(fields[12]); // utime (14th), stime (15th)
      byName.set(name, (byName.get(name) ?? 0) + ticks);
    } catch {
      // the thread ended meanwhile
    }
  }
  return byName;
}
