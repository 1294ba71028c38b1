/**
 * The wire benchmarks' client, run in a child process (forked with tsx) so that it has a core of
 * its own, the server's event loop is not shared with the load generator, and the server
 * process's CPU time (`process.cpuUsage()`) is the server's alone. The bench sends
 * {@link ClientJob}s over IPC; each is answered with `{ok: true, result}` or `{ok: false, error}`.
 */
import type { WebSocket } from 'ws';
import { openSubscribers, runMdLoad, TAGS, type MdLoad, type MdRig } from './md-load.ts';
import { runRestLoad, type RestLoad } from './rest-load.ts';
import { orderSocket, request, runWsOrderLoad, type WsOrderLoad, type WsOrderResult } from './ws-order-load.ts';

export type ClientJob =
  | { op: 'rest'; load: RestLoad }
  | { op: 'orders.open'; url: string; user: string; token: string; traders?: { user: string; token: string }[] }
  | { op: 'orders'; load: WsOrderLoad }
  | { op: 'md.open'; ordersUrl: string; mdUrl: string; user: string; token: string; symbol: string; level: string; subscribers: number; base: Record<string, unknown>[] }
  | { op: 'md'; load: MdLoad }
  | { op: 'close' };

/** The order sockets of `orders` jobs (one, or one per trader: the journal cases load several). */
let orders: WebSocket[] = [];
let rid = 1;
let rig: MdRig | undefined;

/** ETHUSD-PERP style prices: 2990.00 + tag·0.01 (tags stay far below the base asks and above the base bids). */
const priceOf = (tag: number): string => {
  const cents = 299_000 + tag;
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
};
const tagOf = (price: string): number => Math.round(Number(price) * 100) - 299_000;

async function handle(job: ClientJob): Promise<unknown> {
  switch (job.op) {
    case 'rest':
      return runRestLoad(job.load);
    case 'orders.open':
      // one socket, or one per trader (each user's feeds go to that user's socket only)
      orders = await Promise.all((job.traders ?? [{ user: job.user, token: job.token }]).map((t) => orderSocket(job.url, t.user, t.token)));
      return undefined;
    case 'orders': {
      // `count` orders split over the sockets, each with `depth` in flight, all at once
      const per = Math.ceil(job.load.count / orders.length);
      const results = await Promise.all(orders.map((ws, i) => runWsOrderLoad(ws, { ...job.load, count: per }, rid + i * per)));
      rid += per * orders.length;
      return results.length === 1 ? results[0] : mergeOrderResults(results);
    }
    case 'md.open': {
      const ws = await orderSocket(job.ordersUrl, job.user, job.token);
      let next = 1;
      // Base book, then the first tagged bid, each answered before the next, so the book is in place before subscribing.
      const first = { t: 'p', s: job.symbol, d: 'B', q: 1, p: priceOf(0), tif: 'GTC', po: false };
      for (const body of [...job.base, first]) {
        const reply = await request(ws, { rid: next++, ...body });
        if (reply.err !== undefined) throw new Error(`base order failed: ${JSON.stringify(reply)}`);
      }
      const subs = await openSubscribers(job.mdUrl, job.subscribers, job.user, job.token, job.symbol, job.level);
      rig = { subs, orders: ws, priceOf, tagOf, nextRid: next, cycle: 0 };
      return { tags: TAGS };
    }
    case 'md':
      return runMdLoad(rig!, job.load);
    case 'close':
      for (const ws of [...orders, rig?.orders, ...(rig?.subs ?? [])]) ws?.terminate();
      orders = [];
      rig = undefined;
      return undefined;
  }
}

/** Several sockets' results as one: totals, the longest elapsed time, and the worst socket's latency percentiles. */
function mergeOrderResults(rs: WsOrderResult[]): WsOrderResult {
  const feeds: Record<string, number> = {};
  for (const r of rs) for (const [k, n] of Object.entries(r.feeds)) feeds[k] = (feeds[k] ?? 0) + n;
  const sum = (f: (r: WsOrderResult) => number) => rs.reduce((a, r) => a + f(r), 0);
  const max = (f: (r: WsOrderResult) => number) => Math.max(...rs.map(f));
  return {
    orders: sum((r) => r.orders),
    elapsedNs: max((r) => r.elapsedNs),
    errors: sum((r) => r.errors),
    feeds,
    messages: sum((r) => r.messages),
    latency: { samples: sum((r) => r.latency.samples), p50Us: max((r) => r.latency.p50Us), p99Us: max((r) => r.latency.p99Us), maxUs: max((r) => r.latency.maxUs) },
  };
}

process.on('message', (job: ClientJob) => {
  handle(job).then(
    (result) => process.send!({ ok: true, result }),
    (e: unknown) => process.send!({ ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
});
// The bench going away (even killed) closes the IPC channel: end with it.
process.on('disconnect', () => process.exit(0));
