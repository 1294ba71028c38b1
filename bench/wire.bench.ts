/**
 * Wire throughput and latency (issue 4): a server from `startServer` on 127.0.0.1:0 over the
 * `empty` scenario with a manual clock (sim time stands still: only the commands move the book),
 * loaded by a client in a worker thread (bench/wire/client-worker.ts) so client and server run
 * on different cores. Every run is bounded in count, and a run that takes longer than
 * {@link RUN_TIMEOUT_MS} fails the bench instead of hanging. Loopback only.
 *
 * - `wire.rest.insert`: POST /orders/insert_order, keep-alive, pipelined (one op = one request).
 * - `wire.ws.orders`: order-websocket place requests with their replies and feeds (one op = one order).
 * - `wire.md.l1` / `wire.md.l2`: market data to 100 subscribers (one op = one message received).
 *
 * Latencies (p50 / p99 / max, µs) are per request (REST, ws orders: send → reply) and per
 * subscriber message (md: sending the command that causes a trade → each subscriber's stats
 * message for it), from the last timed run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { JournalFile } from '../src/api/journal/journal-file.ts';
import { Exchange } from '../src/api/exchange.ts';
import { startServer, type RunningServer } from '../src/api/server.ts';
import { loadScenario } from '../src/scenario/load.ts';
import type { BenchCase } from './harness.ts';
import type { ClientJob } from './wire/client-worker.ts';
import type { LatencySummary } from './wire/latency.ts';
import type { MdResult } from './wire/md-load.ts';
import type { RestResult } from './wire/rest-load.ts';
import type { WsOrderResult } from './wire/ws-order-load.ts';

const RUN_TIMEOUT_MS = 60_000;
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

/** The server and its client worker of one case. */
class Rig {
  exchange!: Exchange;
  server!: RunningServer;
  token!: string;
  private worker: Worker | undefined;
  private journalDir: string | undefined;

  /** `journal`: every command is journaled (fsync per event-loop turn), as `serve --data-dir`. */
  constructor(private readonly journal = false) {}

  async start(): Promise<void> {
    this.exchange = await Exchange.create(loadScenario('empty'), { manual: true, scryptCost: 1024 });
    if (this.journal) {
      this.journalDir = mkdtempSync(join(tmpdir(), 'perpsim-bench-journal-'));
      this.exchange.commands.attach(JournalFile.create(this.journalDir, { perpsim_journal: 1, scenario: {}, seed: 0 }));
    }
    this.server = await startServer(this.exchange, { port: 0 });
    this.token = (await this.exchange.users.tokenForPassword('alice', 'alice-password', 3600))!;
    this.worker = new Worker(new URL('./wire/worker-boot.mjs', import.meta.url), {
      workerData: { entry: new URL('./wire/client-worker.ts', import.meta.url).href },
    });
  }

  /** Runs one job in the client worker; rejects on a client error or after RUN_TIMEOUT_MS. */
  ask<T>(job: ClientJob): Promise<T> {
    const worker = this.worker!;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`wire bench: ${job.op} took more than ${RUN_TIMEOUT_MS} ms`)), RUN_TIMEOUT_MS);
      worker.once('message', (m: { ok: boolean; result?: T; error?: string }) => {
        clearTimeout(timer);
        if (m.ok) resolve(m.result as T);
        else reject(new Error(`wire client: ${m.error}`));
      });
      worker.postMessage(job);
    });
  }

  async stop(): Promise<void> {
    if (this.worker !== undefined) {
      await this.ask({ op: 'close' }).catch(() => undefined);
      await this.worker.terminate();
      this.worker = undefined;
    }
    await this.server?.close();
    if (this.journalDir !== undefined) rmSync(this.journalDir, { recursive: true, force: true });
  }
}

const us = (x: number): string => (Number.isNaN(x) ? '-' : x >= 1000 ? `${(x / 1000).toFixed(2)} ms` : `${Math.round(x)} µs`);
const latencyNote = (l: LatencySummary): string => `p50 ${us(l.p50Us)}, p99 ${us(l.p99Us)}, max ${us(l.maxUs)} (${l.samples.toLocaleString('en-US')} samples)`;
const perSec = (n: number, ns: number): string => `${Math.round((n * 1e9) / ns).toLocaleString('en-US')}/s`;

/** Common shape of the wire cases: a few whole runs, the server and client started once. */
function wireCase<R>(
  name: string,
  unit: string,
  opsOf: (r: R) => number,
  open: (rig: Rig) => Promise<void>,
  job: (rig: Rig) => ClientJob,
  note: (r: R) => string,
  journal = false,
): BenchCase {
  const rig = new Rig(journal);
  let last: R | undefined;
  let runs = 0;
  let ops = 0;
  return {
    name,
    unit,
    get opsPerRun() {
      return runs === 0 ? 1 : ops / runs;
    },
    iterations: 3,
    timeMs: 0,
    warmupIterations: 1,
    gcBetweenRuns: true,
    async: true,
    async setup() {
      await rig.start();
      await open(rig);
    },
    async teardown() {
      await rig.stop();
    },
    prepare() {},
    reset() {},
    async run() {
      last = await rig.ask<R>(job(rig));
      runs++;
      ops += opsOf(last);
    },
    release() {},
    dispose() {},
    describe() {
      return last === undefined ? 'no run' : note(last);
    },
  };
}

function restCase(journal = false): BenchCase {
  return wireCase<RestResult>(
    journal ? 'wire.rest.insert.journal' : 'wire.rest.insert',
    'request',
    (r) => r.requests,
    async () => {},
    (rig) => ({
      op: 'rest',
      load: {
        host: '127.0.0.1',
        port: rig.server.port,
        path: '/orders/insert_order',
        token: rig.token,
        bodies: ORDER_PAIR.map((o) =>
          JSON.stringify({ username: 'alice', symbol: o.s, price: o.p, quantity: o.q, side: o.d, time_in_force: o.tif, post_only: o.po }),
        ),
        count: REST_REQUESTS,
        connections: REST_CONNECTIONS,
        depth: REST_DEPTH,
      },
    }),
    (r) =>
      `${r.requests.toLocaleString('en-US')} requests (${REST_CONNECTIONS} keep-alive connections × ${REST_DEPTH} pipelined) at ` +
      `${perSec(r.requests, r.elapsedNs)}, ${r.non200} not 200; latency ${latencyNote(r.latency)}`,
    journal,
  );
}

function wsOrdersCase(journal = false): BenchCase {
  return wireCase<WsOrderResult>(
    journal ? 'wire.ws.orders.journal' : 'wire.ws.orders',
    'order',
    (r) => r.orders,
    (rig) => rig.ask({ op: 'orders.open', url: `${rig.server.wsUrl}/orders`, user: 'alice', token: rig.token }),
    (rig) => ({
      op: 'orders',
      load: { url: `${rig.server.wsUrl}/orders`, user: 'alice', token: rig.token, orders: ORDER_PAIR.map((o) => JSON.stringify(o)), count: WS_ORDERS, depth: WS_DEPTH },
    }),
    (r) =>
      `${r.orders.toLocaleString('en-US')} orders (${WS_DEPTH} in flight) at ${perSec(r.orders, r.elapsedNs)}, ` +
      `${perSec(r.messages, r.elapsedNs)} messages received, feeds ${JSON.stringify(r.feeds)}, ${r.errors} errors; ` +
      `latency ${latencyNote(r.latency)}`,
    journal,
  );
}

function mdCase(level: 'LEVEL_1' | 'LEVEL_2'): BenchCase {
  // Base book: ten asks and ten bids around the tagged bids (2990.00 + tag·0.01).
  const base = [
    ...Array.from({ length: 10 }, (_, i) => ({ t: 'p', s: SYMBOL, d: 'S', q: 1 + i, p: String(3000 + i), tif: 'GTC', po: false })),
    ...Array.from({ length: 10 }, (_, i) => ({ t: 'p', s: SYMBOL, d: 'B', q: 1 + i, p: String(2989 - i), tif: 'GTC', po: false })),
  ];
  return wireCase<MdResult>(
    level === 'LEVEL_1' ? 'wire.md.l1' : 'wire.md.l2',
    'message',
    (r) => r.messages,
    (rig) =>
      rig.ask({
        op: 'md.open',
        ordersUrl: `${rig.server.wsUrl}/orders`,
        mdUrl: `${rig.server.wsUrl}/md/ws`,
        user: 'alice',
        token: rig.token,
        symbol: SYMBOL,
        level,
        subscribers: MD_SUBSCRIBERS,
        base,
      }),
    () => ({ op: 'md', load: { mdUrl: '', symbol: SYMBOL, level, cycles: MD_CYCLES, window: MD_WINDOW } }),
    (r) =>
      `${MD_SUBSCRIBERS} subscribers at ${level}, ${r.cycles.toLocaleString('en-US')} trade+book cycles (${MD_WINDOW} in flight): ` +
      `${perSec(r.messages, r.elapsedNs)} messages (${r.stats.toLocaleString('en-US')} stats, ${r.bookUpdates.toLocaleString('en-US')} book); ` +
      `latency ${latencyNote(r.latency)}`,
  );
}

export function wireCases(): BenchCase[] {
  // The journal's cost on order entry: `.journal` cases are the same loads with `serve --data-dir`'s journal.
  return [restCase(), restCase(true), wsOrdersCase(), wsOrdersCase(true), mdCase('LEVEL_1'), mdCase('LEVEL_2')];
}
