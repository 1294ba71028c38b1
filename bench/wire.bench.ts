/**
 * Wire throughput, latency and server CPU (issues 4 and 11): perpsim's server (`startServer` on
 * 127.0.0.1:0 over the `empty` scenario with a manual clock) loaded by a client in a child
 * process, so client and server run on different cores and the bench process's CPU time is the
 * server's. Each case also runs its floor (bench/wire/floor-servers.ts) with the same client and
 * load, alternating with perpsim inside every pass (floor first in even passes, perpsim first in
 * odd ones), so both see the same machine; the note gives both rates, their ratio per pair and
 * the server CPU time per op of each. Every run is bounded in count, and a run that takes longer
 * than RUN_TIMEOUT_MS fails the bench instead of hanging. Loopback only.
 *
 * - `wire.rest.insert`: POST /orders/insert_order, keep-alive, pipelined (one op = one request);
 *   floor: a trivial Hono POST handler.
 * - `wire.ws.orders`: order-websocket place requests with their replies and feeds (one op = one
 *   order); floor: a bare `ws` server sending the same messages.
 * - `wire.md.l1` / `wire.md.l2`: market data to 100 subscribers (one op = one message
 *   received); floor: the bare `ws` server fanning out the same stats and book messages.
 * - `.journal` variants: `serve --data-dir`'s journal; their floor is plain perpsim (no journal)
 *   under the SAME client load, alternated within every pass like the others, so the note's
 *   ratio is journaled/plain orders/s (issue 17's target: ≥ 0.8) and the CPU ratio the
 *   journal's cost. Their load is heavier than the plain cases' so that the plain server is
 *   CPU-bound (the ratio depends on the orders in flight, D: see README "Reliability and
 *   security"): websocket JOURNAL_WS sockets × depth, REST JOURNAL_REST connections × depth;
 *   `PERPSIM_BENCH_JOURNAL_WS=1x256` / `PERPSIM_BENCH_JOURNAL_REST=4x8` set other loads. The note
 *   adds the journal's syncs: latency median / p99 and the mean group (entries per sync).
 *
 * The table's ops/s is perpsim's median rate over the timed passes; cpu ops/s is ops per second
 * of server CPU (median). Latencies (p50 / p99 / max, µs) are per request (REST, ws orders:
 * send → reply) and per subscriber message (md: sending the command that causes a trade → each
 * subscriber's stats message for it), from perpsim's last timed run.
 */
import { median, type BenchCase } from './harness.ts';
import type { ClientJob } from './wire/client-process.ts';
import type { LatencySummary } from './wire/latency.ts';
import type { MdResult } from './wire/md-load.ts';
import type { RestResult } from './wire/rest-load.ts';
import { Rig, type ServerKind } from './wire/rig.ts';
import type { WsOrderResult } from './wire/ws-order-load.ts';

const SYMBOL = 'ETHUSD-PERP';
/** A buy and a sell at one price, one lot: each pair trades (self-trade is allowed), the book and the account stay flat. */
const ORDER_PAIR = (['B', 'S'] as const).map((d) => ({ t: 'p', s: SYMBOL, d, q: 1, p: '3000', tif: 'GTC', po: false }));

const REST_REQUESTS = 20_000;
const REST_CONNECTIONS = 4;
const REST_DEPTH = 8;
const WS_ORDERS = 100_000;
const WS_DEPTH = 256;
const MD_SUBSCRIBERS = 100;
const MD_CYCLES = 3_000;
const MD_WINDOW = 16;
const WARMUP_PASSES = 1;

/** `AxB` from the environment (sockets or connections × in flight on each), else the default. */
function loadShape(name: string, fallback: [number, number]): [number, number] {
  const m = /^(\d+)x(\d+)$/.exec(process.env[name] ?? '');
  return m === null ? fallback : [Number(m[1]), Number(m[2])];
}
const JOURNAL_WS = loadShape('PERPSIM_BENCH_JOURNAL_WS', [4, 256]);
const JOURNAL_REST = loadShape('PERPSIM_BENCH_JOURNAL_REST', [16, 16]);

/** The journal's syncs so far: latency median / p99 and entries per sync. */
function syncNote(rig: Rig): string {
  const stats = rig.journal?.syncStats;
  if (stats === undefined || stats.count === 0) return '';
  const sorted = [...stats.latenciesNs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! / 1e6;
  return `; journal: ${stats.count.toLocaleString('en-US')} syncs, latency p50 ${at(0.5).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms, ${(stats.entries / stats.count).toFixed(1)} entries per sync`;
}

const us = (x: number): string => (Number.isNaN(x) ? '-' : x >= 1000 ? `${(x / 1000).toFixed(2)} ms` : `${Math.round(x)} µs`);
const latencyNote = (l: LatencySummary): string => `p50 ${us(l.p50Us)}, p99 ${us(l.p99Us)}, max ${us(l.maxUs)} (${l.samples.toLocaleString('en-US')} samples)`;
const k = (x: number): string => (x >= 1e6 ? `${(x / 1e6).toFixed(2)}M` : `${(x / 1e3).toFixed(1)}k`);
const range = (xs: number[], f: (x: number) => string): string => `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;

/** One timed load of one server. */
interface Sample {
  opsPerSec: number;
  cpuUsPerOp: number;
}

/** What a wire case runs: its servers, how to open and load them, and what to say about a result. */
interface WireSpec<R> {
  name: string;
  unit: string;
  server: ServerKind;
  floor?: ServerKind;
  opsOf(r: R): number;
  open(rig: Rig): Promise<unknown>;
  job(rig: Rig): ClientJob;
  note(r: R): string;
  /** Timed passes (default 3); the journal's cases run 5, their pairs scatter more. */
  passes?: number;
  /** Users trader1…N the rigs make (a socket each in the journal's websocket case). */
  traders?: number;
  /** More to say about the server after its passes (the journal's syncs). */
  serverNote?(rig: Rig): string;
}

/** A wire case: a few whole passes, each the load on perpsim and on its floor, alternating. */
function wireCase<R extends { elapsedNs: number }>(spec: WireSpec<R>): BenchCase {
  const traders = spec.traders ?? 0;
  const rigs = { server: new Rig(spec.server, traders), floor: spec.floor === undefined ? undefined : new Rig(spec.floor, traders) };
  const samples: { server: Sample[]; floor: Sample[] } = { server: [], floor: [] };
  let passes = 0;
  let last: R | undefined;
  const timedLoad = async (which: 'server' | 'floor'): Promise<void> => {
    const rig = rigs[which]!;
    const { result, serverCpuUs } = await rig.load<R>(spec.job(rig));
    const ops = spec.opsOf(result);
    if (passes > WARMUP_PASSES) samples[which].push({ opsPerSec: (ops * 1e9) / result.elapsedNs, cpuUsPerOp: serverCpuUs / ops });
    if (which === 'server') last = result;
  };
  return {
    name: spec.name,
    unit: spec.unit,
    get opsPerRun() {
      return last === undefined ? 1 : spec.opsOf(last);
    },
    iterations: spec.passes ?? 3,
    timeMs: 0,
    warmupIterations: WARMUP_PASSES,
    gcBetweenRuns: true,
    async: true,
    async setup() {
      for (const rig of [rigs.server, rigs.floor]) {
        if (rig === undefined) continue;
        await rig.start();
        await spec.open(rig);
      }
    },
    async teardown() {
      await rigs.server.stop();
      await rigs.floor?.stop();
    },
    prepare() {},
    reset() {},
    async run() {
      passes++;
      const order: ('server' | 'floor')[] = rigs.floor === undefined ? ['server'] : passes % 2 === 0 ? ['floor', 'server'] : ['server', 'floor'];
      for (const which of order) await timedLoad(which);
    },
    release() {},
    dispose() {},
    describe() {
      if (last === undefined || samples.server.length === 0) return 'no run';
      const s = samples.server;
      let text = `${spec.note(last)}${spec.serverNote?.(rigs.server) ?? ''}; perpsim ${range(s.map((x) => x.opsPerSec), k)}/s, server CPU ${range(s.map((x) => x.cpuUsPerOp), (x) => x.toFixed(1))} µs/${spec.unit}`;
      const f = samples.floor;
      if (f.length > 0) {
        const ratios = s.map((x, i) => x.opsPerSec / f[i]!.opsPerSec);
        const cpuRatios = s.map((x, i) => x.cpuUsPerOp / f[i]!.cpuUsPerOp);
        const ratioName = spec.floor === 'perpsim' ? 'ratio journaled/plain' : 'ratio to floor';
        text +=
          `; floor (${spec.floor}) ${range(f.map((x) => x.opsPerSec), k)}/s, server CPU ${range(f.map((x) => x.cpuUsPerOp), (x) => x.toFixed(1))} µs/${spec.unit}` +
          `; ${ratioName} ${median(ratios).toFixed(2)}× (pairs ${range(ratios, (x) => x.toFixed(2))}), CPU per ${spec.unit} ${median(cpuRatios).toFixed(2)}× the floor's`;
      }
      return text;
    },
    rates() {
      const s = samples.server;
      if (s.length === 0) return undefined;
      return { opsPerSec: median(s.map((x) => x.opsPerSec)), cpuOpsPerSec: median(s.map((x) => 1e6 / x.cpuUsPerOp)) };
    },
  };
}

function restCase(journal = false): BenchCase {
  const [connections, depth] = journal ? JOURNAL_REST : [REST_CONNECTIONS, REST_DEPTH];
  return wireCase<RestResult>({
    name: journal ? 'wire.rest.insert.journal' : 'wire.rest.insert',
    unit: 'request',
    server: journal ? 'perpsim+journal' : 'perpsim',
    floor: journal ? 'perpsim' : 'hono-floor',
    opsOf: (r) => r.requests,
    open: async () => {},
    job: (rig) => ({
      op: 'rest',
      load: {
        host: '127.0.0.1',
        port: rig.port,
        path: '/orders/insert_order',
        token: rig.token,
        bodies: ORDER_PAIR.map((o) =>
          JSON.stringify({ username: 'alice', symbol: o.s, price: o.p, quantity: o.q, side: o.d, time_in_force: o.tif, post_only: o.po }),
        ),
        count: REST_REQUESTS,
        connections,
        depth,
      },
    }),
    note: (r) =>
      `${r.requests.toLocaleString('en-US')} requests (${connections} keep-alive connections × ${depth} pipelined), ` +
      `${r.non200} not 200; latency ${latencyNote(r.latency)}`,
    serverNote: syncNote,
    passes: journal ? 5 : undefined,
  });
}

function wsOrdersCase(journal = false): BenchCase {
  const [sockets, depth] = journal ? JOURNAL_WS : [1, WS_DEPTH];
  return wireCase<WsOrderResult>({
    name: journal ? 'wire.ws.orders.journal' : 'wire.ws.orders',
    unit: 'order',
    server: journal ? 'perpsim+journal' : 'perpsim',
    floor: journal ? 'perpsim' : 'ws-floor',
    opsOf: (r) => r.orders,
    traders: sockets > 1 ? sockets : 0,
    passes: journal ? 5 : undefined,
    open: (rig) => rig.ask({ op: 'orders.open', url: `${rig.wsUrl}/orders`, user: 'alice', token: rig.token, traders: sockets > 1 ? rig.traders : undefined }),
    job: (rig) => ({
      op: 'orders',
      load: { url: `${rig.wsUrl}/orders`, user: 'alice', token: rig.token, orders: ORDER_PAIR.map((o) => JSON.stringify(o)), count: WS_ORDERS, depth },
    }),
    note: (r) =>
      `${r.orders.toLocaleString('en-US')} orders (${sockets > 1 ? `${sockets} sockets, a user each, × ` : ''}${depth} in flight), ${Math.round(r.messages / r.orders)} messages an order, ` +
      `feeds ${JSON.stringify(r.feeds)}, ${r.errors} errors; latency ${sockets > 1 ? '(worst socket) ' : ''}${latencyNote(r.latency)}`,
    serverNote: syncNote,
  });
}

function mdCase(level: 'LEVEL_1' | 'LEVEL_2'): BenchCase {
  // Base book: ten asks and ten bids around the tagged bids (2990.00 + tag·0.01).
  const base = [
    ...Array.from({ length: 10 }, (_, i) => ({ t: 'p', s: SYMBOL, d: 'S', q: 1 + i, p: String(3000 + i), tif: 'GTC', po: false })),
    ...Array.from({ length: 10 }, (_, i) => ({ t: 'p', s: SYMBOL, d: 'B', q: 1 + i, p: String(2989 - i), tif: 'GTC', po: false })),
  ];
  return wireCase<MdResult>({
    name: level === 'LEVEL_1' ? 'wire.md.l1' : 'wire.md.l2',
    unit: 'message',
    server: 'perpsim',
    floor: 'ws-floor',
    opsOf: (r) => r.messages,
    open: (rig) =>
      rig.ask({
        op: 'md.open',
        ordersUrl: `${rig.wsUrl}/orders`,
        mdUrl: `${rig.wsUrl}/md/ws`,
        user: 'alice',
        token: rig.token,
        symbol: SYMBOL,
        level,
        subscribers: MD_SUBSCRIBERS,
        base,
      }),
    job: () => ({ op: 'md', load: { mdUrl: '', symbol: SYMBOL, level, cycles: MD_CYCLES, window: MD_WINDOW } }),
    note: (r) =>
      `${MD_SUBSCRIBERS} subscribers at ${level}, ${r.cycles.toLocaleString('en-US')} trade+book cycles (${MD_WINDOW} in flight): ` +
      `${r.stats.toLocaleString('en-US')} stats, ${r.bookUpdates.toLocaleString('en-US')} book; latency ${latencyNote(r.latency)}`,
  });
}

export function wireCases(): BenchCase[] {
  return [restCase(), restCase(true), wsOrdersCase(), wsOrdersCase(true), mdCase('LEVEL_1'), mdCase('LEVEL_2')];
}
